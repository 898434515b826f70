"""The dataset catalogue: what each dataset is, and how fresh it is right now.

A `Dataset` names a table (optionally a filtered slice of one: a macro series, KR or US
stocks, one market index) and the date column that says how recent it is. `CORE_DATASETS` is
the one table of freshness windows: days for daily and slower series, hours where seed 004 §3.E
says hourly (news); every staleness check (`freshness`, the screens' freshness badges, the
Macro graph's `max_stale_hours`) reads its window from here. Row counts, date ranges and
freshness are computed live from the tables, against the workbench's as-of date (the latest
trade date in the database, not the wall clock, so answers and screenshots are reproducible).

SQL here is composed only from the constants in `CORE_DATASETS` (identifiers quoted with
`psycopg.sql`), and filter values are passed as parameters.
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime, timedelta
from datetime import time as clock_time
from typing import Any, Literal, NotRequired, TypedDict
from zoneinfo import ZoneInfo

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

from data_access.config import get_settings
from data_access.contracts import Freshness
from data_access.errors import WorkbenchError
from data_access.market_series import SERIES as MARKET_SERIES
from data_access.market_series import MarketSeriesSpec
from data_access.postgres import connection, fetch_all, fetch_one

logger = logging.getLogger(__name__)

Domain = Literal["etf", "equity", "macro", "real_estate", "news", "documents"]
DOMAINS: tuple[Domain, ...] = ("etf", "equity", "macro", "real_estate", "news", "documents")
FilterOp = Literal["=", "LIKE"]

# Worse statuses rank higher: a domain is as fresh as its stalest dataset.
_SEVERITY: dict[Freshness, int] = {"healthy": 0, "stale": 1, "missing": 2}


@dataclass(frozen=True)
class Dataset:
    """One catalogued dataset: a table, or the slice of it where `filter_column op filter_value`."""

    dataset_code: str
    table_name: str
    domain: Domain
    date_column: str
    title_ko: str
    max_stale_days: int
    source: str = "demo"
    filter_column: str | None = None
    filter_op: FilterOp = "="
    filter_value: str | None = None
    max_stale_hours: int | None = None  # set: an hourly window (timestamps), else max_stale_days

    @property
    def window_text(self) -> str:
        """The freshness window as shown to a user: '24시간', '4일'."""
        if self.max_stale_hours is not None:
            return f"{self.max_stale_hours}시간"
        return f"{self.max_stale_days}일"

    @property
    def window_hours(self) -> int:
        return (
            self.max_stale_hours if self.max_stale_hours is not None else 24 * self.max_stale_days
        )

    @property
    def filter_sql(self) -> str | None:
        """The filter as readable SQL text (stored in `datasets.filter_sql`, shown in citations)."""
        if self.filter_column is None or self.filter_value is None:
            return None
        return f"{self.filter_column} {self.filter_op} '{self.filter_value}'"


@dataclass(frozen=True)
class DatasetStatus:
    """A dataset's live state against an as-of date. JSON-friendly via `to_dict()`."""

    dataset_code: str
    title_ko: str
    domain: Domain
    table_name: str
    rows: int
    min_date: date | None
    max_date: date | None
    as_of: date
    freshness: Freshness
    lag_days: int | None  # as_of - max_date; negative when data runs past as_of (scheduled events)
    source: str
    lag_hours: int | None = None  # hourly datasets: hours from the latest row to the as-of close
    window: str = ""  # the freshness window ('24시간', '4일')

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("min_date", "max_date", "as_of"):
            out[key] = out[key].isoformat() if out[key] else None
        return out


@dataclass(frozen=True)
class SeedRunInfo:
    """The latest demo-data generation run, if any (shown as the '데모 데이터' label)."""

    scale: str
    as_of_date: date
    created_at: datetime


