"""Issue 25, the data lifecycle, on a PRIVATE stack: imports reach every screen in the same
command, a graph outage during an import is caught up by --retry-lagging, the scheduled refresh
is idempotent and runs once at a time, and backup → wipe → restore loses nothing.

The private stack has its own WORKBENCH_HOME under /tmp and its own servers and ports (never the
shared `.workbench/test` ones, which other suites read while this one imports, kills a graph
server and wipes). It gets the shared test database's contents the way a user would move them:
a backup of the test stack (read-only there) restored into it, which rebuilds its graph by
projection — so the fixture is itself the first restore this module checks. No mocks: the CSV
imports, the Yahoo importer (against a local HTTP server replaying a recorded chart response,
as in test_importers), pg_dump/pg_restore and the graph server are the real ones.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from agents.etf.tools import GetETFInfoTool, GetHoldingsChangesTool, ToolContext
from agents.inputs import last_answer
from data_access import services
from data_access.backup import create_backup, restore_backup, table_row_counts, wipe
from data_access.config import Settings, get_settings
from data_access.graph import GraphStore, get_graph_store
from data_access.importers.__main__ import EXIT_GRAPH_BEHIND
from data_access.importers.__main__ import main as importers_main
from data_access.postgres import close_pool, fetch_all, fetch_one, get_pool
from data_access.projection.__main__ import main as projection_main
from data_access.projection.backlog import graph_lag
from data_access.refresh import REFRESH_LOCK, refresh
from tests.browser.fault_stack import private_home, private_settings, process_alive
from tests.integration.test_importers import FIXTURES, ReplayServer

# Graph windows of the private stack (the screens answer these questions the same from them).
HOLDINGS_DAYS, BAR_DAYS = 2, 2
KODEX200, TIGER200, SAMSUNG = "069500", "102110", "KR:005930"


@dataclass
class Stack:
    home: Path
    settings: Settings

    @property
    def uri(self) -> str:
        info = services.recorded_info(self.settings)
        assert info is not None
        return info.postgres_uri

    def pool(self) -> ConnectionPool:
        return get_pool(self.uri, self.settings)

    def store(self) -> GraphStore:
        return get_graph_store(self.settings)


@pytest.fixture(scope="module")
def stack(demo_data: object, settings: Settings) -> Iterator[Stack]:
    with private_home("atlas-lifecycle-") as home:
        private = private_settings(home)
        try:
            seed = create_backup(settings, home / "from-test-stack", label="test-stack")
            report = restore_backup(
                seed, private, holdings_days=HOLDINGS_DAYS, daily_bar_days=BAR_DAYS
            )
            assert report.mismatches() == {}, report.mismatches()
            assert "graph projection ok" in report.projection, report.projection
            yield Stack(home, private)
        finally:
            services._attach_only.discard(private.home)
            info = services.recorded_info(private)
            if info is not None:
                close_pool(info.postgres_uri)
            services.stop(private)


@contextmanager
def commands_on(stack: Stack) -> Iterator[None]:
    """CLI entry points run in this process against the private stack (as `WORKBENCH_HOME=…
    python -m …` would), then the test settings come back."""
    old = os.environ.get("WORKBENCH_HOME")
    os.environ["WORKBENCH_HOME"] = str(stack.home)
    get_settings.cache_clear()
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("WORKBENCH_HOME", None)
        else:
            os.environ["WORKBENCH_HOME"] = old
        get_settings.cache_clear()


# ---------------------------------------------------------------- what the screens show


def etf_info(stack: Stack, code: str) -> dict[str, Any]:
    ctx = ToolContext(store=stack.store(), pool=stack.pool())
    return dict(json.loads(GetETFInfoTool(ctx).forward(code)))


def top_weight(stack: Stack, code: str, stock_code: str) -> float | None:
    rows = etf_info(stack, code)["top_holdings"]
    return next((r["weight"] for r in rows if r["stock_code"] == stock_code), None)


def macro_text(stack: Stack, question: str) -> str:
    from agents.macro.service import answer_question

    answer = answer_question(question, pool=stack.pool(), store=stack.store())
    return str(answer.answer)


def stock_text(stack: Stack, symbol: str) -> tuple[str, str | None]:
    from agents.stock.service import stream_report

    answer = last_answer(stream_report(symbol, pool=stack.pool(), save=False))
    return str(answer.answer), str(answer.as_of_date) if answer.as_of_date else None


# ---------------------------------------------------------------- input files


def next_weekday(day: date) -> date:
    day += timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def holdings_csv(stack: Stack, path: Path, code: str, day: date, weights: dict[str, float]) -> Path:
    """The ETF's latest snapshot as a KRX-style CSV dated `day`, with `weights` changed."""
    rows = fetch_all(
        "SELECT security_id, weight, shares FROM etf_holdings WHERE etf_code = %(c)s"
        " AND as_of_date = (SELECT max(as_of_date) FROM etf_holdings WHERE etf_code = %(c)s)",
        {"c": code},
        stack.pool(),
    )
    lines = ["기준일,종목코드,비중(%),주식수"]
    for r in rows:
        weight = weights.get(r["security_id"], r["weight"])
        lines.append(f"{day},{r['security_id'].split(':')[1]},{weight},{r['shares']}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def latest_trade_date(stack: Stack) -> date:
    row = fetch_one("SELECT max(trade_date) AS d FROM stock_prices", pool=stack.pool())
    assert row is not None
    return date.fromisoformat(str(row["d"]))


# ---------------------------------------------------------------- tests


def test_imports_reach_the_etf_tools_stock_report_and_macro_qa_in_the_same_command(
    stack: Stack, tmp_path: Path
) -> None:
    day = next_weekday(latest_trade_date(stack))
    assert top_weight(stack, KODEX200, "005930") != pytest.approx(27.35)
    holdings = holdings_csv(stack, tmp_path / "pdf.csv", KODEX200, day, {SAMSUNG: 27.35})
    ohlcv = tmp_path / "samsung.csv"
    ohlcv.write_text(f"날짜,시가,고가,저가,종가,거래량\n{day},94500,96800,94100,96300,12345678\n")
    macro = tmp_path / "base_rate.csv"
    macro.write_text("시점,값\n2026-11,2.00\n", encoding="utf-8")
    with commands_on(stack):
        codes = [
            importers_main(["csv", "--kind", "holdings", "--file", str(holdings),
                            "--etf-code", KODEX200]),
            importers_main(["csv", "--kind", "ohlcv", "--file", str(ohlcv), "--code", "005930",
                            "--country", "KR"]),
            importers_main(["csv", "--kind", "macro", "--file", str(macro), "--series-code",
                            "KR_BASE_RATE", "--name", "Bank of Korea Base Rate", "--name-ko",
                            "한국은행 기준금리", "--country", "KR", "--unit", "percent",
                            "--frequency", "monthly"]),
        ]  # fmt: skip
    assert codes == [0, 0, 0]
    assert not graph_lag(stack.pool()).behind  # every import was projected by its own command

    # ETF chat's tools read holdings from the graph: the new snapshot and its change.
    assert top_weight(stack, KODEX200, "005930") == pytest.approx(27.35)
    ctx = ToolContext(store=stack.store(), pool=stack.pool())
    changes = json.loads(GetHoldingsChangesTool(ctx).forward(KODEX200))
    assert {"stock_code": "005930", "change_type": "increased", "new_weight": 27.35}.items() <= {
        k: v for c in changes if c["stock_code"] == "005930" for k, v in c.items()
    }.items()
    # Stock report: the new bar is the as-of close.
    text, as_of = stock_text(stack, "005930")
    assert as_of == day.isoformat() and "96,300원" in text
    # Macro Q&A: the new observation is the latest value.
    answer = macro_text(stack, "한국 기준금리 최근 값")
    assert "2.00" in answer and "2026-11-01" in answer

    # One projection_runs row per step the imports needed, each batch incremental (≤ 3 steps).
    steps = fetch_all(
        "SELECT batch_id, step, status FROM projection_runs WHERE started_at > now() - interval"
        " '10 minutes' AND step IN ('holds', 'holding_changes', 'daily_bars', "
        "'indicator_observations') ORDER BY run_id",
        pool=stack.pool(),
    )
    assert [s["step"] for s in steps][-4:] == [
        "holds", "holding_changes", "daily_bars", "indicator_observations"
    ]  # fmt: skip
    assert all(s["status"] == "ok" for s in steps[-4:])


def test_graph_down_during_an_import_keeps_the_data_and_retry_lagging_catches_up(
    stack: Stack, tmp_path: Path
) -> None:
    day = next_weekday(latest_trade_date(stack))
    csv = holdings_csv(stack, tmp_path / "tiger.csv", TIGER200, day, {SAMSUNG: 31.11})
    before = top_weight(stack, TIGER200, "005930")
    info = services.recorded_info(stack.settings)
    assert info is not None and info.falkordb_pid is not None
    # A real outage: the graph server stops, and this process may not restart it (as the app
    # after its first page view; an operator stopped it).
    services.forbid_starting(stack.settings)
    os.kill(info.falkordb_pid, signal.SIGTERM)  # clean stop: the RDB snapshot is written
    deadline = time.monotonic() + 20
    while process_alive(info.falkordb_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    try:
        with commands_on(stack):
            code = importers_main(["csv", "--kind", "holdings", "--file", str(csv),
                                   "--etf-code", TIGER200])  # fmt: skip
        assert code == EXIT_GRAPH_BEHIND
        imported = fetch_one(
            "SELECT weight FROM etf_holdings WHERE etf_code = %s AND as_of_date = %s"
            " AND security_id = %s",
            (TIGER200, day, SAMSUNG),
            stack.pool(),
        )
        assert imported is not None and float(imported["weight"]) == pytest.approx(31.11)
        lag = graph_lag(stack.pool())
        assert lag.behind and lag.last_error and lag.scope is not None
        assert TIGER200 in lag.scope.etf_codes
        assert lag.pending[-1].attempts >= 1
        services.start_on_request(stack.settings)  # the operator brings the graph back
        assert top_weight(stack, TIGER200, "005930") == before  # still the old snapshot
        with commands_on(stack):
            assert projection_main(["--retry-lagging"]) == 0
    finally:
        services._attach_only.discard(stack.settings.home)
    assert not graph_lag(stack.pool()).behind
    assert top_weight(stack, TIGER200, "005930") == pytest.approx(31.11)


def test_refresh_backfills_from_the_stored_gap_is_idempotent_and_runs_once_at_a_time(
    stack: Stack,
) -> None:
    replay = ReplayServer()
    replay.routes["/v8/finance/chart/AAPL"] = (200, FIXTURES / "yahoo_chart_AAPL.json")
    try:
        from data_access.importers import import_yahoo_ohlcv

        pool = stack.pool()
        first = import_yahoo_ohlcv("AAPL", start=date(2024, 3, 4), end=date(2024, 3, 15),
                                   security_id="US:AAPLX", base_url=replay.url, pool=pool)  # fmt: skip
        assert first.rows_loaded == 9
        count = "SELECT count(*) AS n FROM stock_prices WHERE security_id = 'US:AAPLX'"
        with psycopg.connect(stack.uri, autocommit=True) as other:  # a refresh already running
            other.execute("SELECT pg_advisory_lock(%s)", (REFRESH_LOCK,))
            assert refresh(pool, ["yfinance"], yahoo_base_url=replay.url).status == "skipped"
            # Released here, not by closing: a closed session's backend can still hold the lock
            # for a moment, and under load the next refresh found it taken ('skipped').
            other.execute("SELECT pg_advisory_unlock(%s)", (REFRESH_LOCK,))
        replay.requests.clear()
        # Only this security: the restored test data may hold other suites' Yahoo imports.
        reports = [
            refresh(pool, ["yfinance"], yahoo_base_url=replay.url, only=["US:AAPLX"])
            for _ in range(2)
        ]
    finally:
        replay.close()
    for report in reports:
        assert report.status == "ok", report.failed
        (job,) = report.jobs
        assert (job.key, job.latest) == ("AAPL", date(2024, 3, 15))
        assert job.start == date(2024, 3, 8)  # the newest stored bar minus the overlap
        assert report.loaded["AAPL"] == 9 and "graph projection ok" in str(report.projection)
    gap_start = int(datetime(2024, 3, 8, tzinfo=UTC).timestamp())
    period1 = [int(q["period1"]) for path, q, _ in replay.requests if path.endswith("/AAPL")]
    assert period1 == [gap_start, gap_start]  # each run asked from the gap on
    row = fetch_one(count, pool=stack.pool())
    assert row is not None and row["n"] == 9  # the second run changed nothing


QUESTIONS_MACRO = ("한국 기준금리 최근 값", "미국과 한국 기준금리 격차")


def test_backup_wipe_restore_gives_the_same_rows_and_answers(stack: Stack) -> None:
    answers = _answers(stack)
    counts = table_row_counts(stack.uri)
    said: list[str] = []
    assert wipe(stack.settings, ask=lambda _: "no", out=said.append) is None
    assert (stack.home / "postgres").is_dir() and "not confirmed" in said[-1]

    backup = wipe(stack.settings, confirmed=True, out=said.append)
    assert backup is not None and backup.row_counts == counts
    assert not (stack.home / "postgres").exists() and not (stack.home / "falkordb").exists()
    assert backup.path.is_file() and backup.path.parent == stack.home / "backups"
    assert any("delete" in line and "postgres" in line for line in said)

    services.ensure_running(stack.settings)  # empty stores, as `make run` would start them
    assert table_row_counts(stack.uri).get("etf_holdings", 0) == 0
    report = restore_backup(
        backup, stack.settings, holdings_days=HOLDINGS_DAYS, daily_bar_days=BAR_DAYS
    )
    assert report.mismatches() == {} and report.row_counts == counts
    assert "graph projection ok" in report.projection
    assert _answers(stack) == answers


def _answers(stack: Stack) -> dict[str, Any]:
    """A few questions of the ETF, Macro and Stock screens (their service functions)."""
    info = etf_info(stack, KODEX200)
    text, as_of = stock_text(stack, "005930")
    return {
        "etf": (info["top_holdings"], info.get("tags"), info.get("returns")),
        "changes": json.loads(
            GetHoldingsChangesTool(ToolContext(store=stack.store(), pool=stack.pool())).forward(
                KODEX200
            )
        ),
        "macro": [macro_text(stack, q) for q in QUESTIONS_MACRO],
        "stock": (text, as_of),
    }
