"""What every importer shares: typed results, the dataset registry upsert and run bookkeeping.

An import is one transaction: rows are parsed (bad rows become `RowFailure`s), the good ones
are upserted, the dataset is registered and an `import_runs` row is written, all or nothing.
A fatal problem (unreadable source, missing column, no good row, network down) rolls the load
back, records an `error` run in its own transaction and raises `ImportFailed`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any, Generic, Literal, NoReturn, TypeVar, cast

import psycopg
from psycopg_pool import ConnectionPool

from data_access.errors import ImportFailed
from data_access.postgres import Row, connection
from data_access.projection.backlog import mark_pending
from data_access.projection.scope import ProjectionScope

logger = logging.getLogger(__name__)

ImporterName = Literal["csv", "yfinance", "fred", "molit", "opendart", "ecos", "kosis", "news"]
ImportStatus = Literal["ok", "partial", "error"]
Conn = psycopg.Connection[Row]
T = TypeVar("T")
R = TypeVar("R")

MAX_FAILURES_KEPT = 50  # a huge bad file should not produce a huge result object
MAX_ERROR_CHARS = 2000


@dataclass(frozen=True)
class RowFailure:
    """One input row that could not be loaded; `location` is e.g. 'line 7' or '2024-03-08'."""

    location: str
    column: str | None
    message: str

    def describe(self) -> str:
        where = f"{self.location}, column '{self.column}'" if self.column else self.location
        return f"{where}: {self.message}"


@dataclass
class ParsedRows(Generic[R]):
    """Typed rows read from a source, with the rows that failed and those without a value."""

    rows: list[R] = field(default_factory=list)
    row_locations: list[str] = field(default_factory=list)  # parallel to rows
    failures: list[RowFailure] = field(default_factory=list)
    skipped: int = 0
    read: int = 0


@dataclass(frozen=True)
class DatasetSpec:
    """One row of the `datasets` catalogue (what a dataset is; its size is computed live)."""

    dataset_code: str
    table_name: str
    domain: str  # etf | equity | macro | real_estate | news | documents
    date_column: str
    filter_sql: str | None
    title_ko: str
    source: str  # demo | csv | yfinance | fred
    max_stale_days: int


@dataclass
class LoadOutcome:
    """What a load step did inside the import transaction."""

    rows_read: int
    rows_loaded: int
    failures: list[RowFailure] = field(default_factory=list)
    rows_skipped: int = 0  # rows that carry no value on purpose (FRED '.', Yahoo halted days)
    datasets: list[DatasetSpec] = field(default_factory=list)
    first_date: date | None = None
    last_date: date | None = None
    rows_revised: int = 0  # macro only: stored values that changed
    bar_frequency: str | None = None  # prices only: daily | weekly | monthly | ...
    projection: ProjectionScope | None = None  # what the graph must follow (issue 25)
    all_known_ok: bool = False  # news: rows all already stored is a run, not an error


@dataclass(frozen=True)
class ImportJob:
    """Identifies an import before anything is read (enough to record an error run)."""

    importer: ImporterName
    source: str
    dataset_code: str | None
    table_name: str


@dataclass(frozen=True)
class ImportResult:
    """The recorded outcome of one import; JSON-serializable through `to_dict()`."""

    run_id: int
    importer: ImporterName
    source: str
    dataset_code: str | None
    table_name: str
    rows_read: int
    rows_loaded: int
    rows_failed: int
    rows_skipped: int
    rows_revised: int
    status: ImportStatus
    error: str | None
    failures: tuple[RowFailure, ...]
    datasets: tuple[str, ...]
    first_date: date | None
    last_date: date | None
    bar_frequency: str | None = None

    def summary_line(self) -> str:
        span = f" {self.first_date}..{self.last_date}" if self.first_date else ""
        line = (
            f"import run {self.run_id} {self.status}: {self.importer} {self.source} -> "
            f"{self.table_name} (dataset {self.dataset_code or ', '.join(self.datasets)}): "
            f"read {self.rows_read}, loaded {self.rows_loaded}, failed {self.rows_failed}, "
            f"skipped {self.rows_skipped}"
        )
        if self.rows_revised:
            line += f", revised {self.rows_revised}"
        if self.bar_frequency:
            line += f", {self.bar_frequency} bars"
        return line + span

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["first_date"] = self.first_date.isoformat() if self.first_date else None
        data["last_date"] = self.last_date.isoformat() if self.last_date else None
        data["failures"] = [asdict(f) for f in self.failures]
        data["datasets"] = list(self.datasets)
        return data


class _NothingLoaded(ImportFailed):
    """Every row failed (or there were none): fatal, but the counts still go into the run."""

    def __init__(self, message: str, outcome: LoadOutcome) -> None:
        super().__init__(message)
        self.outcome = outcome


# ---------------------------------------------------------------- SQL

_INSERT_RUN = """
INSERT INTO import_runs (importer, source, dataset_code, rows_read, rows_loaded, rows_failed,
                         status, error)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
