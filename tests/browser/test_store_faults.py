"""Store faults on every screen, in real Chromium, on a private stack whose servers really stop.

The stack (tests/browser/fault_stack.py) has its own embedded PostgreSQL and FalkorDB under a
temporary WORKBENCH_HOME, seeded with the demo data, and the app under `streamlit run` on it:
the shared `.workbench/test` servers are never touched. No LLM is configured, so the offline
planner answers and no provider (not even the replay server) is involved.

One browser session per scenario, the app process never restarted:
- PostgreSQL stopped (`pg_ctl stop`): each screen's main action shows a Korean message naming
  PostgreSQL, no exception box, no traceback; the sidebar shows it down and offers its
  '내장 서버 다시 켜기' button. Started again with that button, the same session runs every
  action to its answer.
- FalkorDB SIGKILLed: the screens that read the graph degrade (Macro answers from SQL and says
  why; ETF chat and the Data screen's graph parts say the graph store is unreachable), the
  others keep working; restarted, the graph answers again on the screens that read it (the
  others ran their action to its answer while it was down, in the same app process).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.browser.fault_stack import FaultStack, fault_stack, private_home
from tests.browser.waits import ANSWER_TIMEOUT_MS, only_one

pytestmark = pytest.mark.browser

PG_DOWN = re.compile("PostgreSQL에 연결할 수 없")
GRAPH_DOWN = re.compile("저장소에 연결할 수 없")  # ETF: "조회에 실패했습니다: 저장소에 …"
RECOVERY_WAIT_S = 60  # the sidebar's health probe is reused for 1 s here (fault_stack.app_env)
RELOAD_EVERY_S = 0.5  # between reloads while waiting for that reuse to expire


@pytest.fixture(scope="module")
def stack() -> Iterator[FaultStack]:
    with private_home() as home, fault_stack(home) as running:
        yield running


# ---------------------------------------------------------------- screens


@dataclass(frozen=True)
class Screen:
    """One screen: how to reach it, run its main action, and see that the action succeeded."""

    key: str
    path: str  # the screen's deep link (app.py's url_path), "" for the home screen
    heading: str
    act: Callable[[Any], None]
    succeeded: Callable[[Any], Any]  # a locator that appears when the action worked
    uses_graph: bool = False
    degraded: str | None = None  # text a degraded answer carries, absent from a healthy one


def _ask_chat(placeholder: str, question: str) -> Callable[[Any], None]:
    def act(page: Any) -> None:
        box = page.get_by_placeholder(placeholder)
        box.fill(question)
        box.press("Enter")

    return act


def _console_sql(page: Any) -> None:
    page.get_by_role("tab", name="쿼리 콘솔").click()
    box = page.locator('textarea[aria-label="쿼리"]')
    box.fill("SELECT series_code, count(*) AS n FROM macro_observations GROUP BY 1 ORDER BY 1")
    box.press("Control+Enter")
    page.get_by_role("button", name="실행").click()


def _click(name: str) -> Callable[[Any], None]:
    def act(page: Any) -> None:
        page.get_by_role("button", name=name, exact=True).click()

    return act


def _contract_question(page: Any) -> None:
    only_one(page.get_by_label("질문")).fill("손해배상 한도는?")
    page.get_by_role("button", name="질문하기").click()


SCREENS = (
    Screen("data", "", "데이터", _console_sql,
           lambda p: p.get_by_text(re.compile(r"^\d+행 · .*읽기 전용으로 실행됨"))),
    Screen("etf", "/etf", "ETF 챗",
           _ask_chat("ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)", "KODEX 200 3개월 가격 추이"),
           lambda p: p.get_by_role("paragraph").filter(has_text="KODEX 200의 3개월 가격 추이"),
           uses_graph=True),
    Screen("macro", "/macro", "매크로 Q&A",
           _ask_chat("거시·주식·부동산 질문 (예: 한국 기준금리 추이)",
                     "원달러 환율에 영향을 준 이벤트 경로는?"),
           lambda p: p.get_by_text("근거 경로: 이벤트").first, uses_graph=True,
           degraded="SQL 근거로만 답했습니다"),
    Screen("opening", "/opening", "오프닝 스크립트", _click("대본 만들기"),
           lambda p: p.get_by_role("heading", name="핵심 테마")),
    Screen("contract", "/contract", "계약 조항", _contract_question,
           lambda p: p.get_by_text("찾은 조항").first),
    Screen("stock", "/stock", "종목 리포트", _click("삼성전자"),
           lambda p: p.get_by_role("heading", name="삼성전자 (005930) 종목 리포트")),
)  # fmt: skip


def _open(page: Any, url: str, screen: Screen) -> None:
    """A new session on the screen by its deep link: the home (Data) screen is not drawn first
    on the way to every other screen (about half of each visit). Following the sidebar's links
    is tests/browser/test_analyst_screens.py's and the screenshot QA's part."""
    page.goto(url + screen.path)
    page.get_by_role("heading", name=screen.heading, exact=True).wait_for(timeout=ANSWER_TIMEOUT_MS)


@contextmanager
def _on(page: Any, screen: Screen, stage: str, screenshot_dir: Path) -> Iterator[None]:
    """Name the screen and stage in a failure, with a screenshot of what was on screen."""
    try:
        yield
    except Exception as e:
        shot = screenshot_dir / f"faults_failed_{stage}_{screen.key}.png"
        page.screenshot(path=str(shot), full_page=True)
        raise AssertionError(f"{screen.key} screen, {stage}: {e} (screenshot: {shot})") from e


def _shown(page: Any, text: re.Pattern[str]) -> Any:
    """The first visible element with `text` (other tabs keep their hidden content)."""
    return page.get_by_text(text).filter(visible=True).first


def _assert_clean(page: Any) -> None:
    """No Streamlit exception box and no Python traceback anywhere on the page."""
    assert page.locator('[data-testid="stException"]').count() == 0
    text = page.locator("body").inner_text()
    assert "Traceback" not in text and 'File "/' not in text, text[-2000:]


def _sidebar_store(page: Any, store: str) -> str:
    """The sidebar's status for one store: '정상' or '연결 안 됨'."""
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    match = re.search(re.escape(store) + r"\s*(정상|연결 안 됨)", sidebar)
    assert match, sidebar
    return match.group(1)


