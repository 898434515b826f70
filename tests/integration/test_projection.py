"""PostgreSQL → graph projection against real servers, on a small hand-made dataset.

The dataset lives in its own database (`atlas_projection_test`, recreated per session) and is
projected into its own graph (`projection_test`), so it collides with neither the seed data nor
other tests.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool

from data_access.config import Settings
from data_access.graph import GraphStore, get_graph_store
from data_access.projection import ProjectionReport, latest_projection_runs, project_all
from data_access.services import ServiceInfo

TEST_DB = "atlas_projection_test"
GRAPH = "projection_test"
D1, D2, D3 = "2026-11-18", "2026-11-19", "2026-11-20"

# Three ETFs over three snapshot dates; weights in percent.
HOLDINGS: dict[str, dict[str, dict[str, float]]] = {
    "069500": {
        D1: {"KR:005930": 30.0, "KR:000660": 10.0, "KR:035420": 5.0},
        D2: {"KR:005930": 30.5, "KR:000660": 9.5, "KR:035420": 5.0},
        D3: {"KR:005930": 30.5, "KR:000660": 10.5, "KR:095610": 1.0},
    },
    "091160": {
        D1: {"KR:005930": 20.0, "KR:000660": 20.0},
        D2: {"KR:005930": 20.0, "KR:000660": 20.0},
        D3: {"KR:005930": 22.0, "KR:000660": 18.0, "KR:095610": 5.0},
    },
    "091230": {
        D1: {"KR:000660": 25.0},
        D2: {"KR:000660": 25.0, "KR:095610": 3.0},
        D3: {"KR:000660": 24.0, "KR:095610": 3.0},
    },
}

# What consecutive snapshots imply (unchanged pairs are not stored).
EXPECTED_CHANGES = {
    ("069500", "005930", D2, "increased"),
    ("069500", "000660", D2, "decreased"),
    ("069500", "000660", D3, "increased"),
    ("069500", "035420", D3, "removed"),
    ("069500", "095610", D3, "added"),
    ("091160", "005930", D3, "increased"),
    ("091160", "000660", D3, "decreased"),
    ("091160", "095610", D3, "added"),
    ("091230", "095610", D2, "added"),
    ("091230", "000660", D3, "decreased"),
}

FIXTURE_SQL = """
INSERT INTO managers (name, name_en) VALUES
  ('삼성자산운용', 'Samsung Asset Management'), ('미래에셋자산운용', 'Mirae Asset');
INSERT INTO tags (name) VALUES ('반도체'), ('시장대표'), ('배당');
INSERT INTO stocks (security_id, country, code, name, market, sector, currency, is_etf) VALUES
  ('KR:005930', 'KR', '005930', '삼성전자', 'KOSPI', '전기전자', 'KRW', false),
  ('KR:000660', 'KR', '000660', 'SK하이닉스', 'KOSPI', '전기전자', 'KRW', false),
  ('KR:035420', 'KR', '035420', 'NAVER', 'KOSPI', '서비스업', 'KRW', false),
  ('KR:095610', 'KR', '095610', '테스', 'KOSDAQ', '반도체장비', 'KRW', false),
  ('US:AAPL', 'US', 'AAPL', 'Apple', 'NASDAQ', 'Information Technology', 'USD', false),
  ('KR:069500', 'KR', '069500', 'KODEX 200', 'KOSPI', 'ETF', 'KRW', true);
INSERT INTO etfs (code, name, manager, expense_ratio, updated_at) VALUES
  ('069500', 'KODEX 200', '삼성자산운용', 0.15, '2026-11-20 18:00+09'),
  ('091160', 'KODEX 반도체', '삼성자산운용', 0.45, '2026-11-20 18:00+09'),
  ('091230', 'TIGER 반도체', '미래에셋자산운용', 0.46, '2026-11-20 18:00+09');
INSERT INTO etf_tags VALUES ('069500', '시장대표'), ('091160', '반도체'), ('091230', '반도체'),
  ('091230', '배당');
