"""The contract screen in real Chromium right after a restart: how long the first question takes,
and screenshots of an answer from an annexed part and of a "no such clause" answer (issue 32).

    python bench/contract_browser.py [--shots DIR] [--rounds 3]

Each round starts the app afresh (`python app.py`, offline planner, on WORKBENCH_HOME's stores
with the demo data), opens the contract screen as soon as the server answers its health check,
and asks the picked contract one question the moment the question box is there. Printed per
round: seconds from the server's health to the question box, with its steps (Chromium started,
the default page's heading, the contract screen's heading, its question box; `--deep-link` opens
/contract directly), the same on a new page once the server is warm (what the browser itself
takes), and from pressing 질문하기 to the answer's text (the first question after a restart, as
the analyst waits for it). With `--shots`,
the last round then uploads the software subcontract written here (HWPX, annexes that restart at
제1조) and saves, at 1440 px: `contract_annex_answer.png` (비밀유지 의무 … → 별첨 1 제5조) and
`contract_no_such_clause.png` (a clause the subcontract lacks) and `contract_item_answer.png` (a
호 quoted with the line it completes). A measurement: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.fixtures.contracts.files import contract_file  # noqa: E402
from tests.qa.app_server import CHROMIUM, CHROMIUM_ARGS, seeded_offline_app  # noqa: E402

FIRST_QUESTION = "손해배상 책임은 누가 지나요?"
ANNEX = ("contract_annex_answer.png", "비밀유지 의무는 계약 끝나고 몇 년 동안 지켜야 하나요?",
         "별첨 1")  # fmt: skip
ABSENT = (
    "contract_no_such_clause.png",
    "소스코드 에스크로는 어떻게 되나요?",
    "에 관한 조항이 없습니다",
)
ITEM = ("contract_item_answer.png", "산출물이 뭐예요?", "소스코드")  # a 호 with what it completes
ANSWER_MS = 120_000
MESSAGE = '[data-testid="stChatMessage"]'


def ask(page: Any, question: str, expect: str) -> float:
    """Seconds from pressing 질문하기 to an answer holding `expect`."""
    box = page.get_by_label("질문").last
    box.wait_for(timeout=ANSWER_MS)
    box.fill(question)
    started = time.perf_counter()
    page.get_by_role("button", name="질문하기").click()
    page.locator(MESSAGE).filter(has_text=expect).last.wait_for(timeout=ANSWER_MS)
    return time.perf_counter() - started


def settle(page: Any) -> None:
    """Wait until the app's reruns are over (its status widget is gone)."""
    page.wait_for_load_state("networkidle")
    page.locator('[data-testid="stStatusWidget"]').wait_for(state="detached", timeout=ANSWER_MS)


def open_contract(browser: Any, url: str, deep_link: bool) -> tuple[Any, dict[str, float]]:
    """A new page on the contract screen: by its deep link (/contract), or from the default
    page (데이터) and the sidebar link as a user who opens the app does. Returns the page and
    the seconds from the start to each step ('home' heading, 'contract' heading, 'box')."""
    started = time.perf_counter()
    marks: dict[str, float] = {}
    page = browser.new_context(viewport={"width": 1440, "height": 1200}, locale="ko-KR").new_page()
    if deep_link:
        page.goto(f"{url}/contract")
    else:
        page.goto(url)
        page.locator("h1").first.wait_for(timeout=ANSWER_MS)
        marks["home"] = time.perf_counter() - started
        page.get_by_role("link", name="계약 조항").click()
    page.get_by_role("heading", name="계약 조항").wait_for(timeout=ANSWER_MS)
    marks["contract"] = time.perf_counter() - started
    page.get_by_label("질문").last.wait_for(timeout=ANSWER_MS)
    marks["box"] = time.perf_counter() - started
    return page, marks


def one_round(home: Path, shots: Path | None,
              deep_link: bool = False) -> tuple[dict[str, float], float, float]:  # fmt: skip
    """(the steps to the question box after the restart, the first question's seconds, the
    seconds to the box on a new page of the same, warm, server)."""
    with seeded_offline_app(home, "streamlit-contract-browser.log") as url, sync_playwright() as p:
        healthy = time.perf_counter()
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        launched = time.perf_counter() - healthy
        page, marks = open_contract(browser, url, deep_link)
        marks = {"chromium": launched, **{k: v + launched for k, v in marks.items()}}
        first = ask(page, FIRST_QUESTION, "답변 모드")
        if shots is not None:
            shots.mkdir(parents=True, exist_ok=True)
            settle(page)
            page.locator('input[type="file"]').set_input_files(files=[{
                "name": "software_subcontract.hwpx",
                "buffer": contract_file("software_subcontract", "hwpx"),
                "mimeType": "application/octet-stream"}])  # fmt: skip
            page.get_by_text("저장했습니다").first.wait_for(timeout=ANSWER_MS)
            for name, question, expect in (ANNEX, ABSENT, ITEM):
                settle(page)
                ask(page, question, expect)
                settle(page)
                page.locator(MESSAGE).filter(has_text=expect).last.scroll_into_view_if_needed()
                page.screenshot(path=str(shots / name), full_page=True)
                print("saved", shots / name)
        _, warm = open_contract(browser, url, deep_link)
        browser.close()
        return marks, first, warm["box"]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--shots", type=Path, help="save the two screenshots here (last round)")
    parser.add_argument(
        "--deep-link",
        action="store_true",
        help="open /contract directly (default: the default page, then its link)",
    )
    args = parser.parse_args()
    home = Path(os.environ.get("WORKBENCH_HOME", ROOT / ".workbench"))
    rounds = []
    for i in range(args.rounds):
        load = os.getloadavg()[0]
        marks, first, warm = one_round(home, args.shots if i == args.rounds - 1 else None,
                                       args.deep_link)  # fmt: skip
        rounds.append(first)
        steps = ", ".join(f"{k} {v:.2f}" for k, v in marks.items())
        print(f"round {i + 1}: health → question box {marks['box']:.2f} s ({steps}); the same "
              f"on a new page of the warm server {warm:.2f} s; first question "
              f"'{FIRST_QUESTION}' submit → answer {first:.2f} s (load {load:.1f})")  # fmt: skip
    print(f"first question after a restart: median {statistics.median(rounds):.2f} s, "
          f"max {max(rounds):.2f} s over {len(rounds)} restarts")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