# Freshness windows for macro series, in days after the latest observation date.
DAILY_SERIES_DAYS = 5  # a long weekend plus the next-morning publication
WEEKLY_RELEASE_DAYS = 12  # FRB H.10 (DEXKOUS): a week's rates are published the Monday after
MONTHLY_SERIES_DAYS = 75  # a month's value is published weeks after the month ends


def _macro(code: str, title_ko: str, max_stale_days: int) -> Dataset:
    return Dataset(
        dataset_code=code,
        table_name="macro_observations",
        domain="macro",
        date_column="obs_date",
        title_ko=title_ko,
        max_stale_days=max_stale_days,
        filter_column="series_code",
        filter_value=code,
    )


def _market(code: str, title_ko: str, series_code: str, max_stale_days: int) -> Dataset:
    return Dataset(
        dataset_code=code, table_name="market_series_prices", domain="equity",
        date_column="trade_date", title_ko=title_ko, max_stale_days=max_stale_days,
        filter_column="series_code", filter_value=series_code,
    )  # fmt: skip


# Market context series: US sessions date a day behind Seoul (one more day of slack, as for US
# stocks); BTC trades every day, so two days is already a gap.
_MARKET_STALE_DAYS = {"KR": 4, "US": 5, "GLOBAL": 2}


def market_dataset(spec: MarketSeriesSpec) -> Dataset:
    """The catalogue entry of one market series (built-in or imported)."""
    stale = _MARKET_STALE_DAYS.get(spec.country, _MARKET_STALE_DAYS["US"])
    return _market(spec.dataset_code, f"{spec.name} 일별 시세 ({spec.code})", spec.code, stale)


MARKET_DATASETS: tuple[Dataset, ...] = tuple(market_dataset(s) for s in MARKET_SERIES)
# News are judged in hours (seed 004 §3.E "graph/news: hourly") against the as-of day's close of
# the news window (18:00 New York, seed 003), not the wall clock, like every other window here.
NEWS_STALE_HOURS = 24
AS_OF_CLOSE = (clock_time(18), ZoneInfo("America/New_York"))


def as_of_close(as_of: date) -> datetime:
    """The instant hourly windows are measured to: 18:00 New York time on the as-of date."""
    return datetime.combine(as_of, AS_OF_CLOSE[0], AS_OF_CLOSE[1])


def _stocks(code: str, title_ko: str, country: str, max_stale_days: int) -> Dataset:
    return Dataset(
        dataset_code=code,
        table_name="stock_prices",
        domain="equity",
        date_column="trade_date",
        title_ko=title_ko,
        max_stale_days=max_stale_days,
        filter_column="security_id",
        filter_op="LIKE",
        filter_value=f"{country}:%",
    )


