"""What kind of contract an upload is (contract_types.json): data provision / data creation and
the rest of seed 002's data family, and general commercial kinds (terms of service, service /
outsourcing, NDA, lease, employment, sale, travel). Keyword evidence from the title (weight 3) and
the article titles and first lines (weight 1); below `min_score` the type is 'other'.

    >>> detect("주택임대차표준계약서", ["보증금과 차임 및 관리비", "임대차기간"]).id
    'lease'

Only types with a bundled standard contract are compared with one (`standard_type`); for the
others the screen says that no matching standard is bundled.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

TYPES_FILE = Path(__file__).with_name("contract_types.json")
EXAMPLES_FILE = Path(__file__).with_name("examples.json")
OTHER = "other"
OTHER_LABEL = "기타"
TITLE_WEIGHT = 3


@dataclass(frozen=True)
class ContractType:
    id: str
    label: str
    standard: str | None
    title: tuple[str, ...] = ()
    clauses: tuple[str, ...] = ()


@dataclass
class Detection:
    """The detected type, its score and the words that gave it away (shown beside the picker)."""

    id: str
    label: str
    score: int
    evidence: list[str] = field(default_factory=list)


@lru_cache(maxsize=1)
def _config() -> tuple[int, tuple[ContractType, ...]]:
    raw = json.loads(TYPES_FILE.read_text(encoding="utf-8"))
    types = tuple(ContractType(t["id"], t["label"], t["standard"], tuple(t["title"]),
                               tuple(t["clauses"])) for t in raw["types"])  # fmt: skip
    return int(raw["min_score"]), types


def contract_types() -> tuple[ContractType, ...]:
    return _config()[1]


def type_labels() -> dict[str, str]:
    """Every type id → its Korean label, 'other' last (the picker's options)."""
    return {**{t.id: t.label for t in contract_types()}, OTHER: OTHER_LABEL}


def label_of(type_id: str | None) -> str:
    return type_labels().get(type_id or OTHER, OTHER_LABEL)


def standard_type(type_id: str | None) -> str | None:
    """The bundled standard contract's type for `type_id`, None when no standard is bundled."""
    return next((t.standard for t in contract_types() if t.id == type_id), None)


def detect(title: str, clause_lines: Sequence[str]) -> Detection:
    """The contract's type from its title and its article titles / first lines."""
    min_score, types = _config()
    lowered_title = title.lower()
    body = "\n".join(clause_lines).lower()
    best = Detection(OTHER, OTHER_LABEL, 0)
    for kind in types:
        words = [w for w in kind.title if w.lower() in lowered_title]
        hits = [w for w in kind.clauses if w.lower() in body]
        score = TITLE_WEIGHT * len(words) + len(hits)
        if score > best.score:
            best = Detection(kind.id, kind.label, score, list(dict.fromkeys(words + hits)))
    return best if best.score >= min_score else Detection(OTHER, OTHER_LABEL, best.score,
                                                          best.evidence)  # fmt: skip


@lru_cache(maxsize=1)
def _examples() -> dict[str, tuple[str, ...]]:
    raw = json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))
    return {k: tuple(v) for k, v in raw.items() if not k.startswith("_")}


def example_questions(type_id: str | None) -> tuple[str, ...]:
    """Example questions that fit a contract of this type (examples.json; 'default' otherwise)."""
    examples = _examples()
    return examples.get(type_id or OTHER) or examples["default"]
