"""Pixel comparison of two screenshot sets (Pillow): changed-pixel ratio and a diff image."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypedDict

import numpy as np
from PIL import Image, ImageChops

# Per-channel difference below this is anti-aliasing noise, not a change.
CHANNEL_TOLERANCE = 8
HIGHLIGHT = (255, 0, 80)
# Past this many changed pixels a screen has plainly changed: no pixel is checked for
# anti-aliasing (the check is a Python loop over the changed pixels).
AA_CHECK_MAX = 50_000


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
    mask = _without_anti_aliasing(mask, canvas_a, canvas_b)
    changed = mask.histogram()[255]
    faded = Image.blend(canvas_b, Image.new("RGB", size, (255, 255, 255)), 0.7)
    faded.paste(Image.new("RGB", size, HIGHLIGHT), mask=mask)
    diff_path.parent.mkdir(parents=True, exist_ok=True)
    faded.save(diff_path)
    return changed / (size[0] * size[1]), changed


def _without_anti_aliasing(mask: Image.Image, a: Image.Image, b: Image.Image) -> Image.Image:
    """`mask` less the pixels that are anti-aliasing in either image, as pixelmatch (and so
    Playwright's screenshot assertions) leaves them out: the edge of a shape drawn a fraction of
    a pixel elsewhere (the contract screen's rounded button corners differed by 9-10 levels on
    2 pixels between two captures of the same page, 1 run in 5)."""
    points = np.argwhere(np.asarray(mask) > 0)
    if len(points) == 0 or len(points) > AA_CHECK_MAX:
        return mask
    rgb_a, rgb_b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    packed_a = (rgb_a[..., 0] << 16) | (rgb_a[..., 1] << 8) | rgb_a[..., 2]
    packed_b = (rgb_b[..., 0] << 16) | (rgb_b[..., 1] << 8) | rgb_b[..., 2]
    luma_a, luma_b = _luma(rgb_a), _luma(rgb_b)
    kept = np.asarray(mask).copy()
    for y, x in points:
        if _antialiased(luma_a, packed_a, packed_b, x, y) or _antialiased(
            luma_b, packed_b, packed_a, x, y
        ):
            kept[y, x] = 0
    return Image.fromarray(kept)


def _luma(rgb: np.ndarray) -> np.ndarray:
    return rgb[..., 0] * 0.29889531 + rgb[..., 1] * 0.58662247 + rgb[..., 2] * 0.11448223


def _around(shape: tuple[int, ...], x: int, y: int) -> tuple[list[tuple[int, int]], int]:
    """The 8 neighbours of (x, y) inside the image, and 1 if (x, y) is on its edge, else 0."""
    height, width = shape[0], shape[1]
    x0, x1, y0, y1 = max(x - 1, 0), min(x + 1, width - 1), max(y - 1, 0), min(y + 1, height - 1)
    edge = int(x in (x0, x1) or y in (y0, y1))
    cells = [(i, j) for i in range(x0, x1 + 1) for j in range(y0, y1 + 1) if (i, j) != (x, y)]
    return cells, edge


def _antialiased(luma: np.ndarray, own: np.ndarray, other: np.ndarray, x: int, y: int) -> bool:
    """pixelmatch's test: (x, y) lies between a darker and a brighter neighbour, and one of them
    is inside a flat area (3 equal siblings) in both images."""
    cells, zeroes = _around(luma.shape, x, y)
    low = high = 0.0
    darkest = brightest = None
    for i, j in cells:
        delta = luma[y, x] - luma[j, i]
        if delta == 0:
            zeroes += 1
            if zeroes > 2:
                return False
        elif delta < low:
            low, darkest = delta, (i, j)
        elif delta > high:
            high, brightest = delta, (i, j)
    if darkest is None or brightest is None:
        return False
    return any(_many_siblings(own, *p) and _many_siblings(other, *p) for p in (darkest, brightest))


def _many_siblings(packed: np.ndarray, x: int, y: int) -> bool:
    cells, same = _around(packed.shape, x, y)
    for i, j in cells:
        if packed[j, i] == packed[y, x]:
            same += 1
            if same > 2:
                return True
    return False


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
