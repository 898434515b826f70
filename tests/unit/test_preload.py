"""pages/_preload.py: the screens' imports read from their own files, and ast.parse in turns."""

from __future__ import annotations

import ast
import sys
import threading
import time
from pathlib import Path
from typing import Any

from pages._preload import imported_names, module_names, preload, serialize_ast_parse


def test_the_names_come_from_the_import_statements_at_any_depth() -> None:
    source = (
        "import json\nfrom pages import _ui as ui\nfrom . import sibling\n"
        "def f():\n    from agents.stock.service import generate_report\n"
    )
    assert list(imported_names(source)) == [
        "json", "pages", "pages._ui", "agents.stock.service",
        "agents.stock.service.generate_report",
    ]  # fmt: skip


def test_the_screens_and_the_warm_up_are_preloaded(tmp_path: Path) -> None:
    names = module_names()
    assert {"pages._ui", "agents.warmup", "agents.understanding.morphemes"} <= set(names)
    screen = tmp_path / "screen.py"
    screen.write_text("import colorsys\nfrom json import dumps, decoder\nimport no_such_module_x\n")
    sys.modules.pop("colorsys", None)
    assert preload([screen]) == 3  # colorsys, json, json.decoder (dumps is no module)
    assert "colorsys" in sys.modules


def test_ast_parse_takes_one_thread_at_a_time_and_parses_the_same() -> None:
    # another test of this process (the app's first view) may have serialized it already
    original = getattr(ast.parse, "__wrapped__", ast.parse)
    ast.parse = original  # type: ignore[assignment]
    try:
        serialize_ast_parse()
        serialize_ast_parse()  # idempotent: wrapped once
        assert ast.parse is not original and getattr(ast.parse, "serialized", False)
        source = "def f(a, b=(1, [2, {'k': 3}])):\n    return [x for x in (a, b) if x]\n"
        assert ast.dump(ast.parse(source)) == ast.dump(original(source))
        results: list[str] = []
        threads = [threading.Thread(target=lambda: results.append(ast.dump(ast.parse(source))))
                   for _ in range(4)]  # fmt: skip
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results == [ast.dump(original(source))] * 4
    finally:
        ast.parse = original  # type: ignore[assignment]


def test_under_streamlit_run_the_first_caller_preloads_and_the_others_wait(
    monkeypatch: Any,
) -> None:
    import pages._preload as preloading

    calls: list[str] = []

    def slow_preload() -> int:
        calls.append(threading.current_thread().name)
        time.sleep(0.2)  # the others arrive while it runs
        return 7

    original = ast.parse
    monkeypatch.setattr(preloading, "preload", slow_preload)
    monkeypatch.setattr(preloading, "_done", [])
    try:
        counts: list[int] = []
        threads = [threading.Thread(target=lambda: counts.append(preloading.preload_once()))
                   for _ in range(3)]  # fmt: skip
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(calls) == 1 and counts == [7, 7, 7]  # once, and nobody went on before it
        assert getattr(ast.parse, "serialized", False)
    finally:
        ast.parse = original  # type: ignore[assignment]
