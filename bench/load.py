"""Concurrent browser sessions on every agent screen at once: answer time, errors, leakage.

    python bench/load.py --sessions 10 [--iterations 2] [--duration 240] [--base-url URL]

Starts the app on WORKBENCH_HOME's embedded stores (demo data, offline planner) on a loopback
port unless --base-url is given, opens N separate browser contexts in one Chromium and gives
session i the screen SCREENS[i % 5]. Chat screens (ETF, Macro, Contract) ask a question that
carries the session's unique marker; after every answer the session's page must show its own
marker and no other session's. Stock and Opening sessions reopen their screen and run a
report / script per iteration. Every loop is bounded by --iterations and --duration.
Prints p50/p95 time to open each screen (from loading "/" until its input is ready) and
answer time per screen, the error count and the leakage count. Every wait has the same
patience (ANSWER_TIMEOUT_MS): the bench's own Chromium shares the cores with the app, so a slow
screen is reported as a time, and only a screen that never becomes usable counts as an error.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import string
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.qa.app_server import CHROMIUM, CHROMIUM_ARGS, seeded_offline_app  # noqa: E402

ANSWER_TIMEOUT_MS = 240_000
ANSWER_CAPTION = "text=답변 모드:"
SCREENS = ("etf", "macro", "contract", "stock", "opening")
CHAT_SCREENS = {"etf", "macro", "contract"}
LINKS = {"etf": "ETF 챗", "macro": "매크로 Q&A", "contract": "계약 조항",
         "stock": "종목 리포트", "opening": "오프닝 스크립트"}  # fmt: skip
CHAT_BOX = '[data-testid="stChatInputTextArea"]'
QUESTIONS = {
    "etf": "KODEX 200 정보 알려줘",
    "macro": "한국 기준금리 최근 추이는?",
    "contract": "제11조 비밀유지 기간은?",
}


@dataclass
class Session:
    index: int
    screen: str
    marker: str
    times_ms: list[float] = field(default_factory=list)
    open_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)


def _marker(rng: random.Random) -> str:
    # Letters only, so no planner reads it as a code, a date or a number.
    return "qa" + "".join(rng.choices(string.ascii_lowercase, k=8))


def _input(page: Any, screen: str) -> Any:
    """The control a user acts with on `screen`: ready means the screen is usable."""
    if screen == "contract":
        return page.get_by_label("질문")
    if screen == "stock":
        return page.get_by_role("button", name="삼성전자", exact=True)
    if screen == "opening":
        return page.get_by_role("button", name="대본 만들기")
    return page.locator(CHAT_BOX)


async def _open(page: Any, base_url: str, session: Session) -> None:
    start = time.perf_counter()
    await page.goto(base_url)
    await page.get_by_role("link", name=LINKS[session.screen]).click()
    await page.get_by_role("heading", name=LINKS[session.screen], exact=True).wait_for()
    await _input(page, session.screen).wait_for()
    session.open_ms.append((time.perf_counter() - start) * 1000)


async def _idle(page: Any) -> None:
    running = page.locator('[data-testid="stStatusWidgetRunningIcon"]')
    await running.wait_for(state="detached", timeout=ANSWER_TIMEOUT_MS)


async def _ask(page: Any, session: Session, iteration: int) -> None:
    question = f"{QUESTIONS[session.screen]} ({session.marker}{iteration})"
    answers = page.locator(ANSWER_CAPTION)
    before = await answers.count()
    box = _input(page, session.screen)
    await box.fill(question)
    if session.screen == "contract":
        await page.get_by_role("button", name="질문하기").click()
    else:
        await box.press("Enter")
    await answers.nth(before).wait_for(timeout=ANSWER_TIMEOUT_MS)


async def _run_once(page: Any, base_url: str, session: Session, iteration: int) -> None:
    if session.screen == "stock":
        await _open(page, base_url, session)
        start = time.perf_counter()
        await _input(page, "stock").click()
        await page.get_by_role("heading", name="삼성전자 (005930) 종목 리포트").wait_for(
            timeout=ANSWER_TIMEOUT_MS
        )
    elif session.screen == "opening":
        await _open(page, base_url, session)
        start = time.perf_counter()
        await _input(page, "opening").click()
        await page.get_by_text("오늘 장 한마디").wait_for(timeout=ANSWER_TIMEOUT_MS)
    else:
        start = time.perf_counter()
        await _ask(page, session, iteration)
    await _idle(page)
    session.times_ms.append((time.perf_counter() - start) * 1000)


async def _check(page: Any, session: Session, others: list[str], iteration: int) -> None:
    """Own marker on screen (chat screens), nobody else's anywhere in the main area."""
    text = await page.locator("main").inner_text()
    if await page.locator('[data-testid="stException"]').count():
        session.errors.append(f"iteration {iteration}: Streamlit exception on screen")
    if session.screen in CHAT_SCREENS:
        mine = [f"{session.marker}{i}" for i in range(iteration + 1)]
        missing = [m for m in mine if m not in text]
        if missing:
            session.errors.append(f"iteration {iteration}: own questions missing {missing}")
    session.leaks.extend(f"iteration {iteration}: saw {m}" for m in others if m in text)


