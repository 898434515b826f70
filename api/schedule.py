"""The weekly KPI report on a schedule, inside the API process (seed 004 §13.2-18: every Monday
at 08:20, Korean time).

    scheduler = WeeklyReportScheduler(stores, "mon 08:20")     # KST; "off" → None from parse_at
    scheduler.start()            # a daemon thread: sleeps until the next run, runs, repeats
    scheduler.state()            # {"at", "next_run_at", "last_run_at", "last_status", ...}
    scheduler.stop()

`python -m api` starts one (API_WEEKLY_REPORT_AT, default "mon 08:20"; "off" switches it off).
Apps built by tests or benchmarks have none unless their config asks (`ApiConfig(scheduler=True)`).
A run computes `agents.eval.weekly_summary(7)` from the stored evaluation runs and stores it (the
row `python -m agents.eval weekly` writes and /admin/indicators reads); a failure (PostgreSQL
down) is logged and kept in `state()`, and the next week runs as usual. Without the API, the same
report runs from cron: `20 8 * * 1 cd /path/to/atlas && .venv/bin/python -m agents.eval weekly`
(with TZ=Asia/Seoul), as the README says.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from data_access.errors import WorkbenchError

if TYPE_CHECKING:
    from api.stores import Stores

logger = logging.getLogger(__name__)

KST = ZoneInfo("Asia/Seoul")
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
REPORT_DAYS = 7
MAX_SLEEP_S = 60.0  # wake up now and then: a changed wall clock is noticed within a minute
_AT = re.compile(r"^(mon|tue|wed|thu|fri|sat|sun)\s+(\d{1,2}):(\d{2})(?::(\d{2}))?$")


@dataclass(frozen=True)
class WeeklyAt:
    weekday: int  # 0 = Monday
    at: time  # Korean time

    def next_after(self, now: datetime) -> datetime:
        """The first scheduled moment strictly after `now` (any time zone), in KST."""
        local = now.astimezone(KST)
        day = local.date() + timedelta(days=(self.weekday - local.weekday()) % 7)
        moment = datetime.combine(day, self.at, tzinfo=KST)
        return moment if moment > local else moment + timedelta(days=7)

    def __str__(self) -> str:
        return f"{DAYS[self.weekday]} {self.at.isoformat()} KST"


def parse_at(text: str) -> WeeklyAt | None:
    """'mon 08:20' (or 'mon 08:20:30') → WeeklyAt; 'off' or '' → None; anything else raises."""
    value = text.strip().lower()
    if value in ("", "off", "none", "0", "false"):
        return None
    match = _AT.match(value)
    if match is None:
        raise ValueError(f"weekly report time must look like 'mon 08:20' (KST) or 'off': {text!r}")
    day, hour, minute, second = match.groups()
    return WeeklyAt(DAYS.index(day), time(int(hour), int(minute), int(second or 0)))


class WeeklyReportScheduler:
    def __init__(self, stores: Stores, at: WeeklyAt) -> None:
        self.stores = stores
        self.at = at
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="weekly-report", daemon=True)
        self.next_run_at: datetime | None = None
        self.last_run_at: datetime | None = None
        self.last_status: str | None = None  # healthy | warning (the report's) | error
        self.last_error: str | None = None

    def start(self) -> None:
        self._thread.start()
        logger.info("weekly KPI report scheduled: %s", self.at)

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    def state(self) -> dict[str, Any]:
        def iso(moment: datetime | None) -> str | None:
            return moment.isoformat() if moment else None

        return {"at": str(self.at), "next_run_at": iso(self.next_run_at),
                "last_run_at": iso(self.last_run_at), "last_status": self.last_status,
                "last_error": self.last_error}  # fmt: skip

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.next_run_at = self.at.next_after(datetime.now(KST))
            while not self._stop.is_set():
                remaining = (self.next_run_at - datetime.now(KST)).total_seconds()
                if remaining <= 0:
                    break
                self._stop.wait(min(remaining, MAX_SLEEP_S))
            if not self._stop.is_set():
                self.next_run_at = self.at.next_after(self.next_run_at)  # the following week
                self.run_once()

    def run_once(self) -> None:
        """Compute and store the weekly summary now (what the schedule calls)."""
        from agents.eval import weekly_summary

        started = datetime.now(KST)
        try:
            summary = weekly_summary(REPORT_DAYS, self.stores.pool(), save=True)
        except WorkbenchError as e:
            self.last_status, self.last_error = "error", str(e)[:300]
            self.last_run_at = started  # set last: a reader seeing it sees the outcome too
            logger.warning("weekly KPI report failed: %s", e)
            return
        self.last_status, self.last_error = summary.status, None
        self.last_run_at = started
        logger.info("weekly KPI report stored: %s runs, status %s", summary.run_count,
                    summary.status)  # fmt: skip