CORE_DATASETS: tuple[Dataset, ...] = (
    Dataset("KR_ETF_MASTER", "etfs", "etf", "updated_at", "국내 ETF 기본정보", 30),
    Dataset("KR_ETF_DAILY_PRICE", "etf_prices", "etf", "trade_date", "국내 ETF 일별 시세", 4),
    Dataset("KR_ETF_HOLDINGS", "etf_holdings", "etf", "as_of_date", "국내 ETF 구성종목", 7),
    _stocks("KR_STOCK_DAILY_OHLCV", "국내 주식 일별 OHLCV", "KR", 4),
    # US sessions close after the Korean as-of date rolls over: one extra day of slack.
    _stocks("US_TOP50_DAILY_OHLCV", "미국 Top50 일별 OHLCV", "US", 5),
    Dataset("STOCK_FUNDAMENTALS", "stock_fundamentals", "equity", "as_of_date", "종목 밸류에이션", 100),
    Dataset("EARNINGS_EVENTS", "earnings_events", "equity", "event_date", "실적 발표 일정", 120),
    _macro("FEDFUNDS", "미국 기준금리(연방기금금리)", MONTHLY_SERIES_DAYS),
    _macro("CPIAUCSL", "미국 소비자물가지수", MONTHLY_SERIES_DAYS),
    _macro("UNRATE", "미국 실업률", MONTHLY_SERIES_DAYS),
    _macro("DGS10", "미국 10년 국채금리", DAILY_SERIES_DAYS),
    _macro("DGS2", "미국 2년 국채금리", DAILY_SERIES_DAYS),
    _macro("VIXCLS", "VIX 변동성지수", DAILY_SERIES_DAYS),
    _macro("DEXKOUS", "원/달러 환율(FRED)", WEEKLY_RELEASE_DAYS),
    _macro("KR_BASE_RATE", "한국 기준금리", MONTHLY_SERIES_DAYS),
    _macro("KR_CPI", "한국 소비자물가지수", MONTHLY_SERIES_DAYS),
    _macro("KR_UNEMPLOYMENT", "한국 실업률", MONTHLY_SERIES_DAYS),
    _macro("KR_USDKRW", "원/달러 환율", DAILY_SERIES_DAYS),
    Dataset("KR_HOUSE_PRICE_INDEX", "re_house_price_index", "real_estate", "month", "주택가격지수", 75),
    Dataset(
        "KR_REAL_ESTATE_TRANSACTIONS", "re_transactions", "real_estate", "deal_date",
        "아파트 실거래가", 35,
    ),
    Dataset("KR_UNSOLD_HOUSING", "re_unsold_housing", "real_estate", "month", "미분양 주택", 100),
    Dataset("KR_HOUSING_PERMITS", "re_permits", "real_estate", "month", "주택 인허가", 100),
    Dataset("KR_JEONSE_RATIO", "re_jeonse_ratio", "real_estate", "month", "전세가율", 75),
    Dataset("ECONOMIC_NEWS_STREAM", "news_articles", "news", "published_at", "경제 뉴스", 1,
            max_stale_hours=NEWS_STALE_HOURS),
    Dataset("MACRO_DOCUMENTS", "documents", "documents", "published_at", "거시 문서·리포트", 30),
    *MARKET_DATASETS,
)  # fmt: skip

DOMAIN_TITLES_KO: dict[str, str] = {
    "etf": "ETF",
    "equity": "주식",
    "macro": "거시경제",
    "real_estate": "부동산",
    "news": "뉴스",
    "documents": "문서",
}


def dataset_by_code(code: str, datasets: tuple[Dataset, ...] = CORE_DATASETS) -> Dataset:
    """The catalogued dataset with this code; KeyError if there is none."""
    for dataset in datasets:
        if dataset.dataset_code == code:
            return dataset
    raise KeyError(code)


# ---------------------------------------------------------------- pure rules


def freshness(latest: date | None, as_of: date, max_stale_days: int) -> Freshness:
    """healthy if the latest observation is within `max_stale_days` of as_of, else stale."""
    if latest is None:
        return "missing"
    return "healthy" if (as_of - latest).days <= max_stale_days else "stale"


def hours_behind(latest: datetime, as_of: date) -> int:
    """Whole hours from `latest` to the as-of close (negative when it is later)."""
    return math.floor((as_of_close(as_of) - latest) / timedelta(hours=1))


def freshness_hours(latest: datetime | None, as_of: date, max_stale_hours: int) -> Freshness:
    """healthy if the latest timestamp is within `max_stale_hours` of the as-of close."""
    if latest is None:
        return "missing"
    behind = as_of_close(as_of) - latest
    return "healthy" if behind <= timedelta(hours=max_stale_hours) else "stale"


def dataset_freshness(dataset: Dataset, latest: datetime | date | None, as_of: date) -> Freshness:
    """One dataset's status under its own window (hours or days)."""
    if dataset.max_stale_hours is not None and isinstance(latest, datetime):
        return freshness_hours(latest, as_of, dataset.max_stale_hours)
    return freshness(_as_date(latest), as_of, dataset.max_stale_days)


def stale_hours_by_domain(datasets: tuple[Dataset, ...] = CORE_DATASETS) -> dict[str, int]:
    """The widest window of each domain in hours (what a domain may lag before it is stale)."""
    out: dict[str, int] = {}
    for d in datasets:
        out[d.domain] = max(out.get(d.domain, 0), d.window_hours)
    return out


