"""How long the analyst waits in the browser: submit → answer text and submit → every chart
drawn, per chat screen, p50 / p95 / max over the questions below, in real Chromium.

    python bench/browser_timing.py [--screens etf,macro] [--rounds 1] [--url http://127.0.0.1:8531]

Without `--url` it starts the app (`streamlit run app.py`, offline planner) on WORKBENCH_HOME's
embedded stores with the demo data. Each question is asked in a fresh session of one browser
context (the page is reloaded, so the conversation is new and the browser cache stays warm, as
for an analyst's second question) and the screen settles (network idle, as while an analyst
reads it) before the question is typed; the first question of a screen is a cold one. The clock
starts when Enter is pressed and stops when the answer's mode line is in the page (text) and
when the script has finished and every plotly chart of that answer has drawn its SVG (charts).
It also prints each answer's chart count and the bytes of the page's largest websocket frame,
and the machine's load average before and after each screen: on a shared two-core machine the
same code measured 0.5-1 s apart at load 3 and at load 9, so compare runs at similar load (or
interleave them). A measurement, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from contextlib import AbstractContextManager, nullcontext, suppress
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

from tests.qa.app_server import CHROMIUM, CHROMIUM_ARGS, seeded_offline_app  # noqa: E402
from tests.qa.scenarios import open_screen  # noqa: E402

QUESTIONS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    # screen → (sidebar link, chat box placeholder, questions that come with charts)
    "etf": ("ETF 챗", "ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)", (
        "KODEX 200 3개월 가격 추이",
        "2차전지 ETF 6개월 수익률 순위",
        "KODEX 200 상위 5개 보유종목",
        "KODEX 200과 TIGER 200 비교해줘",
        "TIGER 200 1개월 가격 추이",
        "KODEX 200과 비슷한 ETF는?",
        "반도체 관련 ETF 보수율 낮은 순으로",
        "TIGER 200 상위 3개 보유종목",
        "KODEX 레버리지 6개월 가격 추이",
        "KODEX 200 정보 알려줘",
    )),
    "macro": ("매크로 Q&A", "거시·주식·부동산 질문을 입력하세요 (예: 한국 기준금리 추이)", (
        "한국 기준금리 최근 추이는?",
        "삼성전자 최근 3개월 수익률과 하락 원인은?",
        "서울 강남구 아파트 전세가율 추이",
        "원달러 환율에 영향을 준 이벤트 경로는?",
        "미국 기준금리 추이",
        "원달러 환율 최근 3개월 추이",
        "SK하이닉스 최근 1개월 수익률은?",
        "미국 CPI 추이",
        "한국 국고채 10년 금리 추이",
        "VIX 최근 추이",
    )),
}  # fmt: skip

ANSWERS = '[data-testid="stChatMessage"] [data-testid="stCaptionContainer"]'
# Installed just before Enter is pressed; polls every 10 ms on the page's own clock. Text: one
# more answer mode line than before. Charts: the script has finished, no element of the last
# chat message is still a loading skeleton, and every plotly chart in it has drawn its SVG,
# held for SETTLE_MS (a chart element arrives after its lazily loaded code); the time is when
# that state began.
WATCH = """([selector, before, settleMs]) => {
  const t = {start: performance.now()};
  window.__timing = t;
  const timer = setInterval(() => {
    const now = performance.now() - t.start;
    const answers = [...document.querySelectorAll(selector)]
      .filter((e) => e.textContent.includes('답변 모드')).length;
    if (answers > before && t.text === undefined) t.text = now;
    const app = document.querySelector('[data-testid="stApp"]');
    const turns = document.querySelectorAll('[data-testid="stChatMessage"]');
    const last = turns[turns.length - 1];
    let ready = t.text !== undefined && last && app
      && app.getAttribute('data-test-script-state') === 'notRunning'
      && !last.querySelector('[data-testid="stSkeleton"]');
    const charts = last ? last.querySelectorAll('[data-testid="stPlotlyChart"]') : [];
    ready = ready && [...charts].every((c) => c.querySelector('.js-plotly-plot .main-svg'));
    if (!ready) { t.since = undefined; return; }
    if (t.since === undefined) t.since = now;
    if (now - t.since >= settleMs) { t.charts = t.since; t.count = charts.length; clearInterval(timer); }
  }, 10);
}"""
SETTLE_MS = 500
TIMEOUT_MS = 120_000


def settle(page: Any) -> None:
    """Wait until the screen has loaded what it fetches (an analyst reads it before typing)."""
    with suppress(PlaywrightTimeout):
        page.wait_for_load_state("networkidle", timeout=15_000)


COUNT_ANSWERS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((e) => e.textContent.includes('답변 모드')).length"""


def ask(page: Any, placeholder: str, question: str,
        frames: list[int]) -> tuple[float, float, int, int]:  # fmt: skip
    """(submit → text s, submit → charts s, chart count, largest websocket frame bytes)."""
    frames.clear()
    before = int(page.evaluate(COUNT_ANSWERS, ANSWERS))
    box = page.get_by_placeholder(placeholder)
    box.fill(question)
    page.evaluate(WATCH, [ANSWERS, before, SETTLE_MS])
    box.press("Enter")
    page.wait_for_function("() => window.__timing.charts !== undefined", timeout=TIMEOUT_MS)
    timing = page.evaluate("window.__timing")
    return (
        timing["text"] / 1000,
        timing["charts"] / 1000,
        int(timing["count"]),
        max(frames, default=0),
    )


def _summary(label: str, values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"{label}: p50 {statistics.median(ordered) * 1000:,.0f} ms · p95 {p95 * 1000:,.0f} ms "
            f"· max {ordered[-1] * 1000:,.0f} ms (n={len(ordered)})")  # fmt: skip


def _load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())  # 1, 5, 15 min


def run(base_url: str, screens: list[str], rounds: int) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        frames: list[int] = []  # sizes of the frames the app sends, for the current question
        for screen in screens:
            link, placeholder, questions = QUESTIONS[screen]
            context = browser.new_context(viewport={"width": 1440, "height": 900}, locale="ko-KR")
            page = context.new_page()
            page.on("websocket", lambda ws: ws.on(
                "framereceived", lambda data: frames.append(len(data))))  # fmt: skip
            texts, charts = [], []
            print(f"{screen}: load average {_load()}", flush=True)
            for _ in range(rounds):
                for question in questions:
                    open_screen(page, base_url, link, link)
                    settle(page)
                    text_s, charts_s, count, frame = ask(page, placeholder, question, frames)
                    texts.append(text_s)
                    charts.append(charts_s)
                    print(f"  {screen} {question!r}: text {text_s * 1000:,.0f} ms · "
                          f"charts {charts_s * 1000:,.0f} ms ({count} charts, largest frame "
                          f"{frame / 1024:,.0f} KB)", flush=True)  # fmt: skip
            print(f"{screen}: load average {_load()}")
            print(_summary(f"{screen} submit → text", texts))
            print(_summary(f"{screen} submit → all charts", charts), flush=True)
            context.close()
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screens", default="etf,macro")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--url", help="an app already running (default: start one)")
    args = parser.parse_args()
    screens = [s for s in args.screens.split(",") if s]
    app: AbstractContextManager[str]
    if args.url:
        app = nullcontext(args.url)
    else:
        from data_access.config import get_settings

        app = seeded_offline_app(Path(get_settings().home), "streamlit-bench-browser.log")
    with app as url:
        run(url, screens, args.rounds)


if __name__ == "__main__":
    main()