RETURNING run_id
"""


def register_dataset(conn: Conn, spec: DatasetSpec) -> None:
    """Create or update one `datasets` row (idempotent; the last import describes it)."""
    from data_access.catalog import DatasetRow, upsert_datasets

    upsert_datasets(conn, [cast(DatasetRow, asdict(spec))], replace_source=True)


def sql_literal(value: str) -> str:
    """A quoted SQL string literal for `datasets.filter_sql` (values are validated ids)."""
    return "'" + value.replace("'", "''") + "'"


# ---------------------------------------------------------------- running an import


def run_import(
    job: ImportJob,
    fetch: Callable[[], T],
    load: Callable[[Conn, T], LoadOutcome],
    pool: ConnectionPool | None = None,
) -> ImportResult:
    """Fetch outside the transaction, then load + register + record in one transaction."""
    try:
        payload = _fetch_checked(job, fetch)
        with connection(pool) as conn:
            outcome = _load_checked(conn, job, payload, load)
            for spec in outcome.datasets:
                register_dataset(conn, spec)
            status: ImportStatus = "partial" if outcome.failures else "ok"
            error = _failures_text(outcome) if outcome.failures else None
            run_id = _insert_run(conn, job, outcome, status, error)
            if outcome.projection is not None:  # committed with the data: the graph lags it
                mark_pending(conn, outcome.projection, "import", run_id)
    except ImportFailed as e:
        outcome = e.outcome if isinstance(e, _NothingLoaded) else LoadOutcome(0, 0)
        run_id = _record_error_run(job, outcome, str(e), pool)
        raise ImportFailed(f"{e} [import run {run_id}: error]") from e
    result = _result(run_id, job, outcome, status, error)
    logger.info("%s", result.summary_line())
    return result


def fail_import(job: ImportJob, error: ImportFailed, pool: ConnectionPool | None) -> NoReturn:
    """Record an error run for a source that could not even be read, and raise."""
    run_id = _record_error_run(job, LoadOutcome(0, 0), str(error), pool)
    raise ImportFailed(f"{error} [import run {run_id}: error]") from error


def _fetch_checked(job: ImportJob, fetch: Callable[[], T]) -> T:
    try:
        return fetch()
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as e:
        # A source shaped unlike its documented format (a JSON field of the wrong type, ...).
        raise ImportFailed(f"unexpected data from {job.source}: {type(e).__name__}: {e}") from e


def _load_checked(
    conn: Conn, job: ImportJob, payload: T, load: Callable[[Conn, T], LoadOutcome]
) -> LoadOutcome:
    try:
        outcome = load(conn, payload)
    except psycopg.OperationalError:
        raise  # the store is gone: StoreUnavailable from connection(), nothing to record
    except psycopg.Error as e:
        message = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ImportFailed(f"PostgreSQL rejected the import of {job.source}: {message}") from e
    if outcome.rows_loaded == 0 and not outcome.all_known_ok:
        if outcome.rows_read == 0:
            raise _NothingLoaded(f"no data rows in {job.source}", outcome)
        if outcome.failures:
            message = f"no row of {job.source} could be loaded: {_failures_text(outcome)}"
            raise _NothingLoaded(message, outcome)
        raise _NothingLoaded(f"every row of {job.source} is empty (nothing to load)", outcome)
    return outcome


def _failures_text(outcome: LoadOutcome) -> str:
    shown = "; ".join(f.describe() for f in outcome.failures[:5])
    more = len(outcome.failures) - 5
    text = f"{len(outcome.failures)} rows failed: {shown}" + (
        f"; … {more} more" if more > 0 else ""
    )
    return text[:MAX_ERROR_CHARS]


def _insert_run(
    conn: Conn, job: ImportJob, outcome: LoadOutcome, status: ImportStatus, error: str | None
) -> int:
    dataset_code = job.dataset_code or _single_dataset(outcome)
    row = conn.execute(
        _INSERT_RUN,
        (
            job.importer,
            job.source,
            dataset_code,
            outcome.rows_read,
            outcome.rows_loaded,
            len(outcome.failures),
            status,
            error,
        ),
    ).fetchone()
    assert row is not None  # RETURNING always yields the new row
    return int(row["run_id"])


def _record_error_run(
    job: ImportJob, outcome: LoadOutcome, message: str, pool: ConnectionPool | None
) -> int:
    with connection(pool) as conn:
        failed = LoadOutcome(outcome.rows_read, 0, outcome.failures, outcome.rows_skipped)
        run_id = _insert_run(conn, job, failed, "error", message[:MAX_ERROR_CHARS])
    logger.info("import run %s error: %s", run_id, message)  # the raised error carries it
    return run_id


def _single_dataset(outcome: LoadOutcome) -> str | None:
    return outcome.datasets[0].dataset_code if len(outcome.datasets) == 1 else None


def _result(
    run_id: int, job: ImportJob, outcome: LoadOutcome, status: ImportStatus, error: str | None
) -> ImportResult:
    return ImportResult(
        run_id=run_id,
        importer=job.importer,
        source=job.source,
        dataset_code=job.dataset_code or _single_dataset(outcome),
        table_name=job.table_name,
        rows_read=outcome.rows_read,
        rows_loaded=outcome.rows_loaded,
        rows_failed=len(outcome.failures),
        rows_skipped=outcome.rows_skipped,
        rows_revised=outcome.rows_revised,
        status=status,
        error=error,
        failures=tuple(outcome.failures[:MAX_FAILURES_KEPT]),
        datasets=tuple(s.dataset_code for s in outcome.datasets),
        first_date=outcome.first_date,
        last_date=outcome.last_date,
        bar_frequency=outcome.bar_frequency,
    )
