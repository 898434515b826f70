"""Golden sets as data files: `agents/eval/golden/<suite>.json` → `GoldenCase` lists.

    cases = load_cases(["macro", "etf"])     # every case of those suites, validated
    case = find_case("contract-damages-cap")  # one case by id, any suite

A file holds `{"suite": ..., "description": ..., "cases": [...]}`; ids are unique across files.
`load_file(path)` reads any such file (tests use it for a deliberately wrong case).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.eval.models import SUITES, GoldenCase
from data_access.errors import ToolInputError

GOLDEN_DIR = Path(__file__).with_name("golden")


def corpus_path(name: str) -> Path:
    """A hostile-query corpus shipped next to the golden sets (hostile_cypher.json ...)."""
    path = GOLDEN_DIR / name
    if path.parent != GOLDEN_DIR or not path.is_file():
        raise ToolInputError(f"알 수 없는 코퍼스 파일: {name}")
    return path


def load_file(path: Path) -> list[GoldenCase]:
    try:
        doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ToolInputError(f"골든셋 파일을 읽을 수 없습니다: {path.name} ({e})") from e
    suite = doc.get("suite")
    return [GoldenCase.model_validate({"suite": suite, **c}) for c in doc.get("cases", [])]


def load_cases(suites: Sequence[str] | None = None,
               directory: Path = GOLDEN_DIR) -> list[GoldenCase]:  # fmt: skip
    """Cases of the given suites (default: all), in suite order then file order."""
    wanted = list(suites) if suites else list(SUITES)
    unknown = [s for s in wanted if s not in SUITES]
    if unknown:
        raise ToolInputError(f"알 수 없는 스위트: {', '.join(unknown)} (가능: {', '.join(SUITES)})")
    cases: list[GoldenCase] = []
    for suite in SUITES:
        if suite not in wanted:
            continue
        # `<suite>.json` plus any `<suite>.<set>.json` (e.g. the analyst question sets)
        for path in sorted(directory.glob(f"{suite}.json")) + sorted(
            directory.glob(f"{suite}.*.json")
        ):
            cases += load_file(path)
    _check_unique(cases)
    return cases


def find_case(case_id: str, directory: Path = GOLDEN_DIR) -> GoldenCase:
    for case in load_cases(None, directory):
        if case.id == case_id:
            return case
    raise ToolInputError(f"골든 케이스를 찾을 수 없습니다: {case_id}")


def _check_unique(cases: list[GoldenCase]) -> None:
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise ToolInputError(f"골든 케이스 id가 중복됩니다: {case.id}")
        seen.add(case.id)
