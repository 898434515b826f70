"""Screenshot QA end to end: capture the screens in real Chromium twice (the contract scenario
uploads the sample and asks, so the second run reopens state the first one stored), compare the
two runs (deterministic: nothing changed) and a deliberately altered copy (a change is found and
drawn). The screens include the analyst's cases of issue 33: a ranking and a top-N answer
charted from their rows, a rate's change in %p and bp, a Stock-screen question charted over the
window it asked, and a first visit by deep link (/etf)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from tests.qa.compare import compare_dirs
from tests.qa.screenshots import VIEWPORTS, capture, write_a11y_report

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("demo_data")]

SCREENS = ["data", "contract", "etf_answer_charts", "macro_rate", "stock_question", "deep_link"]


def test_capture_compare_and_accessibility(browser: Any, app_url: str, tmp_path: Path) -> None:
    shots = tmp_path / "current"
    results = capture(app_url, shots, SCREENS, [VIEWPORTS["desktop"]], browser=browser)

    names = sorted(p.name for p in shots.glob("*.png"))
    assert names == sorted(f"{screen}-desktop.png" for screen in SCREENS)
    for name in names:
        with Image.open(shots / name) as image:
            assert image.width == 1440 and image.height >= 900
    assert write_a11y_report(results, shots), json.dumps(results, ensure_ascii=False)
    assert all(r["exceptions"] == 0 for r in results.values())
    assert results["data-desktop"]["charts"], "the Data screen draws its row-count chart"
    assert any(t["rendered"] and t["headers"] > 0 for t in results["contract-desktop"]["tables"])

    again = tmp_path / "again"
    capture(app_url, again, SCREENS, [VIEWPORTS["desktop"]], browser=browser)
    same = compare_dirs(shots, again, tmp_path / "same", threshold=0.0)
    assert same["ok"], json.dumps(same, ensure_ascii=False)
    assert [r["ratio"] for r in same["screens"]] == [0.0] * len(SCREENS)

    altered = tmp_path / "altered"
    shutil.copytree(shots, altered)
    with Image.open(altered / "data-desktop.png") as image:
        edited = image.convert("RGB")
    ImageDraw.Draw(edited).rectangle((400, 200, 799, 299), fill=(255, 0, 0))  # 400×100 px
    edited.save(altered / "data-desktop.png")
    changed = compare_dirs(shots, altered, tmp_path / "changed", threshold=0.001)
    rows = {r["name"]: r for r in changed["screens"]}
    assert not changed["ok"]
    assert rows["contract-desktop"]["ratio"] == 0.0
    assert rows["data-desktop"]["status"] == "changed"
    assert 0 < rows["data-desktop"]["changed_pixels"] <= 400 * 100
    assert rows["data-desktop"]["ratio"] > 0
    assert (tmp_path / "changed" / "data-desktop-diff.png").exists()
    assert "data-desktop" in (tmp_path / "changed" / "report.md").read_text()
