"""Import what the screens import, once, in the main thread before the server takes requests.

    preload()   # app.py, before Streamlit's server starts; returns the number of modules imported
    preload_once()  # app.py under `streamlit run app.py`: the first script run does it, the
                    # others (and the warm-up) wait for it

Why: CPython 3.11 keeps the AST converter's recursion depth per interpreter, not per thread
(gh-106905), so two threads inside `ast.parse` at once can fail with "SystemError: AST
constructor recursion depth mismatch". A process's first views import hundreds of modules in
their script threads, and pydantic builds its models with `inspect.signature`, which calls
`ast.parse` (70 calls on the first five views), while the warm-up thread (agents/warmup.py)
imports and builds the same kind of models: a page whose import failed that way never drew its
heading (the screenshot QA's 90 s waits). Imported here, those modules are in `sys.modules` before
any script thread starts, and their first views no longer import them.

The module names are read from the screens' own import statements (pages/*.py, at any depth, and
the warm-up's), so a new import on a screen is preloaded without a list to keep.

After that, a few `ast.parse` calls still run in threads on every turn (smolagents parses each
code step, LangGraph and the stock tools call `inspect.signature` or parse an expression,
Streamlit parses a page script for its "magic"): `serialize_ast_parse()` makes them take turns.
"""

from __future__ import annotations

import ast
import importlib
import logging
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)
_AST_LOCK = threading.RLock()

ROOT = Path(__file__).resolve().parent.parent
# The screens, the warm-up they start, and the services their turns call lazily.
SOURCES = (*sorted((ROOT / "pages").glob("*.py")), ROOT / "agents" / "warmup.py")


def imported_names(source: str) -> Iterator[str]:
    """The modules a file's import statements name, at any depth ('from x import y' names x,
    and x.y too when y may be a submodule)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def module_names(paths: Iterable[Path] = SOURCES) -> list[str]:
    """The distinct module names the files at `paths` import, in first-seen order."""
    names: dict[str, None] = {}
    for path in paths:
        for name in imported_names(path.read_text(encoding="utf-8")):
            names.setdefault(name, None)
    return list(names)


def preload(paths: Iterable[Path] = SOURCES) -> int:
    """Import every module the files at `paths` import; returns how many were imported. A name
    that is not a module ('from x import a_function') is skipped; a module that fails to import
    is logged and left for its screen to report."""
    count = 0
    # st.cache_data checks its arguments when it decorates, and says so when no server runs yet
    quiet = logging.getLogger("streamlit.runtime.caching.cache_data_api")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        for name in module_names(paths):
            count += _imported(name)
    finally:
        quiet.setLevel(level)
    return count


_ONCE = threading.Lock()
_done: list[int] = []


def preload_once() -> int:
    """`serialize_ast_parse()` and `preload()` once per process, whoever calls first; later
    callers wait until it is done and get the same count. Under `streamlit run app.py` the
    server starts before app.py runs, so the first script run (before it starts the warm-up)
    does what `python app.py` does before the server starts."""
    serialize_ast_parse()
    with _ONCE:
        if not _done:
            _done.append(preload())
    return _done[0]


def _imported(name: str) -> int:
    """1 when `name` is a module and was imported, else 0."""
    try:
        importlib.import_module(name)
        return 1
    except ModuleNotFoundError as e:
        if e.name != name:  # a module that exists but imports something missing
            logger.warning("preload of %s failed: %s", name, e)
    except Exception as e:  # the screen shows its own import error later
        logger.warning("preload of %s failed: %s", name, e)
    return 0


def serialize_ast_parse() -> None:
    """Make `ast.parse` take one thread at a time, process-wide (gh-106905; idempotent)."""
    if getattr(ast.parse, "serialized", False):
        return
    parse = ast.parse

    def serialized(*args: Any, **kwargs: Any) -> Any:
        with _AST_LOCK:
            return parse(*args, **kwargs)

    serialized.serialized = True  # type: ignore[attr-defined]
    serialized.__wrapped__ = parse  # type: ignore[attr-defined]  # the plain parser, for tests
    serialized.__doc__ = parse.__doc__
    ast.parse = serialized  # type: ignore[assignment]
