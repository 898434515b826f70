"""Screenshot QA for every screen: capture a scripted run per screen and viewport, compare sets.

    python -m tests.qa.screenshots capture --out DIR [--screens etf,macro] [--viewports desktop]
    python -m tests.qa.screenshots compare --baseline DIR --current DIR --out DIR [--threshold X]

`capture` starts the app on WORKBENCH_HOME's embedded stores (demo data, offline planner), drives
each screen in real Chromium, writes `<screen>-<viewport>.png` plus an accessibility report
(a11y.json / a11y.md) and exits non-zero when a check fails. Time-varying text (durations such as
"313 ms", timestamps such as "(11-22 01:04)") is blanked in the DOM before the shot, and the id
suffix that tells same-titled conversations apart (there only when two share a minute) dropped.
`compare` writes `<name>-diff.png` per screen and report.json / report.md; it exits non-zero
when a screen's changed-pixel ratio exceeds the threshold or a screen is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.qa import compare as diffing
from tests.qa.a11y import A11yResult, check_page
from tests.qa.app_server import CHROMIUM, CHROMIUM_ARGS, ROOT, seeded_offline_app
from tests.qa.scenarios import SCREENS, run_scenario


@dataclass(frozen=True)
class Viewport:
    name: str
    width: int
    height: int


VIEWPORTS = {"desktop": Viewport("desktop", 1440, 900), "narrow": Viewport("narrow", 420, 900)}
MAX_HEIGHT_PX = 16_000  # Chromium's practical limit for one capture
# Replace in text nodes and input values; the pattern list is the whole "stable content" rule.
# Text split over several nodes (markdown does that) cannot be rewritten: its element is marked
# `data-qa-mask` and masked by Playwright instead.
_STABILIZE = r"""() => {
  const rules = [
    [/\d[\d,]*(\.\d+)?\s?ms\b/g, '# ms'],
    [/\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?/g, 'YYYY-MM-DD hh:mm'],
    [/\d{2}-\d{2} \d{2}:\d{2}/g, 'MM-DD hh:mm'],
    // the place that tells same-titled conversations apart appears only when two share a
    // minute (pages/_chat.distinct_labels)
    [/(MM-DD hh:mm\)) \(\d+\)/g, '$1'],
  ];
  const fix = (s) => rules.reduce((acc, [re, to]) => acc.replace(re, to), s);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const fixed = fix(n.nodeValue);
    if (fixed !== n.nodeValue) n.nodeValue = fixed;
  }
  for (const input of document.querySelectorAll('input:not([type=file])')) {
    const fixed = fix(input.value);
    if (fixed !== input.value) input.value = fixed;
  }
  for (const el of document.querySelectorAll('p, span, div, label, summary, li, td')) {
    const own = [...el.childNodes].filter((c) => c.nodeType === Node.TEXT_NODE)
      .map((c) => c.nodeValue).join('');
    if (own !== fix(own) || (el.children.length === 0 && el.textContent !== fix(el.textContent)))
      el.setAttribute('data-qa-mask', '');
  }
}"""
MASK_COLOR = "#c8c8c8"
_CSS = """
  *, *::before, *::after { animation: none !important; transition: none !important;
                           caret-color: transparent !important; }
  [data-testid="stStatusWidget"], [data-testid="stToolbar"], [data-testid="stDecoration"]
    { visibility: hidden !important; }
  /* plotly's toolbar shows only while the pointer is over a chart, wherever a click left it */
  .js-plotly-plot .modebar-container { visibility: hidden !important; }