INSERT INTO stock_prices (security_id, trade_date, open, high, low, close, volume)
SELECT sid, d::date, 100, 110, 90, 100 + extract(day FROM d), 1000
FROM unnest(ARRAY['KR:005930', 'KR:000660']) sid,
     generate_series('2026-11-16'::date, '2026-11-20'::date, '1 day') d;
INSERT INTO stock_fundamentals (security_id, as_of_date, market_cap) VALUES
  ('KR:005930', '2026-10-31', 400e12), ('KR:000660', '2026-10-31', 100e12),
  ('KR:035420', '2026-10-31', 30e12), ('KR:005930', '2026-11-20', 410e12),
  ('KR:000660', '2026-11-20', 120e12), ('KR:095610', '2026-11-20', 1e12),
  ('US:AAPL', '2026-11-20', 3.5e12);
INSERT INTO earnings_events (event_key, security_id, period, event_date, status, eps_estimate,
                             eps_actual, source) VALUES
  ('KR:005930:2026Q3', 'KR:005930', '2026Q3', '2026-10-30', 'confirmed', 1500, 1620, 'demo'),
  ('KR:005930:2026Q4', 'KR:005930', '2026Q4', '2027-01-29', 'expected', 1700, NULL, 'demo');
INSERT INTO macro_series VALUES
  ('FEDFUNDS', 'Federal Funds Rate', '미국 기준금리', 'US', 'percent', 'monthly', 'demo');
INSERT INTO macro_observations VALUES
  ('FEDFUNDS', '2026-08-01', 4.33, '2026-09-02 14:00+00', '2026-09-02', false),
  ('FEDFUNDS', '2026-09-01', 4.08, '2026-10-01 14:00+00', '2026-10-01', false),
  ('FEDFUNDS', '2026-10-01', 3.87, '2026-11-03 14:00+00', '2026-11-03', true);
INSERT INTO re_house_price_index VALUES
  ('서울', '2026-09-01', 101.2), ('서울', '2026-10-01', 101.9);
INSERT INTO re_jeonse_ratio VALUES ('서울', '2026-10-01', 53.4);
INSERT INTO re_unsold_housing VALUES ('서울', '2026-10-01', 950);
INSERT INTO re_permits VALUES ('서울', '2026-10-01', 3100);
INSERT INTO re_transactions (region, complex_name, area_m2, floor, price_krw, deal_date) VALUES
  ('서울', '래미안', 84.9, 10, 1500000000, '2026-10-03'),
  ('서울', '자이', 59.9, 5, 1000000000, '2026-10-15'),
  ('서울', '힐스테이트', 84.9, 20, 1300000000, '2026-10-28');
INSERT INTO documents VALUES
  ('doc-fomc', 'FOMC statement', 'https://example.org/fomc', 'statement',
   '2026-10-29 18:00+00', 'Rates lowered by 25bp.', 'en'),
  ('doc-news', '반도체 수출 호조', 'https://example.org/news', 'news',
   '2026-11-02 09:00+09', '삼성전자 반도체 수출이 늘었다.', 'ko');
INSERT INTO events VALUES
  ('ev-cut', 'FOMC 금리 인하', 'policy', '2026-10-29', '금리'),
  ('ev-chip', '반도체 수출 증가', 'data_release', '2026-11-01', '반도체'),
  ('ev-earn', 'SK하이닉스 3Q 실적 발표', 'earnings', '2026-10-24', '실적');
INSERT INTO evidence VALUES
  ('evd-1', 'doc-fomc', 'ev-cut', 'The Committee lowered the target range.', 'FEDFUNDS', NULL,
   'AFFECTS'),
  ('evd-2', 'doc-news', 'ev-chip', '삼성전자 반도체 수출 증가', NULL, 'KR:005930', 'AFFECTS'),
  ('evd-3', 'doc-news', 'ev-chip', '수출 호조 언급', NULL, 'KR:005930', 'MENTIONS'),
  ('evd-4', 'doc-news', NULL, '출처만 있는 근거', NULL, NULL, 'SUPPORTS'),
  ('evd-5', 'doc-news', 'ev-earn', 'SK하이닉스 EPS가 예상치를 상회했다.', NULL, 'KR:000660',
   'SUPPORTS');