async def _session(
    browser: Any, base_url: str, session: Session, others: list[str], args: argparse.Namespace
) -> None:
    """Chat screens keep one browser context (one Streamlit session) for all their questions;
    Stock and Opening get a fresh context per run, so a finished run cannot satisfy the wait."""
    deadline = time.monotonic() + args.duration
    context = page = None
    try:
        for iteration in range(args.iterations):
            if time.monotonic() > deadline:
                break
            if page is None or session.screen not in CHAT_SCREENS:
                if context is not None:
                    await context.close()
                context, page = await _new_page(browser)
                if session.screen in CHAT_SCREENS:
                    await _open(page, base_url, session)
            try:
                await _run_once(page, base_url, session, iteration)
                await _check(page, session, others, iteration)
            except Exception as e:  # a timeout or a broken page is a counted error
                session.errors.append(f"iteration {iteration}: {type(e).__name__}: {e}"[:300])
                break
    finally:
        if context is not None:
            await context.close()


async def _new_page(browser: Any) -> tuple[Any, Any]:
    context = await browser.new_context(viewport={"width": 1280, "height": 900}, locale="ko-KR")
    page = await context.new_page()
    page.set_default_timeout(ANSWER_TIMEOUT_MS)
    return context, page


async def _run(base_url: str, args: argparse.Namespace) -> list[Session]:
    from playwright.async_api import async_playwright

    rng = random.Random(args.seed)
    sessions = [Session(i, SCREENS[i % len(SCREENS)], _marker(rng)) for i in range(args.sessions)]
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            await asyncio.gather(*(
                _session(browser, base_url, s, [o.marker for o in sessions if o is not s], args)
                for s in sessions
            ))  # fmt: skip
        finally:
            await browser.close()
    return sessions


def _pct(samples: list[float]) -> str:
    if not samples:
        return "no samples"
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"n={len(ordered):3d} p50 {statistics.median(ordered):8.0f} ms  p95 {p95:8.0f} ms"


def _print(sessions: list[Session], wall_s: float) -> int:
    answers: dict[str, list[float]] = defaultdict(list)
    opens: dict[str, list[float]] = defaultdict(list)
    for s in sessions:
        answers[s.screen].extend(s.times_ms)
        opens[s.screen].extend(s.open_ms)
    print(f"sessions {len(sessions)} · wall {wall_s:.1f} s")
    for screen in SCREENS:
        count = sum(1 for s in sessions if s.screen == screen)
        print(f"  {screen:9s} sessions {count:2d}  open   {_pct(opens[screen])}")
        print(f"  {'':9s} {'':11s} answer {_pct(answers[screen])}")
    errors = [f"session {s.index} ({s.screen}): {e}" for s in sessions for e in s.errors]
    leaks = [f"session {s.index} ({s.screen}): {e}" for s in sessions for e in s.leaks]
    for title, lines in (("errors", errors), ("cross-session leakage", leaks)):
        print(f"{title} {len(lines)}")
        for line in lines:
            print(f"  {line}")
    return 0 if not errors and not leaks else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=2, help="answers per session (bound)")
    parser.add_argument("--duration", type=float, default=300, help="seconds per session (bound)")
    parser.add_argument("--base-url", default="", help="a running app (loopback) instead")
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    if args.base_url and not args.base_url.startswith(("http://127.0.0.1", "http://localhost")):
        parser.error("--base-url must be a loopback address")
    start = time.perf_counter()
    if args.base_url:
        sessions = asyncio.run(_run(args.base_url, args))
    else:
        import os

        home = Path(os.environ.get("WORKBENCH_HOME", ROOT / ".workbench")).resolve()
        with seeded_offline_app(home, "streamlit-load.log") as url:
            sessions = asyncio.run(_run(url, args))
    return _print(sessions, time.perf_counter() - start)


if __name__ == "__main__":
    sys.exit(main())
