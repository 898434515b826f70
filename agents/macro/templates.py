"""The template registry of the Macro Q&A agents (seed 004 §10.4, §12.3-4, §13.5).

Every query an agent runs offline is a named template with its required parameters, the
dataset it cites and the fallback to use when it returns nothing or its store is down.
`run_template()` checks the parameters, runs SQL through `run_read_only` (guard, read-only
transaction, timeout) and Cypher through `GraphStore.run_guarded` (guard, RO_QUERY), and returns
rows with a structured citation for numeric (SQL or Cypher) results.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from psycopg import ClientCursor
from psycopg_pool import ConnectionPool

from agents.evidence import Stopwatch, make_citation
from agents.macro.disclosure_sql import COMPANY_DISCLOSURES
from agents.macro.universe_sql import (
    INDEX_WINDOW,
    MARKET_RANKING,
    MEMBER_HISTORY,
    UNIVERSE_CHANGES,
    UNIVERSE_MEMBERS,
    UNIVERSE_RANK,
    UNIVERSE_SNAPSHOTS,
    UNIVERSE_WINDOW_CLOSES,
)
from data_access.catalog import dataset_by_code
from data_access.contracts import StructuredCitation
from data_access.errors import ToolInputError
from data_access.graph.base import GraphStore
from data_access.market_series import is_rate_unit
from data_access.postgres import connection, run_read_only


@dataclass(frozen=True)
class Template:
    name: str
    domain: str
    kind: Literal["sql", "cypher"]
    text: str
    required: tuple[str, ...]
    table: str
    dataset_param: str | None = None  # param holding the dataset code (macro series)
    dataset_code: str | None = None
    date_param: str = "start"
    fallback: str | None = None  # template to run once on empty result / store down
    fallback_when: tuple[str, ...] = ("empty", "unavailable")
    # Numeric results (SQL or Cypher) get a structured citation; document/evidence searches do
    # not: their rows become document citations instead (seed 004 §8.4-4, §11-1).
    structured: bool = True


@dataclass
class TemplateResult:
    template: str
    kind: str
    rows: list[dict[str, Any]]
    query: str
    params: dict[str, Any]
    duration_ms: int
    citation: StructuredCitation | None = None
    notes: list[str] = field(default_factory=list)


# Row cap of a template run: a window reaches 60 months (router cap), i.e. ~1,830 daily
# observations of a 7-day series. A cap of 200 cut ascending daily windows after ~9 months, so
# the "latest" value reported was months old (found by the eval golden set).
MAX_TEMPLATE_ROWS = 2000

SQL: Literal["sql"] = "sql"
CYPHER: Literal["cypher"] = "cypher"

# An area band ('전용 84㎡') and a price band ('10억 이상') on apartment deals; NULL: no bound.
DEAL_FILTER = (
    "AND (%(area_min)s::numeric IS NULL OR area_m2 >= %(area_min)s) "
    "AND (%(area_max)s::numeric IS NULL OR area_m2 < %(area_max)s) "
    "AND (%(price_min)s::bigint IS NULL OR price_krw >= %(price_min)s) "
    "AND (%(price_max)s::bigint IS NULL OR price_krw <= %(price_max)s) "
    "AND (%(floor_min)s::int IS NULL OR floor >= %(floor_min)s) "
    "AND (%(floor_max)s::int IS NULL OR floor <= %(floor_max)s) "
)
DEAL_BANDS = ("area_min", "area_max", "price_min", "price_max", "floor_min", "floor_max")

# One region's apartment deals (its sub-regions too: '서울' is '서울 강남구' …; '전국' is every
# deal) over the window.
REGION_DEALS = (
    "FROM re_transactions WHERE (%(region)s = '전국' OR region = %(region)s "
    "OR region LIKE %(region)s || ' %%') "
    "AND deal_date >= %(start)s AND deal_date <= %(as_of)s " + DEAL_FILTER
)
# The monthly housing series: template stem, table, value column, dataset code.
HOUSING_SERIES = (
    ("re_price_index", "re_house_price_index", "index_value", "KR_HOUSE_PRICE_INDEX"),
    ("re_jeonse", "re_jeonse_ratio", "ratio", "KR_JEONSE_RATIO"),
    ("re_unsold", "re_unsold_housing", "units", "KR_UNSOLD_HOUSING"),
    ("re_permits", "re_permits", "units", "KR_HOUSING_PERMITS"),
)

TEMPLATES: dict[str, Template] = {t.name: t for t in (
    Template("macro_series_window", "macro", SQL,
             "SELECT o.obs_date, o.value, s.name_ko, s.unit FROM macro_observations o "
             "JOIN macro_series s USING (series_code) WHERE o.series_code = %(code)s "
             "AND o.obs_date >= %(start)s AND o.obs_date <= %(as_of)s ORDER BY o.obs_date",
             ("code", "start", "as_of"), "macro_observations", dataset_param="code",
             fallback="macro_indicator_observations"),
    Template("equity_price_window", "equity", SQL,
             "SELECT p.trade_date, p.close, p.volume, p.change_rate, s.name, s.currency "
             "FROM stock_prices p JOIN stocks s USING (security_id) "
             "WHERE p.security_id = %(security_id)s AND p.trade_date >= %(start)s "
             "AND p.trade_date <= %(as_of)s ORDER BY p.trade_date",
             ("security_id", "start", "as_of"), "stock_prices",
             dataset_param="dataset", fallback="equity_daily_bars"),
    Template("etf_price_window", "equity", SQL,
             "SELECT p.trade_date, p.close, p.volume, e.name FROM etf_prices p JOIN etfs e "
             "ON e.code = p.etf_code WHERE p.etf_code = %(code)s AND p.trade_date >= %(start)s "
             "AND p.trade_date <= %(as_of)s ORDER BY p.trade_date",
             ("code", "start", "as_of"), "etf_prices", dataset_code="KR_ETF_DAILY_PRICE"),
    Template("equity_fundamentals_latest", "equity", SQL,
             "SELECT as_of_date, market_cap, eps, pe, pb, dividend_yield FROM stock_fundamentals "
             "WHERE security_id = %(security_id)s AND as_of_date <= %(as_of)s "
             "ORDER BY as_of_date DESC LIMIT 1",
             ("security_id", "as_of"), "stock_fundamentals", dataset_code="STOCK_FUNDAMENTALS"),
    Template("equity_earnings", "equity", SQL,
             "SELECT period, event_date, status, eps_estimate, eps_actual, revenue_estimate, "
             "revenue_actual FROM earnings_events WHERE security_id = %(security_id)s "
             "AND event_date <= %(as_of)s ORDER BY event_date DESC LIMIT 4",
             ("security_id", "as_of"), "earnings_events", dataset_code="EARNINGS_EVENTS"),
    # OpenDART 단일회사 주요계정 (fnlttSinglAcnt.json, imported): the latest report's income
    # lines, consolidated (CFS) before separate (OFS) (agents/macro/dart_accounts.py).
    Template("dart_accounts", "equity", SQL,
             "SELECT bsns_year, reprt_code, fs_div, account_nm, period_end, thstrm_amount, "
             "frmtrm_amount FROM dart_financial_accounts WHERE security_id = %(security_id)s "
             "AND sj_div = 'IS' AND (rcept_no, fs_div) = (SELECT rcept_no, fs_div FROM "
             "dart_financial_accounts WHERE security_id = %(security_id)s AND period_end <= "
             "%(as_of)s ORDER BY period_end DESC, fs_div = 'CFS' DESC LIMIT 1) ORDER BY ord",
             ("security_id", "as_of"), "dart_financial_accounts",
             dataset_code="DART_SINGLE_ACCOUNTS"),
    *(Template(f"{name}_window", "real_estate", SQL,
               f"SELECT month, {column} AS value FROM {table} WHERE region = %(region)s "
               "AND month >= %(start)s AND month <= %(as_of)s ORDER BY month",
               ("region", "start", "as_of"), table, dataset_code=dataset,
               fallback="re_monthly_summary" if name == "re_price_index" else None)
      for name, table, column, dataset in HOUSING_SERIES),
    Template("re_transactions_monthly", "real_estate", SQL,
             "SELECT date_trunc('month', deal_date)::date AS month, count(*) AS deals, "
             "percentile_cont(0.5) WITHIN GROUP (ORDER BY price_krw)::bigint AS value "
             + REGION_DEALS + "GROUP BY 1 ORDER BY 1", ("region", "start", "as_of"), "re_transactions",
             dataset_code="KR_REAL_ESTATE_TRANSACTIONS"),
    *(Template(f"re_transactions_{side}", "real_estate", SQL,
               "SELECT deal_date, complex_name, area_m2, floor, price_krw " + REGION_DEALS
               + f"ORDER BY price_krw {order}, deal_date DESC LIMIT 3",
               ("region", "start", "as_of"), "re_transactions",
               dataset_code="KR_REAL_ESTATE_TRANSACTIONS")
      for side, order in (("highest", "DESC"), ("lowest", "ASC"))),
    # Deals per region over the window: one region's count, median and mean ('강남구 평균
    # 거래가'), or every region under a parent ('서울에서 거래 제일 많은 구'; '' for all).
    Template("re_transactions_by_region", "real_estate", SQL,
             "SELECT region, count(*) AS deals, percentile_cont(0.5) WITHIN GROUP "
             "(ORDER BY price_krw)::bigint AS median_price, avg(price_krw)::bigint AS avg_price, "
             "min(deal_date) AS first_day, max(deal_date) AS last_day FROM re_transactions "
             "WHERE (%(parent)s = '' OR region = %(parent)s OR region LIKE %(parent)s || ' %%') "
             "AND deal_date >= %(start)s AND deal_date <= %(as_of)s GROUP BY region",
             ("start", "as_of"), "re_transactions",  # parent '': every region
             dataset_code="KR_REAL_ESTATE_TRANSACTIONS"),
    Template("re_transactions_stats", "real_estate", SQL,
             "SELECT count(*) AS deals, avg(price_krw)::bigint AS avg_price, percentile_cont(0.5) "
             "WITHIN GROUP (ORDER BY price_krw)::bigint AS median_price, min(deal_date) AS "
             "first_day, max(deal_date) AS last_day " + REGION_DEALS,
             ("region", "start", "as_of"), "re_transactions",
             dataset_code="KR_REAL_ESTATE_TRANSACTIONS"),
    # Rankings across a set (issue 14): stocks of a sector by their window return, regions by
    # the latest value of a housing series. Each row is one member with its first/last value.
    Template("equity_sector_window", "equity", SQL,
             "WITH w AS (SELECT p.security_id, p.trade_date, p.close, max(p.trade_date) OVER "
             "(PARTITION BY p.security_id) AS last_day FROM stock_prices p JOIN stocks s "
             "USING (security_id) WHERE s.sector = ANY(%(sectors)s) AND NOT s.is_etf AND "
             "(%(country)s = 'ALL' OR s.country = %(country)s) AND p.trade_date >= %(start)s "
             "AND p.trade_date <= %(as_of)s) SELECT s.security_id, s.name, s.currency, "
             "max(w.trade_date) FILTER (WHERE w.trade_date <= w.last_day - %(interval)s::interval) "
             "AS first_day, max(w.last_day) AS last_day, (array_agg(w.close ORDER BY w.trade_date "
             "DESC) FILTER (WHERE w.trade_date <= w.last_day - %(interval)s::interval))[1] "
             "AS first_close, "
             "(array_agg(w.close ORDER BY w.trade_date DESC))[1] AS last_close FROM w JOIN stocks s "
             "USING (security_id) GROUP BY s.security_id, s.name, s.currency",
             ("sectors", "country", "start", "as_of", "interval"), "stock_prices",
             dataset_param="dataset"),
    *(Template(f"{name}_{kind}_by_region", "real_estate", SQL,
               f"SELECT DISTINCT ON (region) region, month, {column} AS value FROM {table} "
               "WHERE month <= %(as_of)s ORDER BY region, month DESC" if kind == "latest" else
               f"SELECT region, month, {column} AS value FROM {table} WHERE month >= %(start)s "
               "AND month <= %(as_of)s ORDER BY region, month",
               ("as_of",) if kind == "latest" else ("start", "as_of"), table, dataset_code=dataset,
               date_param="as_of" if kind == "latest" else "start")
      for kind in ("latest", "window")
      for name, table, column, dataset in HOUSING_SERIES),
    # Issue 25: index levels and the Top-N universe history / market rankings (universe_sql).
    Template("index_price_window", "equity", SQL, INDEX_WINDOW, ("code", "start", "as_of"),
             "market_series_prices", dataset_param="dataset"),
    Template("universe_snapshots", "equity", SQL, UNIVERSE_SNAPSHOTS, ("country", "as_of"),
             "universe_membership", dataset_code="STOCK_FUNDAMENTALS", date_param="as_of"),
    Template("universe_changes", "equity", SQL, UNIVERSE_CHANGES,
             ("country", "from_date", "to_date", "size"), "universe_membership",
             dataset_code="STOCK_FUNDAMENTALS", date_param="from_date"),
    Template("universe_rank", "equity", SQL, UNIVERSE_RANK, ("security_id", "as_of"),
             "universe_membership", dataset_code="STOCK_FUNDAMENTALS", date_param="as_of"),
    # Issue 35: the universe as it was vs as it is over a window, a member's 편입/편출 in it.
    Template("universe_members", "equity", SQL, UNIVERSE_MEMBERS, ("country", "as_of"),
             "universe_membership", dataset_code="STOCK_FUNDAMENTALS", date_param="as_of"),
    Template("universe_window_closes", "equity", SQL, UNIVERSE_WINDOW_CLOSES,
             ("security_ids", "start", "as_of"), "stock_prices", dataset_param="dataset"),
    Template("universe_member_history", "equity", SQL, MEMBER_HISTORY,
             ("security_id", "start", "as_of"), "universe_membership",
             dataset_code="STOCK_FUNDAMENTALS"),
    Template("company_disclosures", "equity", SQL, COMPANY_DISCLOSURES,
             ("security_id", "start", "as_of", "theme", "n"), "dart_disclosures",
             dataset_code="DART_DISCLOSURES"),  # issue 35: OpenDART filings and guidance
    Template("market_ranking_day", "equity", SQL, MARKET_RANKING,
             ("country", "as_of", "market", "measure", "direction", "n"), "stock_prices",
             dataset_param="dataset", date_param="as_of"),
    Template("documents_by_keyword", "ontology", SQL,
             "SELECT v.evidence_id, v.text, d.doc_id, d.title, d.url, d.published_at::date AS day, "
             "e.title AS event_title, e.theme FROM evidence v JOIN documents d USING (doc_id) "
             "JOIN events e USING (event_id) WHERE (e.theme = ANY(%(themes)s) "
             "OR v.indicator_code = ANY(%(codes)s) OR v.security_id = ANY(%(ids)s)) "
             "AND d.published_at::date <= %(as_of)s ORDER BY d.published_at DESC LIMIT 8",
             ("themes", "codes", "ids", "as_of"), "evidence", dataset_code="MACRO_DOCUMENTS",
             date_param="as_of", structured=False),
    # ---------------------------------------------------------------- Cypher (graph projection)
    Template("macro_indicator_observations", "macro", CYPHER,
             "MATCH (i:EconomicIndicator {indicator_code: $code})-[:HAS_OBSERVATION]->"
             "(o:IndicatorObservation) WHERE o.obs_date >= $start AND o.obs_date <= $as_of "
             "RETURN o.obs_date AS obs_date, o.value AS value, i.name_ko AS name_ko, "
             "i.unit AS unit ORDER BY obs_date", ("code", "start", "as_of"), "IndicatorObservation",
             dataset_param="code"),
    Template("equity_daily_bars", "equity", CYPHER,
             "MATCH (c:Company {security_id: $security_id})-[:HAS_DAILY_BAR]->(b:EquityDailyBar) "
             "WHERE b.trade_date >= $start AND b.trade_date <= $as_of RETURN b.trade_date AS "
             "trade_date, b.close AS close, b.volume AS volume, b.change_rate AS change_rate, "
             "c.name AS name ORDER BY trade_date", ("security_id", "start", "as_of"),
             "EquityDailyBar"),
    Template("re_monthly_summary", "real_estate", CYPHER,
             "MATCH (r:RealEstateMonthlySummary {region: $region}) WHERE r.month >= $start "
             "AND r.month <= $as_of RETURN r.month AS month, r.house_price_index AS value "
             "ORDER BY month", ("region", "start", "as_of"), "RealEstateMonthlySummary"),
    # Issue 35 §12.2-4: every monthly housing figure of a region, to cross-check SQL's
    # (agents/macro/summary_check.py); months are 'YYYY-MM' strings in the graph.
    Template("re_summary_measures", "real_estate", CYPHER,
             "MATCH (r:RealEstateMonthlySummary {region: $region}) WHERE r.month >= left($start, 7) "
             "AND r.month <= left($as_of, 7) RETURN r.month AS month, r.house_price_index AS "
             "house_price_index, r.jeonse_ratio AS jeonse_ratio, r.unsold_units AS unsold_units, "
             "r.permits AS permits ORDER BY month", ("region", "start", "as_of"),
             "RealEstateMonthlySummary"),
    # The summary's deals of a region and its sub-regions ('서울' → '서울 강남구', …), as the
    # SQL deal series counts them (agents/macro/summary_check.py).
    Template("re_summary_deals", "real_estate", CYPHER,
             "MATCH (r:RealEstateMonthlySummary) WHERE (r.region = $region OR r.region STARTS "
             "WITH ($region + ' ')) AND r.month >= left($start, 7) AND r.month <= left($as_of, 7) "
             "AND r.transactions IS NOT NULL RETURN r.region AS region, r.month AS month, "
             "r.transactions AS transactions, r.median_price_krw AS median_price_krw "
             "ORDER BY month, region", ("region", "start", "as_of"), "RealEstateMonthlySummary"),
    *(Template(f"{kind}_evidence", "ontology", CYPHER,
               f"MATCH (v:Evidence)-[:SUPPORTS]->(e:Event)-[:AFFECTS]->({var}:{label}) "
               f"WHERE {var}.{prop} IN ${param} AND e.event_date <= $as_of "
               "MATCH (v)-[:FROM_DOCUMENT]->(d:Document) RETURN e.event_id AS event_id, "
               "e.title AS event_title, e.event_date AS event_date, e.theme AS theme, "
               f"{var}.{prop} AS target, v.evidence_id AS evidence_id, v.text AS text, "
               "d.doc_id AS doc_id, d.title AS title, d.url AS url ORDER BY event_date DESC",
               (param, "as_of"), "Evidence", fallback="documents_by_keyword", structured=False)
      for kind, var, label, prop, param in (
          ("indicator", "i", "EconomicIndicator", "indicator_code", "codes"),
          ("company", "c", "Company", "security_id", "ids"),
      )),
    Template("theme_evidence", "ontology", CYPHER,
             "MATCH (v:Evidence)-[:SUPPORTS]->(e:Event) WHERE e.theme IN $themes "
             "AND e.event_date <= $as_of MATCH (v)-[:FROM_DOCUMENT]->(d:Document) "
             "OPTIONAL MATCH (e)-[:AFFECTS]->(t) RETURN e.event_id AS event_id, "
             "e.title AS event_title, e.event_date AS event_date, e.theme AS theme, "
             "coalesce(t.indicator_code, t.security_id) AS target, v.evidence_id AS evidence_id, "
             "v.text AS text, d.doc_id AS doc_id, d.title AS title, d.url AS url "
             "ORDER BY event_date DESC", ("themes", "as_of"), "Evidence",
             fallback="documents_by_keyword", structured=False),
)}  # fmt: skip


def get_template(name: str) -> Template:
    try:
        return TEMPLATES[name]
    except KeyError as e:
        raise ToolInputError(f"알 수 없는 쿼리 템플릿: {name}") from e


def run_template(
    name: str,
    params: dict[str, Any],
    *,
    pool: ConnectionPool | None,
    store: GraphStore | None,
    max_rows: int = MAX_TEMPLATE_ROWS,
) -> TemplateResult:
    """Run one template (guards included); raises WorkbenchError subclasses on failure."""
    template = get_template(name)
    missing = [p for p in template.required if params.get(p) in (None, "")]
    if missing:
        raise ToolInputError(f"템플릿 {template.name}에 필요한 값이 없습니다: {', '.join(missing)}")
    if DEAL_FILTER in template.text:  # bands are optional: unset, every deal counts
        params = {**dict.fromkeys(DEAL_BANDS), **params}
    watch = Stopwatch()
    if template.kind == SQL:
        rows = run_read_only(bind_literals(template.text, params, pool), max_rows=max_rows,
                             pool=pool)  # fmt: skip
        rows = [dict(r) for r in rows]
    else:
        if store is None:
            from data_access.errors import StoreUnavailable

            raise StoreUnavailable("그래프 저장소가 연결되어 있지 않습니다")
        rows = store.run_guarded(template.text, params, max_rows=max_rows)
    result = TemplateResult(name, template.kind, rows, template.text, params, watch.ms)
    if template.structured:
        result.citation = _citation(template, params, rows)
    return result


def bind_literals(text: str, params: dict[str, Any], pool: ConnectionPool | None) -> str:
    """The template with its parameters quoted as SQL literals by psycopg, so the SQL guard
    parses (and caps) exactly the statement that runs; values never reach the text unquoted."""
    with connection(pool) as conn:
        return ClientCursor(conn).mogrify(text, params)


def _citation(template: Template, params: dict[str, Any], rows: list[dict[str, Any]]
              ) -> StructuredCitation:  # fmt: skip
    code = params.get(template.dataset_param or "") or template.dataset_code or template.table
    try:
        dataset_by_code(str(code))
    except KeyError:  # an imported series (KOSIS, ECOS …) is catalogued under its own code
        if not (template.dataset_param and rows):
            code = template.dataset_code or template.table
    filters = {k: v for k, v in params.items() if k not in ("start", "as_of")}
    return make_citation(
        dataset_code=str(code), table=template.table, query=template.text, params=params,
        row_count=len(rows), filters=filters,
        start=str(params.get("start")) if params.get("start") else None,
        end=str(params.get("as_of")) if params.get("as_of") else None,
        as_of_date=str(params.get("as_of")) if params.get("as_of") else None,
    )  # fmt: skip


# ---------------------------------------------------------------- figures in an analyst's units

# Stored units (FRED / ECOS names) → how a Korean or English answer writes a level.
UNIT_WORDS: dict[str, tuple[str, str]] = {
    "percent": ("%", "%"), "%": ("%", "%"), "krw per usd": ("원", " KRW per USD"),
    "index": ("", ""), "index 2020=100": ("", " (2020=100)"),
    "index 1982-1984=100": ("", " (1982-84=100)"),
}  # fmt: skip
# A series axis title in Korean: what the number is measured in (a price's unit is its
# currency code: 'KRW' → '원').
AXIS_WORDS = {"percent": "%", "%": "%", "%p": "%p", "krw per usd": "원/달러",
              "index": "지수", "index 2020=100": "지수 (2020=100)",
              "index 1982-1984=100": "지수 (1982~1984=100)", "원": "원", "호": "호", "건": "건",
              "krw": "원", "usd": "달러", "jpy": "엔", "eur": "유로", "cny": "위안"}  # fmt: skip


def level_text(value: float, unit: str, lang: str = "ko") -> str:
    """A macro level as an analyst writes it: '2.25%', '1,445.00원', '118.30' (an index)."""
    ko, en = UNIT_WORDS.get(unit.strip().lower(), ("", f" {unit}" if unit else ""))
    return f"{value:,.2f}{ko if lang == 'ko' else en}"


def change_text(before: float, after: float, unit: str, lang: str = "ko") -> str:
    """A move from `before` to `after`: a rate in %p and bp ('-0.25%p (-25bp)'), a level in its
    own unit and in percent ('+12.30원 (+0.85%)', '+1.20 (+0.98%)')."""
    moved = after - before
    if is_rate_unit(unit):
        return f"{moved:+.2f}%p ({moved * 100:+.0f}bp)"
    ko, en = UNIT_WORDS.get(unit.strip().lower(), ("", ""))
    word = ko if lang == "ko" else en
    if not before:
        return f"{moved:+,.2f}{word}"
    return f"{moved:+,.2f}{word} ({(after / before - 1) * 100:+.2f}%)"


def axis_unit(unit: str) -> str:
    """The y-axis title of a series chart: its unit in Korean ('%', '원/달러', '지수')."""
    return AXIS_WORDS.get(unit.strip().lower(), unit) or "값"


# ---------------------------------------------------------------- words of a Korean answer
# Raw status words of the data, as a Korean answer says them (issue 33).
EARNINGS_STATUS_KO = {"confirmed": "확정", "expected": "예정", "reported": "발표", "estimated": "추정"}  # fmt: skip
FRESHNESS_KO = {"healthy": "정상", "stale": "지연", "missing": "없음"}
HANGUL = re.compile(r"[가-힣]")
# a figure of a sentence: '+0.12%', '331.565', '1,445.0'; a bare year ('2026') is not one
FIGURE = re.compile(r"(?<![\w.])[+-]?\d+(?:,\d{3})*(?:\.\d+)?%?(?![\w%])")
YEAR = re.compile(r"^(19|20)\d\d$")
# a database identifier written in prose: 'macro_observations', 'stock_fundamentals.pe'
IDENTIFIER = re.compile(r"(?<![`\w])([a-z][a-z0-9]*(?:[_.][a-z0-9]+)+)(?![`\w])")


def in_language(text: str, lang: str) -> bool:
    """Whether an evidence sentence is written in the answer's language (Korean: has Hangul)."""
    return bool(HANGUL.search(text)) == (lang == "ko")