"""
# The main area and the sidebar scroll inside themselves: scroll both to the top and measure
# where their last element ends (a collapsed sidebar sits off-screen to the left and does not
# count). The last element, not scrollHeight: the main area's bottom padding is not always the
# same (the narrow contract shot once differed by 139 px of blank space and nothing else).
_CONTENT_HEIGHT = """() => {
  let height = 0;
  for (const el of document.querySelectorAll('main, [data-testid="stSidebarContent"]')) {
    el.scrollTop = 0;
    const box = el.getBoundingClientRect();
    if (box.right <= 0) continue;
    for (const child of el.querySelectorAll('[data-testid="stVerticalBlock"]')) {
      height = Math.max(height, child.getBoundingClientRect().bottom);
    }
  }
  return Math.ceil(height) + 48;
}"""


# To the top, and held there: a chat screen's last answer ends under the chat box with some
# 90 px left to scroll, and the chat's stick-to-bottom scrolled there now and then after the
# move to the top (macro_rate shot 80 px lower, 1 run in 5). A scroll is undone before the
# frame is painted (scroll events run before rendering).
_TO_TOP = """() => document.querySelectorAll(
  'main, [data-testid="stMain"], [data-testid="stSidebarContent"]').forEach((el) => {
    el.scrollTop = 0;
    el.addEventListener('scroll', () => { if (el.scrollTop !== 0) el.scrollTop = 0; });
  })"""


def _grow_to_content(page: Any, viewport: Viewport) -> None:
    """Make the viewport as tall as the content: Streamlit scrolls inside stMain, not the page.

    Done when the viewport fits the content and the content height held still for one interval:
    a taller viewport reflows the content, and an expander the scenario just opened (the trace)
    may still be growing (a capture once cut the stock report's trace off at 5,580 of 6,336 px).
    """
    measured = -1
    for _ in range(12):
        height = min(MAX_HEIGHT_PX, max(viewport.height, int(page.evaluate(_CONTENT_HEIGHT))))
        if height == measured == page.viewport_size["height"]:
            return
        if height != page.viewport_size["height"]:
            page.set_viewport_size({"width": viewport.width, "height": height})
        measured = height
        page.wait_for_timeout(400)  # plotly's responsive relayout, expanders opening


def _shoot(page: Any, path: Path, viewport: Viewport) -> None:
    page.add_style_tag(content=_CSS)
    _grow_to_content(page, viewport)
    page.wait_for_timeout(300)
    page.evaluate(_STABILIZE)
    # A chat screen scrolls itself towards its newest answer as the viewport grows: back to the
    # top and kept there (_TO_TOP), or the same screen is shot some 80 px lower on one run.
    page.evaluate(_TO_TOP)
    page.wait_for_timeout(200)
    page.screenshot(path=str(path), full_page=True, animations="disabled", caret="hide",
                    mask=[page.locator("[data-qa-mask]")], mask_color=MASK_COLOR)  # fmt: skip


def capture(
    base_url: str,
    out_dir: Path,
    screens: list[str],
    viewports: list[Viewport],
    browser: Any | None = None,
) -> dict[str, A11yResult]:
    """One PNG per screen and viewport into `out_dir`; the accessibility result per shot.

    `browser` is a running Playwright Chromium (the browser tests pass theirs); without it one
    is launched for the run.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    if browser is not None:
        return _capture_all(browser, base_url, out_dir, screens, viewports)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        own = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            return _capture_all(own, base_url, out_dir, screens, viewports)
        finally:
            own.close()


def _capture_all(
    browser: Any, base_url: str, out_dir: Path, screens: list[str], viewports: list[Viewport]
) -> dict[str, A11yResult]:
    return {
        f"{screen}-{viewport.name}": _capture_one(browser, base_url, screen, viewport, out_dir)
        for viewport in viewports
        for screen in screens
    }


def _capture_one(
    browser: Any, base_url: str, screen: str, viewport: Viewport, out_dir: Path
) -> A11yResult:
    context = browser.new_context(
        viewport={"width": viewport.width, "height": viewport.height},
        locale="ko-KR", timezone_id="Asia/Seoul", device_scale_factor=1,
    )  # fmt: skip
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        try:
            run_scenario(page, base_url, screen)
        except Exception:  # what the screen showed when a wait ran out, beside the shots
            page.screenshot(path=str(out_dir / f"{screen}-{viewport.name}-failed.png"))
            raise
        result = check_page(page)
        _shoot(page, out_dir / f"{screen}-{viewport.name}.png", viewport)
        return result
    finally:
        context.close()


def write_a11y_report(results: dict[str, A11yResult], out_dir: Path) -> bool:
    """a11y.json and a11y.md into `out_dir`; True when every shot passed."""
    (out_dir / "a11y.json").write_text(json.dumps(results, ensure_ascii=False, indent=2))
    lines = ["# Accessibility basics", "", "| shot | charts | no-axes/pie charts | tables (rendered/all) |"
             " exceptions | failures |", "| --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for name, r in results.items():
        axisless = ", ".join(f"{c['title']} ({c['kind']})" for c in r["charts"]
                             if c["kind"] != "cartesian") or "-"  # fmt: skip
        lines.append(f"| {name} | {len(r['charts'])} | {axisless} | {sum(1 for t in r['tables'] if t['rendered'])}/{len(r['tables'])} | "
                     f"{r['exceptions']} | {'; '.join(r['failures']) or 'none'} |")  # fmt: skip
    (out_dir / "a11y.md").write_text("\n".join(lines) + "\n")
    return all(not r["failures"] for r in results.values())


def _default_home() -> Path:
    home = Path(os.environ.get("WORKBENCH_HOME", ".workbench"))
    return home if home.is_absolute() else (ROOT / home).resolve()


def _pick(value: str, known: dict[str, Any], what: str) -> list[str]:
    names = [v.strip() for v in value.split(",") if v.strip()] if value else list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"unknown {what}: {', '.join(unknown)} (known: {', '.join(known)})")
    return names


def _cmd_capture(args: argparse.Namespace) -> int:
    screens = _pick(args.screens, SCREENS, "screens")
    viewports = [VIEWPORTS[v] for v in _pick(args.viewports, VIEWPORTS, "viewports")]
    out = Path(args.out).resolve()
    if args.base_url:
        results = capture(args.base_url, out, screens, viewports)
    else:
        with seeded_offline_app(_default_home()) as url:
            results = capture(url, out, screens, viewports)
    ok = write_a11y_report(results, out)
    print(f"{len(results)} screenshots in {out}; accessibility: {'ok' if ok else 'FAILED'}")
    for name, r in results.items():
        for failure in r["failures"]:
            print(f"  {name}: {failure}")
    return 0 if ok else 1


def _cmd_compare(args: argparse.Namespace) -> int:
    report = diffing.compare_dirs(
        Path(args.baseline), Path(args.current), Path(args.out), args.threshold
    )
    for row in report["screens"]:
        print(f"{row['name']:24s} ratio {row['ratio']:.6f} {row['status']}")
    print(f"report: {Path(args.out).resolve() / 'report.md'}")
    return 0 if report["ok"] else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.qa.screenshots")
    sub = parser.add_subparsers(dest="command", required=True)
    cap = sub.add_parser("capture", help="screenshot every screen and viewport")
    cap.add_argument("--out", required=True)
    cap.add_argument("--screens", default="", help=f"comma list of {', '.join(SCREENS)}")
    cap.add_argument("--viewports", default="", help=f"comma list of {', '.join(VIEWPORTS)}")
    cap.add_argument("--base-url", default="", help="use a running app instead of starting one")
    cmp_ = sub.add_parser("compare", help="diff a screenshot set against a baseline")
    cmp_.add_argument("--baseline", required=True)
    cmp_.add_argument("--current", required=True)
    cmp_.add_argument("--out", required=True)
    cmp_.add_argument("--threshold", type=float, default=0.001)
    args = parser.parse_args(argv)
    return _cmd_capture(args) if args.command == "capture" else _cmd_compare(args)


if __name__ == "__main__":
    sys.exit(main())
