"""The tool catalog the MCP server lists: each tool's name, description and (strict) input
schema, as `catalog.json` beside this file, so `tools/list` needs neither the agents nor the
stores (an MCP client waits for it at start-up).

    python -m api.mcp.catalog --write     # after changing a tool class: rewrite catalog.json
    python -m api.mcp.catalog --check     # exit 1 when catalog.json and the tool classes differ

The file is written from the live tools (`api.mcp.registry.build_tools`), never by hand;
tests/unit/test_mcp_catalog.py fails when the two differ.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

CATALOG = Path(__file__).with_name("catalog.json")


@lru_cache(maxsize=1)
def load_catalog() -> list[dict[str, Any]]:
    """[{name, description, input_schema, group}, …] in the order the tools are built."""
    entries: list[dict[str, Any]] = json.loads(CATALOG.read_text(encoding="utf-8"))
    return entries


def live_catalog() -> list[dict[str, Any]]:
    """The same entries from the tool classes themselves (imports the agents; no store needed)."""
    from api.mcp.registry import OpeningCaches, build_tools
    from api.stores import Stores
    from data_access.config import get_settings

    stores = Stores(get_settings())  # not opened: building the tools reads no store
    tools = build_tools(stores, OpeningCaches(stores))
    return [{"name": t.name, "description": t.description, "input_schema": t.input_schema,
             "group": t.group} for t in tools.values()]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m api.mcp.catalog")
    parser.add_argument("--write", action="store_true", help="rewrite catalog.json")
    parser.add_argument("--check", action="store_true", help="exit 1 when it is out of date")
    args = parser.parse_args(argv)
    live = live_catalog()
    if args.write:
        CATALOG.write_text(json.dumps(live, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {len(live)} tools to {CATALOG}")
        return 0
    same = json.loads(CATALOG.read_text(encoding="utf-8")) == live
    print("catalog.json is up to date" if same else "catalog.json differs: run --write")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
