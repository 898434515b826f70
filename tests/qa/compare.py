"""Pixel comparison of two screenshot sets (Pillow): changed-pixel ratio and a diff image."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypedDict

from PIL import Image, ImageChops

# Per-channel difference below this is anti-aliasing noise, not a change.
CHANNEL_TOLERANCE = 8
HIGHLIGHT = (255, 0, 80)


class ScreenDiff(TypedDict):
    name: str
    ratio: float
    changed_pixels: int
    baseline_size: list[int]
    current_size: list[int]
    diff_image: str | None
    status: str  # same | changed | missing-baseline | missing-current


class CompareReport(TypedDict):
    threshold: float
    ok: bool
    screens: list[ScreenDiff]


def diff_images(baseline: Path, current: Path, diff_path: Path) -> tuple[float, int]:
    """Changed-pixel ratio over the larger canvas (a size change counts as changed area)."""
    a = Image.open(baseline).convert("RGB")
    b = Image.open(current).convert("RGB")
    size = (max(a.width, b.width), max(a.height, b.height))
    canvas_a, canvas_b = Image.new("RGB", size), Image.new("RGB", size)
    canvas_a.paste(a)
    canvas_b.paste(b)
    delta = ImageChops.difference(canvas_a, canvas_b).convert("L")
    mask = delta.point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
    changed = mask.histogram()[255]
    faded = Image.blend(canvas_b, Image.new("RGB", size, (255, 255, 255)), 0.7)
    faded.paste(Image.new("RGB", size, HIGHLIGHT), mask=mask)
    diff_path.parent.mkdir(parents=True, exist_ok=True)
    faded.save(diff_path)
    return changed / (size[0] * size[1]), changed


def compare_dirs(baseline: Path, current: Path, out: Path, threshold: float) -> CompareReport:
    """Compare every PNG name in either set; write diffs, report.json and report.md into `out`."""
    names = sorted(
        {p.stem for p in baseline.glob("*.png")} | {p.stem for p in current.glob("*.png")}
    )
    rows = [_compare_one(name, baseline, current, out, threshold) for name in names]
    report = CompareReport(threshold=threshold, screens=rows,
                           ok=bool(rows) and all(r["status"] == "same" for r in rows))  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps(report, indent=2))
    (out / "report.md").write_text(_markdown(report, baseline, current))
    return report


def _compare_one(
    name: str, baseline: Path, current: Path, out: Path, threshold: float
) -> ScreenDiff:
    a, b = baseline / f"{name}.png", current / f"{name}.png"
    if not a.exists() or not b.exists():
        return ScreenDiff(name=name, ratio=1.0, changed_pixels=0, diff_image=None,
                          baseline_size=_size(a), current_size=_size(b),
                          status="missing-baseline" if not a.exists() else "missing-current")  # fmt: skip
    diff_path = out / f"{name}-diff.png"
    ratio, changed = diff_images(a, b, diff_path)
    return ScreenDiff(name=name, ratio=ratio, changed_pixels=changed, diff_image=str(diff_path),
                      baseline_size=_size(a), current_size=_size(b),
                      status="changed" if ratio > threshold else "same")  # fmt: skip


def _size(path: Path) -> list[int]:
    if not path.exists():
        return []
    with Image.open(path) as image:
        return [image.width, image.height]


def _markdown(report: CompareReport, baseline: Path, current: Path) -> str:
    lines = [
        "# Screenshot comparison", "",
        f"baseline `{baseline}` · current `{current}` · threshold {report['threshold']}", "",
        "| screen | changed-pixel ratio | changed pixels | baseline size | current size | status |",
        "| --- | --- | --- | --- | --- | --- |",
    ]  # fmt: skip
    for r in report["screens"]:
        sizes = ["×".join(map(str, s)) or "-" for s in (r["baseline_size"], r["current_size"])]
        lines.append(f"| {r['name']} | {r['ratio']:.6f} | {r['changed_pixels']:,} | {sizes[0]} | "
                     f"{sizes[1]} | {r['status']} |")  # fmt: skip
    lines += ["", f"**{'OK' if report['ok'] else 'DIFFERENCES'}**"]
    return "\n".join(lines) + "\n"
