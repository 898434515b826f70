"""Bring the stores to a usable state: servers up, schema migrated, dataset catalogue registered.

The app (once per process), the seed CLI and `make services` all call `bootstrap()`.
"""

from __future__ import annotations

import logging
import sys

from data_access.config import Settings, get_settings
from data_access.errors import WorkbenchError
from data_access.services import ServiceInfo, ensure_running

logger = logging.getLogger(__name__)


def bootstrap(settings: Settings | None = None) -> ServiceInfo:
    from data_access.catalog import register_datasets
    from data_access.postgres import get_pool, migrate

    settings = settings or get_settings()
    info = ensure_running(settings)
    pool = get_pool(info.postgres_uri, settings)
    applied = migrate(pool)
    if applied:
        logger.info("applied migrations: %s", ", ".join(applied))
    register_datasets(pool=pool)
    return info


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        info = bootstrap()
    except WorkbenchError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"PostgreSQL: {info.postgres_uri}\nGraph ({info.graph_backend}): {info.graph_uri}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
