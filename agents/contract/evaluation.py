"""Retrieval evaluation on labelled questions: recall@1, recall@5, MRR and answer precision.

Shared by `bench/contract_search.py` and the tests, over two labelled sets:
- the bundled samples (tests/fixtures/contract_queries.json, split in halves by a hash of the
  question), and
- real public contracts (tests/fixtures/contracts/: sources.json, questions.json), split tune /
  held-out by contract.

    queries = load_real_queries(folder)          # ingest_real(folder) stores the contracts first
    scores = score(lambda q: ranked_article_numbers, queries)
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from psycopg_pool import ConnectionPool

from agents.contract.ingest.pipeline import ingest_bytes
from agents.contract.models import ContractInfo
from data_access.config import Settings

REAL_PREFIX = "real-"


@dataclass(frozen=True)
class LabelledQuery:
    contract_id: str
    q: str
    expected: tuple[int, ...]  # [] = the contract does not cover the question
    lang: str
    kind: str
    split: str  # "tune" or "held-out"
    group: str  # the contract's short name (real) or "samples"

    @property
    def answerable(self) -> bool:
        return bool(self.expected)


@dataclass(frozen=True)
class Scores:
    n: int
    r1: float
    r5: float
    mrr: float

    def cells(self) -> str:
        return f"{self.r1:5.3f} {self.r5:5.3f} {self.mrr:5.3f}"


@dataclass(frozen=True)
class Precision:
    """How well the listed clauses answer: precision of what is listed, answerable questions with a
    right clause listed, unanswerable ones answered with nothing."""

    precision: float
    answered: float
    abstained: float | None  # None: the set has no unanswerable question
    listed_per_answer: float

    def cells(self) -> str:
        abstained = "  —  " if self.abstained is None else f"{self.abstained:5.3f}"
        return (f"{self.precision:5.3f} {self.answered:5.3f} {abstained} "
                f"{self.listed_per_answer:4.2f}")  # fmt: skip


Ranker = Callable[[LabelledQuery], Sequence[int]]


def real_contract_id(name: str) -> str:
    return REAL_PREFIX + name


def load_real_queries(folder: Path) -> list[LabelledQuery]:
    raw = json.loads((folder / "questions.json").read_text(encoding="utf-8"))["queries"]
    return [LabelledQuery(real_contract_id(r["contract"]), r["q"], tuple(r["expected"]), r["lang"],
                          r["kind"], r["split"], r["contract"]) for r in raw]  # fmt: skip


def sample_split(question: str) -> str:
    """The bundled set's halves: a hash of the question text, as the first benchmark had it."""
    return "tune" if zlib.crc32(question.encode()) % 2 == 0 else "held-out"


def load_sample_queries(path: Path) -> list[LabelledQuery]:
    raw = json.loads(path.read_text(encoding="utf-8"))["queries"]
    return [LabelledQuery(r["contract_id"], r["q"], tuple(r["expected"]), r["lang"], r["kind"],
                          sample_split(r["q"]), "samples") for r in raw]  # fmt: skip


def real_sources(folder: Path) -> list[dict[str, str]]:
    return list(json.loads((folder / "sources.json").read_text(encoding="utf-8"))["contracts"])


def ingest_real(folder: Path, pool: ConnectionPool | None = None,
                settings: Settings | None = None) -> list[ContractInfo]:  # fmt: skip
    """Store the real contracts of `folder` (cheap when unchanged)."""
    return [
        ingest_bytes(
            s["file"],
            (folder / s["file"]).read_bytes(),
            contract_id=real_contract_id(s["contract"]),
            title=s["title"],
            pool=pool,
            settings=settings,
        )  # fmt: skip
        for s in real_sources(folder)
    ]


def first_hit(ranking: Sequence[int], expected: Sequence[int]) -> int | None:
    return next((i for i, no in enumerate(ranking, 1) if no in expected), None)


def score(ranker: Ranker, queries: Sequence[LabelledQuery]) -> Scores:
    """Recall@1, recall@5 and MRR over the answerable questions."""
    answerable = [q for q in queries if q.answerable]
    r1 = r5 = mrr = 0.0
    for q in answerable:
        first = first_hit(ranker(q), q.expected)
        r1 += first == 1
        r5 += first is not None and first <= 5
        mrr += 1 / first if first else 0.0
    n = len(answerable) or 1
    return Scores(len(answerable), r1 / n, r5 / n, mrr / n)


def precision(lister: Ranker, queries: Sequence[LabelledQuery]) -> Precision:
    """Answer precision of the clauses an answer lists (after the relevance cut)."""
    precisions: list[float] = []
    answered = abstained = listed = 0
    for q in queries:
        shown = list(lister(q))
        listed += len(shown)
        if shown:
            precisions.append(sum(no in q.expected for no in shown) / len(shown))
        if q.answerable:
            answered += any(no in q.expected for no in shown)
        else:
            abstained += not shown
    answerable = sum(q.answerable for q in queries) or 1
    unanswerable = sum(not q.answerable for q in queries)
    return Precision(sum(precisions) / (len(precisions) or 1), answered / answerable,
                     abstained / unanswerable if unanswerable else None,
                     listed / (len(queries) or 1))  # fmt: skip