def worst_freshness(statuses: list[Freshness]) -> Freshness:
    """The least fresh status; an empty list means nothing is there."""
    if not statuses:
        return "missing"
    return max(statuses, key=lambda s: _SEVERITY[s])


def _as_date(value: object) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return None


# ---------------------------------------------------------------- database


class DatasetRow(TypedDict):
    """One `datasets` row as written (importers build these from their own specs)."""

    dataset_code: str
    table_name: str
    domain: str
    date_column: str
    filter_sql: str | None
    title_ko: str
    source: str
    max_stale_days: int
    max_stale_hours: NotRequired[int | None]


_UPSERT_DATASET = """
INSERT INTO datasets (dataset_code, table_name, domain, date_column, filter_sql, title_ko,
                      source, max_stale_days, max_stale_hours)
VALUES (%(dataset_code)s, %(table_name)s, %(domain)s, %(date_column)s, %(filter_sql)s,
        %(title_ko)s, %(source)s, %(max_stale_days)s, %(max_stale_hours)s)
ON CONFLICT (dataset_code) DO UPDATE SET
    table_name = EXCLUDED.table_name, domain = EXCLUDED.domain,
    date_column = EXCLUDED.date_column, filter_sql = EXCLUDED.filter_sql,
    title_ko = EXCLUDED.title_ko, max_stale_days = EXCLUDED.max_stale_days,
    max_stale_hours = EXCLUDED.max_stale_hours"""


def dataset_row(dataset: Dataset) -> DatasetRow:
    return DatasetRow(
        dataset_code=dataset.dataset_code, table_name=dataset.table_name, domain=dataset.domain,
        date_column=dataset.date_column, filter_sql=dataset.filter_sql,
        title_ko=dataset.title_ko, source=dataset.source, max_stale_days=dataset.max_stale_days,
        max_stale_hours=dataset.max_stale_hours,
    )  # fmt: skip


def upsert_datasets(
    conn: psycopg.Connection[Any], rows: Sequence[DatasetRow], *, replace_source: bool
) -> None:
    """Create or update `datasets` rows inside the caller's transaction.

    An import that loaded the data says where it came from (`replace_source=True`); the app's
    start-up registration does not, so it cannot relabel imported data as demo data.
    """
    statement = _UPSERT_DATASET + (", source = EXCLUDED.source" if replace_source else "")
    with conn.cursor() as cur:
        cur.executemany(statement, [{"max_stale_hours": None, **r} for r in rows])


def register_datasets(
    datasets: tuple[Dataset, ...] = CORE_DATASETS, pool: ConnectionPool | None = None
) -> int:
    """Upsert the catalogue's definitions (keeping each row's source); returns how many."""
    with connection(pool) as conn:
        upsert_datasets(conn, [dataset_row(d) for d in datasets], replace_source=False)
    return len(datasets)


def current_as_of_date(pool: ConnectionPool | None = None) -> date:
    """The latest ETF or stock trade date in the database, else the configured demo date."""
    row = fetch_one(
        "SELECT greatest((SELECT max(trade_date) FROM etf_prices),"
        " (SELECT max(trade_date) FROM stock_prices)) AS latest",
        pool=pool,
    )
    latest = _as_date(row["latest"]) if row else None
    return latest or date.fromisoformat(get_settings().demo_as_of_date)


