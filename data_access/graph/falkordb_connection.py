"""How the workbench connects to FalkorDB: one attempt per call, a bounded connect time.

    client = probe_client("127.0.0.1", port, timeout_s=2.0)   # a status probe
    client.module_list()   # answers, or raises redis.ConnectionError at once when the server is down

A plain `redis.Redis(...)` retries a failed command ten times, waiting 10 ms doubling up to 1 s
with jitter in between: against a dead server each call took 3-5 s (measured: 3.1-4.7 s). The
sidebar's store status, `services status` and the API's health probe made that call on every
check during an outage, and the tests that stop FalkorDB waited it out on every probe. A call
against a dead server should say so at once; the next call (the next page view, the next
health check) is the retry. The store's own client (`FalkorDBStore`) uses the same settings.
"""

from __future__ import annotations

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

CONNECT_TIMEOUT_S = 3.0  # a live server on loopback accepts in microseconds, even under load


def no_retry() -> Retry:
    """A failed call raises at once (a fresh object per client: redis-py's Retry is mutable)."""
    return Retry(NoBackoff(), 0)


def probe_client(host: str, port: int, timeout_s: float) -> redis.Redis:
    """A client for a quick question (is it up, which modules): asked once, within `timeout_s`."""
    return redis.Redis(
        host=host,
        port=port,
        socket_timeout=timeout_s,
        socket_connect_timeout=timeout_s,
        retry=no_retry(),
        decode_responses=True,
    )
