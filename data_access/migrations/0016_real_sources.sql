-- Issue 35: tables for the files Korean public sources publish (seed 004 §12.2-3, §8).
--
-- MOLIT 아파트 매매 실거래가: every deal lands in `re_transactions` (what the real-estate answers
-- read, price in 원) and keeps its full published record here, keyed by the deal's identity so a
-- re-import updates instead of duplicating. No foreign key to re_transactions: the demo seed
-- TRUNCATEs that table without CASCADE; a dangling tx_id is re-inserted by the next import.
CREATE TABLE IF NOT EXISTS molit_apt_trades (
    source_key     text PRIMARY KEY,      -- md5 of 시군구|번지|단지명|면적|계약일|금액|층|동
    tx_id          bigint,                -- re_transactions.id of this deal
    sigungu        text NOT NULL,         -- 서울특별시 강남구 개포동
    region         text NOT NULL,         -- 서울 강남구 (the re_transactions region)
    beonji         text,
    complex_name   text NOT NULL,
    area_m2        numeric(7,2) NOT NULL,
    deal_date      date NOT NULL,
    price_manwon   bigint NOT NULL,       -- as published: 만원
    price_krw      bigint NOT NULL,       -- 원
    floor          int,
    dong           text,
    build_year     int,
    road_address   text,
    deal_type      text,                  -- 중개거래 | 직거래
    registered_on  text,                  -- 등기일자 as published (YY.MM.DD) or NULL
    source_file    text NOT NULL,
    imported_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS molit_apt_trades_region_date ON molit_apt_trades (region, deal_date);

-- OpenDART 공시검색 (list.json): one row per filing.
CREATE TABLE IF NOT EXISTS dart_disclosures (
    rcept_no    text PRIMARY KEY,         -- 접수번호, 14 digits
    corp_code   text NOT NULL,            -- DART 고유번호, 8 digits
    corp_name   text NOT NULL,
    stock_code  text,                     -- 6 digits for listed companies, else NULL
    security_id text,                     -- KR:005930 when stock_code is set
    corp_cls    text,                     -- Y 유가 | K 코스닥 | N 코넥스 | E 기타
    report_nm   text NOT NULL,
    flr_nm      text NOT NULL,            -- 공시 제출인
    rcept_dt    date NOT NULL,
    rm          text,                     -- 비고 (유, 코, 채, 연, 정 ...)
    url         text NOT NULL,            -- https://dart.fss.or.kr/dsaf001/main.do?rcpNo=...
    imported_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS dart_disclosures_security ON dart_disclosures (security_id, rcept_dt);

-- OpenDART 단일회사 주요계정 (fnlttSinglAcnt.json): one row per account and statement basis.
CREATE TABLE IF NOT EXISTS dart_financial_accounts (
    rcept_no        text NOT NULL,
    corp_code       text NOT NULL,
    stock_code      text,
    security_id     text,
    bsns_year       int NOT NULL,
    reprt_code      text NOT NULL,        -- 11013 1분기 | 11012 반기 | 11014 3분기 | 11011 사업
    fs_div          text NOT NULL,        -- CFS 연결 | OFS 별도
    sj_div          text NOT NULL,        -- BS 재무상태표 | IS 손익계산서
    account_nm      text NOT NULL,
    period_end      date NOT NULL,        -- end of 당기 (from thstrm_dt)
    thstrm_amount   numeric(24,0),        -- 원
    frmtrm_amount   numeric(24,0),
    bfefrmtrm_amount numeric(24,0),
    thstrm_add_amount numeric(24,0),      -- quarterly reports: 누적
    currency        text NOT NULL DEFAULT 'KRW',
    ord             int,
    imported_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (rcept_no, fs_div, sj_div, account_nm)
);
CREATE INDEX IF NOT EXISTS dart_financial_accounts_security
    ON dart_financial_accounts (security_id, period_end);

DO $migration$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'atlas_reader') THEN
        RETURN;  -- 0007 could not create the role
    END IF;
    GRANT SELECT ON TABLE molit_apt_trades, dart_disclosures, dart_financial_accounts
        TO atlas_reader;
END
$migration$;