INSERT INTO seed_runs (scale, seed, as_of_date, checksums, row_counts, duration_ms, created_at)
VALUES ('test', 1, '2026-11-20', '{}', '{}', 1, now() - interval '10 minutes');
"""


def holdings_sql() -> str:
    rows = [
        f"('{etf}', '{day}', '{sid}', {weight}, {int(weight * 1000)})"
        for etf, days in HOLDINGS.items()
        for day, weights in days.items()
        for sid, weight in weights.items()
    ]
    return "INSERT INTO etf_holdings VALUES " + ", ".join(rows) + ";"


@pytest.fixture(scope="session")
def projection_pool(services: ServiceInfo, settings: Settings) -> Iterator[ConnectionPool]:
    """A fresh `atlas_projection_test` database with the migrations and the fixture rows."""
    from data_access.postgres import get_pool, migrate

    server_uri = services.postgres_uri
    with psycopg.connect(server_uri, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {TEST_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {TEST_DB}")
    pool = get_pool(make_conninfo(server_uri, dbname=TEST_DB), settings)
    migrate(pool)
    with pool.connection() as conn:
        conn.execute(FIXTURE_SQL)  # type: ignore[arg-type]
        conn.execute(holdings_sql())  # type: ignore[arg-type]
    yield pool
    pool.close()


@pytest.fixture
def store(settings: Settings) -> Iterator[GraphStore]:
    graph = get_graph_store(settings.model_copy(update={"neo4j_uri": None}), name=GRAPH)
    graph.clear()
    yield graph


def counts(store: GraphStore) -> dict[str, int]:
    schema = store.schema()
    by_label = {f"({i.label})": i.count for i in schema.labels}
    by_type = {f"[{r.type}]": schema.relationship_count(r.type) for r in schema.relationships}
    return by_label | by_type


def run(
    store: GraphStore, pool: ConnectionPool, holdings_days: int | None = None
) -> ProjectionReport:
    report = project_all(
        store, pool, holdings_days=holdings_days, daily_bar_days=3, universe_size=2
    )
    assert report.status == "ok", report.to_text()
    return report


def test_projection_is_idempotent_and_records_each_run(
    store: GraphStore, projection_pool: ConnectionPool
) -> None:
    first = run(store, projection_pool)
    after_first = counts(store)
    second = run(store, projection_pool)
    assert counts(store) == after_first
    assert first.batch_id != second.batch_id
    recorded = latest_projection_runs(projection_pool, limit=2 * len(first.steps))
    assert {r.batch_id for r in recorded} == {first.batch_id, second.batch_id}
    assert [r.step for r in recorded if r.batch_id == second.batch_id] == [
        s.step for s in reversed(second.steps)
    ]
    assert after_first["(ETF)"] == 3 and after_first["(Stock)"] == 6
    assert after_first["[HOLDS]"] == 21 and after_first["[HAS_CHANGE]"] == len(EXPECTED_CHANGES)


def test_steps_report_fetched_upserted_as_of_and_lag(
    store: GraphStore, projection_pool: ConnectionPool
) -> None:
    report = run(store, projection_pool)
    holds = report.step("holds")
    assert (holds.rows_fetched, holds.upserted, holds.failed) == (21, 21, 0)
    assert str(holds.latest_as_of) == D3
    assert str(report.step("earnings").latest_as_of) == "2026-10-30"  # confirmed, not expected
    assert str(report.step("re_monthly_summary").latest_as_of) == "2026-10-01"
    assert report.step("etf_tags").upserted == 4
    # The seed run was recorded 10 minutes before the projection.
    assert 9.5 < (holds.lag_minutes or 0) < 30
    assert report.upserted == sum(s.upserted for s in report.steps) > 0


def test_holdings_and_their_changes(store: GraphStore, projection_pool: ConnectionPool) -> None:
    run(store, projection_pool)
    changes = store.read(
        "MATCH (e:ETF)-[c:HAS_CHANGE]->(s:Stock) "
        "RETURN e.code AS etf, s.code AS stock, c.date AS date, c.change_type AS type, "
        "c.old_weight AS old, c.new_weight AS new"
    )
    assert {(c["etf"], c["stock"], c["date"], c["type"]) for c in changes} == EXPECTED_CHANGES
    removed = next(c for c in changes if c["type"] == "removed")
    assert (removed["old"], removed["new"]) == (5.0, None)
    weights = store.read(
        "MATCH (:ETF {code: '069500'})-[h:HOLDS]->(s:Stock) WHERE h.date = $d "
        "RETURN s.code AS code, h.weight AS weight, h.shares AS shares ORDER BY code",
        {"d": D3},
    )
    assert weights == [
        {"code": "000660", "weight": 10.5, "shares": 10500},
        {"code": "005930", "weight": 30.5, "shares": 30500},
        {"code": "095610", "weight": 1.0, "shares": 1000},
    ]


def test_holdings_window_keeps_only_the_latest_snapshots(
    store: GraphStore, projection_pool: ConnectionPool
) -> None:
    run(store, projection_pool)
    report = run(store, projection_pool, holdings_days=1)
    assert report.step("holds").rows_fetched == 8
    dates = store.read("MATCH (:ETF)-[h:HOLDS]->() RETURN DISTINCT h.date AS d")
    assert dates == [{"d": D3}]
    kept = store.read("MATCH (:ETF)-[c:HAS_CHANGE]->() RETURN c.date AS d")
    assert {r["d"] for r in kept} == {D3} and len(kept) == 7


def test_seed_000_reference_graph(store: GraphStore, projection_pool: ConnectionPool) -> None:
    run(store, projection_pool)
    rows = store.read(
        "MATCH (e:ETF)-[:MANAGED_BY]->(c:Company) WHERE c.name CONTAINS '삼성' "
        "RETURN e.code AS code, e.expense_ratio AS fee ORDER BY code"
    )
    assert rows == [{"code": "069500", "fee": 0.15}, {"code": "091160", "fee": 0.45}]
    tagged = store.read(
        "MATCH (e:ETF)-[:TAGGED]->(:Tag {name: '반도체'}) RETURN e.code AS code ORDER BY code"
    )
    assert tagged == [{"code": "091160"}, {"code": "091230"}]
    stock = store.read(
        "MATCH (s:Stock {code: '095610'})-[:BELONGS_TO]->(sec:Sector), (s)-[:PART_OF]->(m:Market) "
        "RETURN sec.name AS sector, m.name AS market, s.is_etf AS is_etf"
    )
    assert stock == [{"sector": "반도체장비", "market": "KOSDAQ", "is_etf": False}]


def test_seed_004_equity_macro_and_documents(
    store: GraphStore, projection_pool: ConnectionPool
) -> None:
    run(store, projection_pool)
    issuer = store.read(
        "MATCH (s:Stock {code: '005930'})-[:ISSUED_BY]->(c:Company) "
        "OPTIONAL MATCH (c)-[:HAS_DAILY_BAR]->(b:EquityDailyBar) "
        "RETURN c.security_id AS sid, c.kind AS kind, count(b) AS bars, max(b.trade_date) AS last"
    )
    assert issuer == [{"sid": "KR:005930", "kind": "issuer", "bars": 3, "last": D3}]
    universe = store.read(
        "MATCH (c:Company)-[r:IN_UNIVERSE]->(u:EquityUniverseSnapshot {country_code: 'KR'}) "
        "RETURN u.snapshot_date AS date, c.security_id AS sid, r.rank AS rank "
        "ORDER BY date, rank"
    )
    assert universe == [
        {"date": "2026-10-31", "sid": "KR:005930", "rank": 1},
        {"date": "2026-10-31", "sid": "KR:000660", "rank": 2},
        {"date": "2026-11-20", "sid": "KR:005930", "rank": 1},
        {"date": "2026-11-20", "sid": "KR:000660", "rank": 2},
    ]
    obs = store.read(
        "MATCH (:EconomicIndicator {indicator_code: 'FEDFUNDS'})-[:HAS_OBSERVATION]->"
        "(o:IndicatorObservation) RETURN o.obs_date AS d, o.value AS v, o.revision_flag AS rev "
        "ORDER BY d DESC LIMIT 1"
    )
    assert obs == [{"d": "2026-10-01", "v": 3.87, "rev": True}]
    affects = store.read(
        "MATCH (ev:Evidence)-[:SUPPORTS]->(e:Event)-[:AFFECTS]->(t) "
        "RETURN ev.evidence_id AS evidence, labels(t)[0] AS target ORDER BY evidence"
    )
    assert affects == [
        {"evidence": "evd-1", "target": "EconomicIndicator"},
        {"evidence": "evd-2", "target": "Company"},
        {"evidence": "evd-3", "target": "Company"},  # same event, other evidence
        {"evidence": "evd-5", "target": "Company"},  # a SUPPORTS row names what its event is about
    ]
    themes = store.read(
        "MATCH (d:Document)-[:ABOUT_THEME]->(t:Tag) RETURN d.doc_id AS doc, t.name AS theme "
        "ORDER BY doc, theme"
    )
    assert themes == [
        {"doc": "doc-fomc", "theme": "금리"},
        {"doc": "doc-news", "theme": "반도체"},
        {"doc": "doc-news", "theme": "실적"},
    ]
    summary = store.read(
        "MATCH (r:RealEstateMonthlySummary {summary_key: '서울|2026-10'}) "
        "RETURN r.house_price_index AS hpi, r.transactions AS tx, r.median_price_krw AS median, "
        "r.unsold_units AS unsold"
    )
    assert summary == [{"hpi": 101.9, "tx": 3, "median": 1300000000, "unsold": 950}]


def test_source_changes_move_links_instead_of_duplicating(
    store: GraphStore, projection_pool: ConnectionPool
) -> None:
    run(store, projection_pool)
    with projection_pool.connection() as conn:
        conn.execute("UPDATE stocks SET sector = '반도체' WHERE security_id = 'KR:095610'")
        conn.execute("DELETE FROM etf_tags WHERE etf_code = '091230' AND tag = '배당'")
    try:
        run(store, projection_pool)
        sectors = store.read(
            "MATCH (:Stock {code: '095610'})-[:BELONGS_TO]->(s:Sector) RETURN s.name AS name"
        )
        assert sectors == [{"name": "반도체"}]
        tags = store.read("MATCH (:ETF {code: '091230'})-[:TAGGED]->(t:Tag) RETURN t.name AS t")
        assert tags == [{"t": "반도체"}]
    finally:
        with projection_pool.connection() as conn:
            conn.execute("UPDATE stocks SET sector = '반도체장비' WHERE security_id = 'KR:095610'")
            conn.execute("INSERT INTO etf_tags VALUES ('091230', '배당')")


def test_missing_endpoints_make_a_partial_step(
    store: GraphStore, projection_pool: ConnectionPool
) -> None:
    """HOLDS rows whose ETF is not in the graph are counted as failed, not silently dropped."""
    report = project_all(store, projection_pool, steps=["stocks", "holds"])
    holds = report.step("holds")
    assert (holds.status, holds.upserted, holds.failed) == ("partial", 0, 21)
    assert report.status == "partial"


def test_unreachable_graph_or_bad_options_raise_before_any_step(
    store: GraphStore, projection_pool: ConnectionPool
) -> None:
    from data_access.errors import StoreUnavailable, ToolInputError
    from data_access.graph.falkordb_store import FalkorDBStore

    before = len(latest_projection_runs(projection_pool, limit=1000))
    with pytest.raises(StoreUnavailable):
        project_all(FalkorDBStore("redis://127.0.0.1:1", "nowhere"), projection_pool)
    with pytest.raises(ToolInputError):
        project_all(store, projection_pool, holdings_days=0)
    with pytest.raises(ToolInputError):
        project_all(store, projection_pool, steps=["holds", "hodls"])
    assert len(latest_projection_runs(projection_pool, limit=1000)) == before


def test_an_incremental_run_leaves_the_graph_a_full_run_would(
    store: GraphStore, projection_pool: ConnectionPool
) -> None:
    """Issue 25: a scoped run (one ETF's new snapshot, one stock's new bar, one series' new
    observation, from their date on) gives the same graph as re-projecting everything, and
    writes only what changed."""
    from datetime import date

    from data_access.projection.scope import ProjectionScope

    run(store, projection_pool)
    d4 = "2026-11-23"
    added = [
        "INSERT INTO etf_holdings VALUES ('091230', %(d)s, 'KR:000660', 24.0, 24000),"
        " ('091230', %(d)s, 'KR:005930', 2.0, 2000)",
        "INSERT INTO stock_prices (security_id, trade_date, open, high, low, close, volume)"
        " VALUES ('KR:005930', %(d)s, 100, 130, 90, 125, 1000)",
        "INSERT INTO macro_observations (series_code, obs_date, value, published_at, as_of_date)"
        " SELECT series_code, %(d)s, 9.5, now(), %(d)s FROM macro_series LIMIT 1",
    ]
    series = store.read("MATCH (i:EconomicIndicator) RETURN i.indicator_code AS c LIMIT 1")
    try:
        with projection_pool.connection() as conn:
            for statement in added:
                conn.execute(statement, {"d": d4})  # type: ignore[arg-type]
        scope = ProjectionScope(
            etf_codes=("091230",), security_ids=("KR:005930",), series_codes=(series[0]["c"],),
            since=date.fromisoformat(d4),
        )  # fmt: skip
        report = project_all(store, projection_pool, daily_bar_days=3, universe_size=2, scope=scope)
        assert report.status == "ok", report.to_text()
        assert [s.step for s in report.steps] == [
            "stocks", "holds", "holding_changes", "issuers", "daily_bars", "indicators",
            "indicator_observations",
        ]  # fmt: skip
        written = {s.step: s.upserted for s in report.steps}
        assert (written["holds"], written["holding_changes"], written["daily_bars"]) == (2, 2, 1)
        changed = store.read(
            "MATCH (:ETF {code: '091230'})-[c:HAS_CHANGE {date: $d}]->(s:Stock) "
            "RETURN s.code AS code, c.change_type AS type ORDER BY code",
            {"d": d4},
        )
        assert changed == [
            {"code": "005930", "type": "added"},
            {"code": "095610", "type": "removed"},
        ]
        assert written["indicator_observations"] == 1
        incremental = counts(store)
        bars = store.read(
            "MATCH (:Company {security_id: 'KR:005930'})-[:HAS_DAILY_BAR]->(b) "
            "RETURN b.trade_date AS d ORDER BY d"
        )
        assert [b["d"] for b in bars] == ["2026-11-19", "2026-11-20", d4]  # window of 3 kept
        run(store, projection_pool)
        assert counts(store) == incremental
    finally:
        with projection_pool.connection() as conn:
            for table, column in (("etf_holdings", "as_of_date"), ("stock_prices", "trade_date"),
                                  ("macro_observations", "obs_date")):  # fmt: skip
                conn.execute(f"DELETE FROM {table} WHERE {column} = %s", (d4,))  # type: ignore[arg-type]
