"""The Macro screen's reading of a question: the shared frame over macro kinds (series, market
indices, sector words, stocks), with follow-ups resolved against the previous turn —
"그럼 미국은?" after a Korean base-rate question asks for the US base rate."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from psycopg_pool import ConnectionPool

from agents.understanding import Entity, QuestionFrame, understand
from agents.understanding.history import HistoryMessage, previous_context
from agents.understanding.lexicon import MACRO_KINDS, cached_lexicon
from agents.understanding.vocabulary import vocabulary
from data_access.errors import WorkbenchError

logger = logging.getLogger(__name__)


def read_question(question: str, history: Sequence[HistoryMessage],
                  pool: ConnectionPool | None) -> QuestionFrame | None:  # fmt: skip
    """The frame of one Macro question, or None when the lexicon cannot be loaded (store down:
    the rules route alone)."""
    try:
        lexicon = cached_lexicon(pool)
    except WorkbenchError as e:
        logger.warning("lexicon unavailable, routing by rules only: %s", e)
        return None
    previous, _ = previous_context(history)
    frame = understand(question, lexicon, kinds=MACRO_KINDS, previous=previous)
    if frame.reference == "replace" and previous is not None:
        _swap_region(frame, previous)
    return frame


def _swap_region(frame: QuestionFrame, previous: QuestionFrame) -> None:
    """A follow-up naming only a region keeps the previous topic for that region."""
    regions = [e.key for e in frame.of("region") if not e.inherited]
    if not regions or frame.of("series"):
        return
    topics = vocabulary()["region_topics"].values()
    names = {s["code"]: s["name"] for s in vocabulary()["series"]}
    for old in previous.of("series"):
        topic = next((t for t in topics if old.key in (t.get("KR"), t.get("US"))), None)
        for region in regions:
            code = topic.get(region) if topic else None
            if code and not any(e.key == code for e in frame.entities):
                frame.entities.append(Entity(kind="series", key=code, name=names[code],
                                             inherited=True))  # fmt: skip
