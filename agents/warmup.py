"""Load once, in the background, what the first question of a session would otherwise wait
for: Kiwi's model, the name lexicon, the vocabulary and glossary, the data-freshness dates and the query
guards' parsers (pglast, the ANTLR Cypher grammar: ≈0.2 s to import), and last every ETF's price
summaries over the windows whole-set questions read most (agents.etf.data.WARM_SET_WINDOWS).
Called by the app and the HTTP API when their PostgreSQL pool is first handed out.

    warm_up(pool)   # returns at once; a daemon thread does the work, errors are only logged
"""

from __future__ import annotations

import logging
import threading

from psycopg_pool import ConnectionPool

logger = logging.getLogger(__name__)
_started: set[int] = set()
_lock = threading.Lock()


def warm_up(pool: ConnectionPool) -> None:
    with _lock:
        if id(pool) in _started:
            return
        _started.add(id(pool))
    threading.Thread(target=_load, args=(pool,), name="atlas-warmup", daemon=True).start()


def _load(pool: ConnectionPool) -> None:
    from agents.etf.data import warm_set_summaries
    from agents.understanding.glossary import load_glossary
    from agents.understanding.lexicon import cached_lexicon
    from agents.understanding.morphemes import kiwi
    from agents.understanding.vocabulary import vocabulary_words
    from data_access.catalog import DOMAINS, recent_domain_freshness
    from data_access.errors import WorkbenchError
    from data_access.graph import get_graph_store

    try:
        import data_access.guards  # noqa: F401  # the SQL/Cypher parsers of every agent query

        kiwi()  # the morpheme analyser every question reads with (3–7 s to load here)
        cached_lexicon(pool)
        vocabulary_words()
        load_glossary()
        for domains in (DOMAINS, ("etf", "equity"), ("equity", "news")):  # Macro, ETF, Stock
            recent_domain_freshness(domains, pool)
        warm_set_summaries(pool, get_graph_store())  # last: every ETF over the common windows
    except (WorkbenchError, OSError, ValueError) as e:  # a store down: the first question waits
        logger.info("warm-up skipped: %s", e)
