"""Store health against the real embedded servers, and against ports where nothing listens."""

from __future__ import annotations

import socket

from data_access.health import redact_uri, store_health
from data_access.services import ServiceInfo


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_both_stores_report_up_with_versions(services, settings) -> None:  # type: ignore[no-untyped-def]
    health = store_health(settings, services)
    assert health.ok, health
    assert health.postgres.version and health.postgres.version[0].isdigit()
    assert health.postgres.embedded is (not settings.database_url)
    assert health.graph.backend == settings.graph_backend
    assert health.graph.version and health.graph.graph_name == services.graph_name
    assert health.postgres.latency_ms < 1000 and health.graph.latency_ms < 1000


def test_without_info_the_recorded_state_is_used(services, settings) -> None:  # type: ignore[no-untyped-def]
    assert store_health(settings).ok


def test_stores_that_are_down_report_errors(settings) -> None:  # type: ignore[no-untyped-def]
    if settings.database_url or settings.neo4j_uri:
        return  # external stores: their URIs come from settings, not from `info`
    port = _closed_port()
    info = ServiceInfo(
        postgres_uri=f"postgresql://atlas:secret@127.0.0.1:{port}/atlas",
        postgres_embedded=True, graph_backend="falkordb",
        graph_uri=f"redis://127.0.0.1:{port}", graph_name="atlas", graph_embedded=True,
    )  # fmt: skip
    health = store_health(settings, info)
    assert not health.ok and not health.postgres.ok and not health.graph.ok
    assert health.postgres.error and health.graph.error
    assert "secret" not in health.postgres.uri


def test_redact_uri_drops_passwords_only() -> None:
    assert redact_uri("postgresql://u:pw@h:5432/db?sslmode=require&password=x") == (
        "postgresql://u@h:5432/db?sslmode=require"
    )
    assert redact_uri("postgresql://postgres:@/atlas?host=/tmp/pg") == (
        "postgresql://postgres@/atlas?host=/tmp/pg"
    )
    assert redact_uri("bolt://127.0.0.1:7687") == "bolt://127.0.0.1:7687"
