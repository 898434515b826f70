"""What both query guards check first, and how they refuse (`QueryRejected` with a reason)."""

from __future__ import annotations

import logging
import unicodedata

from data_access.errors import QueryRejected

logger = logging.getLogger("data_access.guards")

MAX_QUERY_CHARS = 20_000


def reject(reason: str, query: str) -> QueryRejected:
    logger.info("query rejected: %s | %.200r", reason, query)
    return QueryRejected(reason)


def check_common(query: str, max_rows: int, language: str) -> None:
    if isinstance(max_rows, bool) or not isinstance(max_rows, int) or max_rows < 1:
        raise ValueError(f"max_rows must be a positive int, got {max_rows!r}")
    if not isinstance(query, str):
        raise reject(f"{language} query must be text, got {type(query).__name__}", repr(query))
    if len(query) > MAX_QUERY_CHARS:
        raise reject(
            f"{language} query is too long ({len(query):,} characters; limit {MAX_QUERY_CHARS:,})",
            query,
        )
    if all(ch.isspace() or unicodedata.category(ch) == "Cf" for ch in query):
        raise reject(f"empty {language} query", query)
    for ch in query:
        if unicodedata.category(ch) == "Cc" and ch not in "\t\n\r\x0b\x0c\x85":
            raise reject(f"control character U+{ord(ch):04X} is not allowed", query)
