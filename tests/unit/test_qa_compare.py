"""The screenshot QA's pixel comparison: a shape's edge drawn a fraction of a pixel elsewhere is
anti-aliasing (left out, as pixelmatch and Playwright leave it out); anything else counts."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from tests.qa.compare import diff_images


def _square(path: Path, edge: int | None = None, block: bool = False) -> Path:
    image = Image.new("RGB", (60, 40), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, 19, 29), fill="black")
    if edge is not None:  # the square's right edge half covered: a grey column
        draw.line((20, 10, 20, 29), fill=(edge, edge, edge))
    if block:
        draw.rectangle((40, 10, 44, 14), fill=(255, 0, 0))
    image.save(path)
    return path


def test_an_anti_aliased_edge_is_not_a_change(tmp_path: Path) -> None:
    a, b = _square(tmp_path / "a.png"), _square(tmp_path / "b.png", edge=128)
    assert diff_images(a, b, tmp_path / "d.png") == (0.0, 0)


def test_a_new_shape_beside_it_is_counted_whole(tmp_path: Path) -> None:
    a, b = _square(tmp_path / "a.png"), _square(tmp_path / "b.png", edge=128, block=True)
    ratio, changed = diff_images(a, b, tmp_path / "d.png")
    assert changed == 25 and ratio == 25 / (60 * 40)
