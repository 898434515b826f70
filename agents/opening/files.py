"""Files of a run under WORKBENCH_HOME: the per-run news cache and the saved results.

opening/cache/<run_id>/news_list.json, titles.txt, bodies/<pk>.txt   (deleted by cleanup)
opening/opening_result.json                                          (latest valid result)
opening/history/opening_result_<date>_<HHMMSS>.json                  (every valid result)
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

_SAFE = re.compile(r"[^0-9A-Za-z._-]")


def opening_home(home: Path) -> Path:
    return home / "opening"


@dataclass(frozen=True)
class RunCache:
    """The news cache of one run (the seed's data/opening/)."""

    root: Path

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

    def read_news_list(self) -> list[dict[str, Any]]:
        if not self.news_list.exists():
            return []
        data = json.loads(self.news_list.read_text(encoding="utf-8"))
        return list(data.get("articles", []))

    def write_news_list(self, meta: dict[str, Any]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.news_list.write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        titles = "\n".join(a["title"] for a in meta.get("articles", []))
        self.titles.write_text(titles, encoding="utf-8")

    def read_titles(self) -> list[str]:
        if not self.titles.exists():
            return []
        return [t for t in self.titles.read_text(encoding="utf-8").splitlines() if t.strip()]

    def write_body(self, pk: str, title: str, body: str) -> None:
        self.bodies.mkdir(parents=True, exist_ok=True)
        record = {"pk": pk, "title": title, "body": body}
        self.body_path(pk).write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")

    def read_body(self, pk: str) -> dict[str, str] | None:
        path = self.body_path(pk)
        if not path.exists():
            return None
        return dict(json.loads(path.read_text(encoding="utf-8")))

    def downloaded(self) -> list[dict[str, str]]:
        if not self.bodies.exists():
            return []
        records = (json.loads(p.read_text(encoding="utf-8")) for p in self.bodies.glob("*.txt"))
        return sorted(({"pk": r["pk"], "title": r["title"]} for r in records),
                      key=lambda r: r["pk"])  # fmt: skip

    def clean(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


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
