"""Give freed heap back to the system while a long-running API serves (glibc's malloc).

    with HeapTrimmer(every_s=30):        # api.app's lifespan (ApiConfig.trim_every_s)
        ...

A turn allocates and frees tens of MB (query rows, prompts, Kiwi's analyses); glibc keeps the
freed pages in its arenas, so RSS stays at the high-water mark of the busiest moment.
`malloc_trim(0)` returns them: 14-15 MB after one call of every screen (bench/api_memory.py),
at 2-20 ms of CPU a pass, run on a daemon thread every `every_s` seconds, never on a request.
Elsewhere than glibc (musl, macOS) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
from functools import lru_cache
from typing import Any

logger = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


def trim() -> bool:
    """Return the heap's free pages to the system; True when some were released."""
    libc = _libc()
    return bool(libc.malloc_trim(0)) if libc is not None else False


class HeapTrimmer:
    """A daemon thread that trims the heap every `every_s` seconds while the server runs."""

    def __init__(self, every_s: float) -> None:
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="api-heap-trim", daemon=True)

    def __enter__(self) -> HeapTrimmer:
        if self.every_s > 0 and _libc() is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _loop(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                trim()
            except Exception:  # never take the server down for a housekeeping pass
                logger.exception("malloc_trim failed")