def _stats_query(dataset: Dataset, counts: bool = True) -> tuple[sql.Composed, list[str]]:
    """`SELECT code, count, min, max FROM table [WHERE filter]` for one dataset; without
    `counts` only the latest date (an index lookup, not a scan of the table)."""
    column = sql.Identifier(dataset.date_column)
    head = (
        "SELECT {code}::text AS dataset_code, count(*) AS rows, min({col})::date AS min_date,"
        if counts
        else "SELECT {code}::text AS dataset_code, (max({col}) IS NOT NULL)::int AS rows,"
        " NULL::date AS min_date,"
    )
    query = sql.SQL(
        head + " max({col})::date AS max_date, max({col})::timestamptz AS max_ts FROM {table}"
    ).format(code=sql.Placeholder(), col=column, table=sql.Identifier(dataset.table_name))
    params = [dataset.dataset_code]
    if dataset.filter_column is not None and dataset.filter_value is not None:
        op = sql.SQL("LIKE" if dataset.filter_op == "LIKE" else "=")
        query = sql.SQL("{q} WHERE {fcol} {op} {val}").format(
            q=query, fcol=sql.Identifier(dataset.filter_column), op=op, val=sql.Placeholder()
        )
        params.append(dataset.filter_value)
    return query, params


def _table_stats(
    datasets: tuple[Dataset, ...], pool: ConnectionPool | None, counts: bool = True
) -> dict[str, dict[str, Any]]:
    """Row count and date range of every dataset, in one round trip."""
    if not datasets:
        return {}
    parts = [_stats_query(d, counts) for d in datasets]
    query = sql.SQL(" UNION ALL ").join(sql.SQL("({})").format(q) for q, _ in parts)
    params = [p for _, ps in parts for p in ps]
    with connection(pool) as conn:
        rows = conn.execute(query, params).fetchall()
    return {r["dataset_code"]: r for r in rows}


_FILTER_TEXT = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s+(=|LIKE)\s+'((?:[^']|'')*)'\s*$", re.I)


def dataset_from_row(row: dict[str, Any], columns: dict[str, set[str]]) -> Dataset | None:
    """A `datasets` row (e.g. written by an importer) as a Dataset, if it is safe to query.

    `columns` maps each known table to its columns. Rows naming another table or column, or a
    filter that is not exactly `column = 'value'` / `column LIKE 'value'`, are left out.
    """
    table, date_col = row["table_name"], row["date_column"]
    if row["domain"] not in DOMAINS or date_col not in columns.get(table, set()):
        return None
    filter_column = filter_value = None
    filter_op: FilterOp = "="
    if row.get("filter_sql"):
        match = _FILTER_TEXT.match(row["filter_sql"])
        if not match or match.group(1) not in columns[table]:
            return None
        filter_column, filter_value = match.group(1), match.group(3).replace("''", "'")
        filter_op = "LIKE" if match.group(2).upper() == "LIKE" else "="
    return Dataset(
        dataset_code=row["dataset_code"], table_name=table, domain=row["domain"],
        date_column=date_col, title_ko=row["title_ko"], max_stale_days=int(row["max_stale_days"]),
        source=row["source"], filter_column=filter_column, filter_op=filter_op,
        filter_value=filter_value, max_stale_hours=row.get("max_stale_hours"),
    )  # fmt: skip


# Tables only importers fill (issue 35: MOLIT, OpenDART); their datasets exist once imported.
IMPORTED_TABLES = ("molit_apt_trades", "dart_disclosures", "dart_financial_accounts")


def _known_table_columns(pool: ConnectionPool | None) -> dict[str, set[str]]:
    tables = sorted({d.table_name for d in CORE_DATASETS} | set(IMPORTED_TABLES))
    rows = fetch_all(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = ANY(%s)",
        (tables,),
        pool=pool,
    )
    columns: dict[str, set[str]] = {t: set() for t in tables}
    for r in rows:
        columns[r["table_name"]].add(r["column_name"])
    return columns


def catalogued_datasets(pool: ConnectionPool | None = None) -> tuple[Dataset, ...]:
    """The core datasets (with their registered source) plus safe datasets importers registered."""
    rows = fetch_all("SELECT * FROM datasets ORDER BY dataset_code", pool=pool)
    registered = {r["dataset_code"]: r for r in rows}
    core = tuple(
        replace(d, source=registered[d.dataset_code]["source"])
        if d.dataset_code in registered
        else d
        for d in CORE_DATASETS
    )
    core_codes = {d.dataset_code for d in CORE_DATASETS}
    others = [r for r in rows if r["dataset_code"] not in core_codes]
    if not others:
        return core
    columns = _known_table_columns(pool)
    extra = [d for d in (dataset_from_row(r, columns) for r in others) if d is not None]
    skipped = len(others) - len(extra)
    if skipped:
        logger.warning("%s registered datasets are not queryable and were left out", skipped)
    return core + tuple(extra)