def _wait_sidebar(page: Any, url: str, store: str, status: str) -> None:
    """Reload until the sidebar's (cached) health probe reports `status` for `store`."""
    deadline = time.monotonic() + RECOVERY_WAIT_S
    while True:
        page.goto(url)
        page.get_by_text("저장소 상태").wait_for(timeout=ANSWER_TIMEOUT_MS)
        page.get_by_text(store).first.wait_for()
        if _sidebar_store(page, store) == status or time.monotonic() > deadline:
            break
        time.sleep(RELOAD_EVERY_S)
    assert _sidebar_store(page, store) == status


def _works(page: Any, url: str, screen: Screen) -> None:
    _open(page, url, screen)
    screen.act(page)
    screen.succeeded(page).wait_for(timeout=ANSWER_TIMEOUT_MS)
    if screen.degraded:
        assert page.get_by_text(screen.degraded).count() == 0
    _assert_clean(page)


# ---------------------------------------------------------------- scenarios


def test_postgres_stopped_every_screen_says_so_and_recovers(
    stack: FaultStack, page: Any, screenshot_dir: Path
) -> None:
    url = stack.url
    _open(page, url, SCREENS[0])
    page.get_by_text("데모 데이터").first.wait_for()  # the pool is open and has served queries

    stack.stop_postgres()
    for screen in SCREENS:
        with _on(page, screen, "pg_down", screenshot_dir):
            _open(page, url, screen)
            if screen.key not in ("opening", "contract"):  # both need PostgreSQL to draw a form
                screen.act(page)
            _shown(page, PG_DOWN).wait_for(timeout=ANSWER_TIMEOUT_MS)
            page.screenshot(path=str(screenshot_dir / f"faults_pg_down_{screen.key}.png"),
                            full_page=True)  # fmt: skip
            _assert_clean(page)
    _wait_sidebar(page, url, "PostgreSQL", "연결 안 됨")

    # The user brings it back from the sidebar (the graph scenario restarts it from outside).
    restart = page.get_by_role("button", name="내장 서버 다시 켜기")
    restart.click()
    # Stay on the page until that rerun is done: navigating away would end the session's run.
    restart.wait_for(state="detached", timeout=ANSWER_TIMEOUT_MS)
    _wait_sidebar(page, url, "PostgreSQL", "정상")
    assert restart.count() == 0
    for screen in SCREENS:
        with _on(page, screen, "pg_back", screenshot_dir):
            _works(page, url, screen)


def test_graph_killed_graph_screens_degrade_others_work_and_all_recover(
    stack: FaultStack, page: Any, screenshot_dir: Path
) -> None:
    url = stack.url
    stack.start()  # whatever an earlier scenario left down
    _open(page, url, SCREENS[0])
    page.get_by_role("tab", name="그래프 스키마").click()
    page.get_by_text("라벨별 노드 수").wait_for(timeout=ANSWER_TIMEOUT_MS)  # the graph is in use

    stack.kill_graph()
    for screen in SCREENS:
        with _on(page, screen, "graph_down", screenshot_dir):
            _open(page, url, screen)
            screen.act(page)
            if screen.uses_graph:
                _shown(page, GRAPH_DOWN).wait_for(timeout=ANSWER_TIMEOUT_MS)
                assert (
                    page.get_by_text("찾지 못했습니다").count() == 0
                )  # an outage is not "no data"
            else:
                screen.succeeded(page).wait_for(timeout=ANSWER_TIMEOUT_MS)
            page.screenshot(path=str(screenshot_dir / f"faults_graph_down_{screen.key}.png"),
                            full_page=True)  # fmt: skip
            _assert_clean(page)
    _open(page, url, SCREENS[0])
    page.get_by_role("tab", name="그래프 스키마").click()
    _shown(page, re.compile("그래프 저장소에 연결할 수 없")).wait_for()
    _wait_sidebar(page, url, "그래프 (FalkorDB)", "연결 안 됨")

    stack.start()
    _wait_sidebar(page, url, "그래프 (FalkorDB)", "정상")
    for screen in (s for s in SCREENS if s.uses_graph):  # the others answered while it was down
        with _on(page, screen, "graph_back", screenshot_dir):
            _works(page, url, screen)
