"""How long the analyst waits in the browser: submit → answer text and submit → every chart
drawn, per screen (ETF and Macro chat, the stock report), p50 / p95 / max over the questions
below, in real Chromium.

    python bench/browser_timing.py [--screens etf,macro,stock] [--rounds 1] [--url http://127.0.0.1:8531]
    python bench/browser_timing.py --app old=http://127.0.0.1:8611,PID --app new=http://127.0.0.1:8612,PID
    python bench/browser_timing.py --screens macro --question '원달러 환율에 영향을 준 이벤트 경로는?' --rounds 5 --app …

Without `--url` it starts the app (`streamlit run app.py`, offline planner) on WORKBENCH_HOME's
embedded stores with the demo data. Each question is asked in a fresh session of one browser
context (the page is reloaded, so the conversation is new and the browser cache stays warm, as
for an analyst's second question) and the screen settles (network idle, as while an analyst
reads it) before the question is typed; the first question of a screen is a cold one. With
`--app` repeated (old code and new, each app started on its own port) every question is asked on
each app in turn, so that both are measured at the same load. The clock
starts when Enter is pressed (the stock report: 리포트 생성 is clicked) and stops when the answer's mode line is in the page (text) and
when the script has finished and every plotly chart of that answer has drawn its SVG (charts).
It also prints each answer's chart count, when the app's websocket frames for it arrived (the
first: the server's run has started; the last: it has ended, what follows is the browser
drawing) and the largest frame's size, and the machine's load average before and after each screen: on a shared two-core machine the
same code measured 0.5-1 s apart at load 3 and at load 9, so compare runs at similar load (or
interleave them). The work itself, which load does not stretch as much, is printed too: the
browser's main-thread time per turn (task, script, style and layout; Chromium's Performance
metrics, from before the question is typed), the CPU time of the browser's renderer processes
from submit until the charts are drawn (a figure the load stretches least),
and, with `--server-pid`, the app process's CPU time per turn. A measurement, not a
test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from contextlib import AbstractContextManager, nullcontext, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

from tests.qa.app_server import CHROMIUM, CHROMIUM_ARGS, seeded_offline_app  # noqa: E402
from tests.qa.scenarios import open_screen  # noqa: E402


@dataclass(frozen=True)
class Screen:
    """How a screen is asked and where its answer is drawn."""

    link: str  # the sidebar link
    questions: tuple[str, ...]  # each comes with charts
    placeholder: str | None = None  # the chat box; None: the stock report's form
    answers: str = '[data-testid="stChatMessage"] [data-testid="stCaptionContainer"]'
    block: str = '[data-testid="stChatMessage"]'  # the last one holds the answer and its charts


MAIN = '[data-testid="stMain"]'
SCREENS: dict[str, Screen] = {
    "etf": Screen("ETF 챗", placeholder="ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)", questions=(
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
    # the placeholder's start, which older checkouts share (an --app comparison finds both boxes)
    "macro": Screen("매크로 Q&A", placeholder="거시·주식·부동산 질문", questions=(
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
    # the whole report (research → analysis → recommendation → review) for a typed symbol
    "stock": Screen("종목 리포트", answers=f'{MAIN} [data-testid="stCaptionContainer"]', block=MAIN,
                    questions=("삼성전자", "AAPL", "KR:000660", "엔비디아", "005380", "MSFT",
                               "NAVER", "US:TSLA", "셀트리온", "KB금융")),
}  # fmt: skip

# Installed just before Enter is pressed; polls every 10 ms on the page's own clock. Text: one
# more answer mode line than before. Charts: the script has finished, no element of the last
# chat message is still a loading skeleton, and every plotly chart in it has drawn its SVG,
# held for SETTLE_MS (a chart element arrives after its lazily loaded code); the time is when
# that state began.
WATCH = """([selector, block, before, settleMs]) => {
  const t = {start: performance.now()};
  window.__timing = t;
  const timer = setInterval(() => {
    const now = performance.now() - t.start;
    const answers = [...document.querySelectorAll(selector)]
      .filter((e) => e.textContent.includes('답변 모드')).length;
    if (answers > before && t.text === undefined) t.text = now;
    const app = document.querySelector('[data-testid="stApp"]');
    const turns = document.querySelectorAll(block);
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


QUIET_WINDOW_S = 0.5
QUIET_TASK_S = 0.05  # at most this much main-thread work in a window: the page is quiet
QUIET_TIMEOUT_S = 30.0


def settle(page: Any, cdp: Any | None = None) -> None:
    """Wait until the screen has loaded what it fetches and the browser has finished with it (an
    analyst reads it before typing): network idle, then (with `cdp`) a QUIET_WINDOW_S window in
    which the page's main thread worked less than QUIET_TASK_S. After a load the page compiles
    the element code it preloads (plotly's 4.7 MB among it): 1.4 s of script at load 20, which a
    question typed at once competed with, so every question after a reload measured it."""
    with suppress(PlaywrightTimeout):
        page.wait_for_load_state("networkidle", timeout=15_000)
    if cdp is None:
        return
    deadline = time.perf_counter() + QUIET_TIMEOUT_S
    while time.perf_counter() < deadline:
        before = browser_times(cdp)["task"]
        time.sleep(QUIET_WINDOW_S)
        if browser_times(cdp)["task"] - before < QUIET_TASK_S:
            return


COUNT_ANSWERS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((e) => e.textContent.includes('답변 모드')).length"""


@dataclass(frozen=True)
class Asked:
    """One question's clocks (seconds from submit) and what the app sent for it. The frame times
    are taken in this process as the browser receives them: the first is the run starting on
    the server, the last is its end (what follows is the browser drawing)."""

    text_s: float
    charts_s: float
    charts: int
    largest: int  # bytes of the largest websocket frame
    first_frame_s: float
    last_frame_s: float
    frame_count: int
    browser: dict[str, float]  # main-thread seconds of the turn: task, script, style + layout
    renderer_cpu_s: float  # CPU seconds of the browser's renderers from submit to the charts
    server_cpu_s: float | None  # the app process's CPU seconds over the turn (--server-pid)


# The renderer's cumulative main-thread times (Chromium's Performance domain), in seconds.
BROWSER_METRICS = {"task": ("TaskDuration",), "script": ("ScriptDuration",),
                   "style_layout": ("RecalcStyleDuration", "LayoutDuration")}  # fmt: skip


def browser_times(cdp: Any) -> dict[str, float]:
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {k: sum(metrics.get(n, 0.0) for n in names) for k, names in BROWSER_METRICS.items()}


def renderer_cpu(browser_cdp: Any) -> float:
    """CPU seconds used so far by the browser's renderer processes (the pages' main threads and
    their workers): unlike the main thread's task times, not stretched when the machine is busy
    (one page works at a time, so a turn's difference is its page's)."""
    processes = browser_cdp.send("SystemInfo.getProcessInfo")["processInfo"]
    return float(sum(p["cpuTime"] for p in processes if p["type"] == "renderer"))


def cpu_seconds(pid: int | None) -> float | None:
    """utime + stime of process `pid` (Linux /proc), or None."""
    if pid is None:
        return None
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ask(page: Any, screen: Screen, question: str, frames: list[tuple[float, int]],
        cdp: Any, server_pid: int | None = None, browser_cdp: Any = None) -> Asked:  # fmt: skip
    """Submit `question` and wait until its answer's text and charts are drawn."""
    frames.clear()
    browser_before, cpu_before = browser_times(cdp), cpu_seconds(server_pid)
    renderer_before = 0.0
    before = int(page.evaluate(COUNT_ANSWERS, screen.answers))
    if screen.placeholder is not None:
        box = page.get_by_placeholder(screen.placeholder)
        box.fill(question)
        page.evaluate(WATCH, [screen.answers, screen.block, before, SETTLE_MS])
        renderer_before = renderer_cpu(browser_cdp) if browser_cdp is not None else 0.0
        sent = time.perf_counter()
        box.press("Enter")
    else:  # the stock form: the symbol typed as a new option, then 리포트 생성
        box = page.get_by_role("combobox").first
        box.click()
        box.fill(question)
        page.keyboard.press("Enter")
        # the choice is made once its list has closed: clicked before that under load, the form
        # once sent an empty symbol
        page.wait_for_function("(el) => el.getAttribute('aria-expanded') === 'false'",
                               arg=box.element_handle())  # fmt: skip
        page.evaluate(WATCH, [screen.answers, screen.block, before, SETTLE_MS])
        renderer_before = renderer_cpu(browser_cdp) if browser_cdp is not None else 0.0
        sent = time.perf_counter()
        page.get_by_role("button", name="리포트 생성").click()
    page.wait_for_function("() => window.__timing.charts !== undefined", timeout=TIMEOUT_MS)
    timing = page.evaluate("window.__timing")
    browser_after, cpu_after = browser_times(cdp), cpu_seconds(server_pid)
    renderer_after = renderer_cpu(browser_cdp) if browser_cdp is not None else 0.0
    after = [(t - sent, size) for t, size in frames if t >= sent]
    return Asked(
        text_s=timing["text"] / 1000,
        charts_s=timing["charts"] / 1000,
        charts=int(timing["count"]),
        largest=max((size for _, size in after), default=0),
        first_frame_s=after[0][0] if after else 0.0,
        last_frame_s=after[-1][0] if after else 0.0,
        frame_count=len(after),
        browser={k: browser_after[k] - browser_before[k] for k in browser_after},
        renderer_cpu_s=renderer_after - renderer_before,
        server_cpu_s=None if cpu_before is None or cpu_after is None else cpu_after - cpu_before,
    )


def _summary(label: str, values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"{label}: p50 {statistics.median(ordered) * 1000:,.0f} ms · p95 {p95 * 1000:,.0f} ms "
            f"· max {ordered[-1] * 1000:,.0f} ms (n={len(ordered)})")  # fmt: skip


def _load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())  # 1, 5, 15 min


@dataclass(frozen=True)
class App:
    """One app under measurement: a label, its URL and (optionally) its process id."""

    label: str
    url: str
    pid: int | None = None


def parse_app(text: str) -> App:
    """'old=http://127.0.0.1:8611,4242' → App('old', url, 4242); a bare URL is labelled 'app'."""
    label, _, rest = text.rpartition("=") if "=" in text.split("//")[0] else ("app", "", text)
    url, _, pid = rest.partition(",")
    return App(label or "app", url, int(pid) if pid else None)


@dataclass
class Figures:
    """One app's clocks over a screen's questions."""

    texts: list[float]
    charts: list[float]
    tasks: list[float]
    renderers: list[float]
    servers: list[float]


def _line(label: str, screen: str, question: str, a: Asked) -> str:
    cpu = "" if a.server_cpu_s is None else f" · server CPU {a.server_cpu_s * 1000:,.0f} ms"
    return (f"  {label} {screen} {question!r}: text {a.text_s * 1000:,.0f} ms · "
            f"charts {a.charts_s * 1000:,.0f} ms ({a.charts} charts) · frames "
            f"{a.frame_count} from {a.first_frame_s * 1000:,.0f} to "
            f"{a.last_frame_s * 1000:,.0f} ms, largest {a.largest / 1024:,.0f} KB · "
            f"browser main thread {a.browser['task'] * 1000:,.0f} ms (script "
            f"{a.browser['script'] * 1000:,.0f}, style+layout "
            f"{a.browser['style_layout'] * 1000:,.0f}) · renderer CPU "
            f"{a.renderer_cpu_s * 1000:,.0f} ms{cpu} · load {os.getloadavg()[0]:.1f}")  # fmt: skip


def run(apps: list[App], screens: list[str], rounds: int,
        questions: tuple[str, ...] = ()) -> None:  # fmt: skip
    """Each question on every app in turn (the order alternating from one question to the
    next), so that apps compared side by side see the same load. `questions` replaces every
    screen's own list (one slow question measured again and again)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        browser_cdp = browser.new_browser_cdp_session()
        for screen in screens:
            spec = SCREENS[screen]
            if questions:
                spec = replace(spec, questions=questions)
            tabs = {}
            for app in apps:
                context = browser.new_context(viewport={"width": 1440, "height": 900},
                                              locale="ko-KR")  # fmt: skip
                page = context.new_page()
                frames: list[tuple[float, int]] = []  # (when, bytes) of the app's websocket frames
                page.on("websocket", lambda ws, frames=frames: ws.on(
                    "framereceived", lambda data: frames.append((time.perf_counter(), len(data)))))  # fmt: skip
                cdp = context.new_cdp_session(page)
                cdp.send("Performance.enable")
                tabs[app.label] = (context, page, frames, cdp)
            figures = {app.label: Figures([], [], [], [], []) for app in apps}
            print(f"{screen}: load average {_load()}", flush=True)
            for r in range(rounds):
                for i, question in enumerate(spec.questions):
                    for app in apps if (i + r) % 2 == 0 else apps[::-1]:
                        _, page, frames, cdp = tabs[app.label]
                        open_screen(page, app.url, spec.link, spec.link)
                        settle(page, cdp)
                        a = ask(page, spec, question, frames, cdp, app.pid, browser_cdp)
                        f = figures[app.label]
                        f.texts.append(a.text_s)
                        f.charts.append(a.charts_s)
                        f.tasks.append(a.browser["task"])
                        f.renderers.append(a.renderer_cpu_s)
                        if a.server_cpu_s is not None:
                            f.servers.append(a.server_cpu_s)
                        print(_line(app.label, screen, question, a), flush=True)
            print(f"{screen}: load average {_load()}")
            for app in apps:
                f, name = figures[app.label], f"{app.label} {screen}"
                print(_summary(f"{name} submit → text", f.texts))
                print(_summary(f"{name} submit → all charts", f.charts))
                print(_summary(f"{name} browser main-thread time", f.tasks))
                print(_summary(f"{name} renderer CPU", f.renderers))
                if f.servers:
                    print(_summary(f"{name} server CPU", f.servers))
            print("", end="", flush=True)
            for context, *_ in tabs.values():
                context.close()
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screens", default="etf,macro,stock")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--url", help="an app already running (default: start one)")
    parser.add_argument(
        "--server-pid",
        type=int,
        help="the app's process id (with --url): its CPU time per turn is printed",
    )
    parser.add_argument("--app", action="append", default=[], metavar="LABEL=URL[,PID]",
                        help="an app already running, repeated to compare apps side by side "
                             "(e.g. old code and new): every question is asked on each in turn")  # fmt: skip
    parser.add_argument("--question", action="append", default=[],
                        help="ask this instead of the screen's questions (repeatable)")  # fmt: skip
    args = parser.parse_args()
    screens = [s for s in args.screens.split(",") if s]
    asked = tuple(args.question)
    if args.app:
        run([parse_app(a) for a in args.app], screens, args.rounds, asked)
        return
    app: AbstractContextManager[str]
    if args.url:
        app = nullcontext(args.url)
    else:
        from data_access.config import get_settings

        app = seeded_offline_app(Path(get_settings().home), "streamlit-bench-browser.log")
    with app as url:
        run([App("app", url, args.server_pid)], screens, args.rounds, asked)


if __name__ == "__main__":
    main()
