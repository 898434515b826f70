"""`python -m api [--host H] [--port P]`: the HTTP API on the embedded (or configured) stores.

Exit status 2 when the bind is refused (beyond loopback without API_TOKEN), before anything
else loads or starts.
"""

from __future__ import annotations

import argparse
import logging
import sys

from api.config import ApiConfig, ApiConfigError, check_bind


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m api", description="Atlas Workbench HTTP API")
    parser.add_argument("--host", help="bind address (default API_HOST or 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default API_PORT or 8600)")
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--no-scheduler", action="store_true",
                        help="do not run the weekly KPI report (API_WEEKLY_REPORT_AT=off does too)")  # fmt: skip
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    overrides = {k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None}
    try:
        config = ApiConfig(**overrides, scheduler=not args.no_scheduler)
        check_bind(config)
    except (ApiConfigError, ValueError) as e:  # pydantic's ValidationError is a ValueError
        print(f"error: {e}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    import uvicorn

    from api.app import create_app
    from api.stores import Stores
    from data_access.config import get_settings

    stores = Stores.open(get_settings())
    if stores.error:
        print(f"warning: stores not ready ({stores.error}); requests answer 503 until they are",
              file=sys.stderr)  # fmt: skip
    print(f"Atlas Workbench API: http://{config.host}:{config.port}/docs", file=sys.stderr)
    uvicorn.run(create_app(config, stores), host=config.host, port=config.port,
                log_level=args.log_level)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