def evidence_text(text: object, lang: str = "ko") -> str:
    """An evidence sentence as a Korean answer shows it: as written when it is Korean; a sentence
    of an English source is not quoted (the offline planner does not translate), its figures are
    given and the source is listed below ('영문 자료(원문은 문서 근거)의 수치 4.6%, 4.7%')."""
    sentence = str(text or "")
    if lang != "ko" or in_language(sentence, "ko"):
        return sentence
    figures = [f for f in FIGURE.findall(sentence) if not YEAR.match(f)]
    said = f"의 수치 {', '.join(dict.fromkeys(figures))}" if figures else ""
    return f"영문 자료(원문은 문서 근거){said}"


def prefer_language(paths: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """`paths` with, for each event and target, its evidence in the answer's language first (a
    FOMC decision backed by the English statement and a Korean review quotes the review in a
    Korean answer); the events keep the order they came in."""
    key = lambda p: (str(p.get("event")), str(p.get("event_date")), str(p.get("target")))  # noqa: E731
    first = {k: i for i, k in reversed(list(enumerate(key(p) for p in paths)))}
    return sorted(paths, key=lambda p: (first[key(p)],
                                        not in_language(str(p.get("evidence") or ""), lang)))  # fmt: skip


# the columns a sentence names after a table: '`re_unsold_housing` 테이블(지역·월별 units, 호)'
TABLE_COLUMNS = re.compile(r"(` 테이블\()([^)]*)")
COLUMN = re.compile(r"(?<![`\w])([a-z][a-z0-9_]*)(?![`\w])")


def identifiers_as_code(text: str) -> str:
    """Table and column names in a sentence written as code ('macro_observations' →
    '`macro_observations`', a table's column 'units' → '`units`'): they are the data's names,
    shown as such."""
    text = IDENTIFIER.sub(r"`\1`", text)
    return TABLE_COLUMNS.sub(lambda m: m.group(1) + COLUMN.sub(r"`\1`", m.group(2)), text)