def dataset_statuses(
    as_of: date | None = None,
    pool: ConnectionPool | None = None,
    datasets: tuple[Dataset, ...] | None = None,
    counts: bool = True,
) -> list[DatasetStatus]:
    """Rows, date range and freshness of each dataset against `as_of` (default: current).

    `datasets` defaults to everything catalogued (`catalogued_datasets`); without `counts`
    (freshness only) `rows` is 1 or 0 and `min_date` is not read.
    """
    as_of = as_of or current_as_of_date(pool)
    datasets = datasets if datasets is not None else catalogued_datasets(pool)
    stats = _table_stats(datasets, pool, counts)
    out: list[DatasetStatus] = []
    for d in datasets:
        s = stats[d.dataset_code]
        rows = int(s["rows"])
        latest = _as_date(s["max_date"]) if rows else None
        hourly = d.max_stale_hours is not None and rows and s["max_ts"] is not None
        out.append(
            DatasetStatus(
                dataset_code=d.dataset_code,
                title_ko=d.title_ko,
                domain=d.domain,
                table_name=d.table_name,
                rows=rows,
                min_date=_as_date(s["min_date"]) if rows else None,
                max_date=latest,
                as_of=as_of,
                freshness=dataset_freshness(d, s["max_ts"] if hourly else latest, as_of),
                lag_days=(as_of - latest).days if latest else None,
                source=d.source,
                lag_hours=hours_behind(s["max_ts"], as_of) if hourly else None,
                window=d.window_text,
            )
        )
    return out


def domain_freshness(
    as_of: date | None = None,
    pool: ConnectionPool | None = None,
    domains: Sequence[str] = DOMAINS,
) -> dict[str, Freshness]:
    """The worst dataset status per domain (every requested domain is present)."""
    wanted = tuple(d for d in CORE_DATASETS if d.domain in domains)
    statuses = dataset_statuses(as_of, pool, datasets=wanted if tuple(domains) != DOMAINS else None,
                                counts=False)  # fmt: skip
    return {
        domain: worst_freshness([s.freshness for s in statuses if s.domain == domain])
        for domain in domains
    }


_recent_freshness: dict[tuple[str, tuple[str, ...]], tuple[float, dict[str, Freshness]]] = {}


def recent_domain_freshness(
    domains: Sequence[str], pool: ConnectionPool | None = None, ttl_s: float = 60.0
) -> dict[str, Freshness]:
    """`domain_freshness` for a few domains, reused for a minute (it counts whole tables) and
    empty, not raising, when the store is down: an answer can go out without its freshness."""
    key = (str(pool.conninfo) if pool is not None else "", tuple(domains))
    cached = _recent_freshness.get(key)
    if cached and time.monotonic() - cached[0] < ttl_s:
        return dict(cached[1])
    try:
        fresh = domain_freshness(None, pool, domains)
    except WorkbenchError as e:
        logger.warning("freshness unavailable: %s", e)
        return {}
    _recent_freshness[key] = (time.monotonic(), fresh)
    return dict(fresh)


def latest_seed_run(pool: ConnectionPool | None = None) -> SeedRunInfo | None:
    """The newest `seed_runs` row: when present, the data on screen is generated demo data."""
    row = fetch_one(
        "SELECT scale, as_of_date, created_at FROM seed_runs ORDER BY run_id DESC LIMIT 1",
        pool=pool,
    )
    if row is None:
        return None
    return SeedRunInfo(row["scale"], row["as_of_date"], row["created_at"])
