"""Files of a run under WORKBENCH_HOME: the per-run news cache and the saved results.

opening/cache/<run_id>/news_list.json, titles.txt, bodies/<pk>.txt   (deleted by cleanup)
opening/opening_result.json                                          (latest valid result)
opening/history/opening_result_<date>_<HHMMSS>.json                  (every valid result)

The cache is a convenience, not a dependency: every write is also kept in memory, a write that
fails (disk full, read-only or missing folder) logs a warning, is listed in `RunCache.warnings`
and the run goes on reading what it holds in memory (seed 003: the cache must not abort a run).
"""

from __future__ import annotations

import json
import logging
import re
import shutil
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

_SAFE = re.compile(r"[^0-9A-Za-z._-]")


def opening_home(home: Path) -> Path:
    return home / "opening"


@dataclass(frozen=True)
class RunCache:
    """The news cache of one run (the seed's data/opening/), backed by memory."""

    root: Path
    # What was written, kept so a failed file write loses nothing; and the failures, in order.
    _memory: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    warnings: list[str] = field(default_factory=list, compare=False, repr=False)

    @property
    def news_list(self) -> Path:
        return self.root / "news_list.json"

    @property
    def titles(self) -> Path:
        return self.root / "titles.txt"

    @property
    def bodies(self) -> Path:
        return self.root / "bodies"

    def body_path(self, pk: str) -> Path:
        return self.bodies / f"{_SAFE.sub('_', pk)}.txt"

    def _write(self, path: Path, text: str, what: str) -> None:
        """Write a cache file; a failure is a warning, never the end of the run."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as e:
            message = f"실행 캐시 쓰기 실패({what}): {path} — {e.strerror or e}; 메모리 사본으로 계속합니다"
            self.warnings.append(message)
            logger.warning("%s", message)

    def _read(self, path: Path) -> str | None:
        try:
            return path.read_text(encoding="utf-8")
        except OSError:
            return None

    def _read_json(self, path: Path) -> dict[str, Any] | None:
        """A cache file's JSON, or None when it is missing, unreadable or cut short."""
        text = self._read(path)
        try:
            return dict(json.loads(text)) if text is not None else None
        except ValueError:  # a write that failed half-way (disk full)
            return None

    def read_news_list(self) -> list[dict[str, Any]]:
        data = self._read_json(self.news_list) or self._memory.get("news_list", {})
        return list(data.get("articles", []))

    def write_news_list(self, meta: dict[str, Any]) -> None:
        titles = "\n".join(a["title"] for a in meta.get("articles", []))
        self._memory["news_list"], self._memory["titles"] = meta, titles
        self._write(self.news_list, json.dumps(meta, ensure_ascii=False), "news_list.json")
        self._write(self.titles, titles, "titles.txt")

    def read_titles(self) -> list[str]:
        text = self._read(self.titles)
        text = text if text is not None else self._memory.get("titles", "")
        return [t for t in text.splitlines() if t.strip()]

    def write_body(self, pk: str, title: str, body: str) -> None:
        record = {"pk": pk, "title": title, "body": body}
        self._memory.setdefault("bodies", {})[pk] = record
        self._write(self.body_path(pk), json.dumps(record, ensure_ascii=False), f"본문 {pk}")

    def read_body(self, pk: str) -> dict[str, str] | None:
        record = self._read_json(self.body_path(pk)) or self._memory.get("bodies", {}).get(pk)
        return dict(record) if record else None

    def downloaded(self) -> list[dict[str, str]]:
        records = {r["pk"]: r for r in self._memory.get("bodies", {}).values()}
        if self.bodies.is_dir():
            for path in self.bodies.glob("*.txt"):
                record = self._read_json(path)
                if record is not None:
                    records[record["pk"]] = record
        return sorted(({"pk": r["pk"], "title": r["title"]} for r in records.values()),
                      key=lambda r: r["pk"])  # fmt: skip

    def clean(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
        self._memory.clear()


def new_run_cache(home: Path, run_key: str) -> RunCache:
    return RunCache(opening_home(home) / "cache" / _SAFE.sub("_", run_key))


def save_result_files(home: Path, result: dict[str, Any], day: str) -> tuple[Path, Path]:
    """Write opening_result.json and its dated history copy; returns both paths."""
    folder = opening_home(home)
    history = folder / "history"
    history.mkdir(parents=True, exist_ok=True)
    text = json.dumps(result, ensure_ascii=False, indent=2)
    latest = folder / "opening_result.json"
    latest.write_text(text, encoding="utf-8")
    dated = history / f"opening_result_{day}_{datetime.now():%H%M%S%f}.json"
    dated.write_text(text, encoding="utf-8")
    return latest, dated
