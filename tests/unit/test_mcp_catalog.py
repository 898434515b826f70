"""The MCP server lists its tools from api/mcp/catalog.json (so `initialize` and `tools/list`
answer before the agents load); the file must say exactly what the tool classes say, and the
server's start-up must not import the agents or the stores."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from api.mcp.catalog import CATALOG, live_catalog

ROOT = Path(__file__).resolve().parents[2]


def test_catalog_json_matches_the_tool_classes() -> None:
    stored = json.loads(CATALOG.read_text(encoding="utf-8"))
    live = live_catalog()
    assert [t["name"] for t in stored] == [t["name"] for t in live]
    for saved, current in zip(stored, live, strict=True):
        assert saved == current, f"{saved['name']}: run python -m api.mcp.catalog --write"


def test_every_listed_schema_is_strict() -> None:
    for tool in json.loads(CATALOG.read_text(encoding="utf-8")):
        schema = tool["input_schema"]
        assert schema["additionalProperties"] is False, tool["name"]
        for name, spec in schema["properties"].items():
            if spec.get("type") == "string":
                assert spec.get("maxLength"), (tool["name"], name)


def test_the_stdio_server_starts_without_the_agents_or_the_stores() -> None:
    code = ("import sys, api.mcp.server, mcp.server.stdio; "
            "heavy = [m for m in sys.modules if m.split('.')[0] in "
            "('agents', 'data_access', 'fastapi', 'psycopg', 'psycopg_pool', 'smolagents', "
            "'langgraph', 'litellm', 'kiwipiepy')]; print(','.join(heavy))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)  # fmt: skip
    assert out.stdout.strip() == "", out.stdout


def test_fixed_word_sets_are_the_tools_own() -> None:
    """The sets the MCP schema lists (api.mcp.registry.FIXED_WORDS) are the ones the tools read."""
    from agents.etf.data import (
        PRICE_PERIODS,
        SESSION_FIELDS,
        SESSION_STATISTICS,
        STOCK_FIELDS,
        SUMMARY_PARTS,
        WINDOW_UNITS,
    )
    from api.mcp.registry import FIXED_WORDS

    assert set(FIXED_WORDS["get_etf_prices", "summary"]) == set(SUMMARY_PARTS)
    assert set(FIXED_WORDS["get_etf_prices", "statistic"]) == set(SESSION_STATISTICS)
    assert set(FIXED_WORDS["get_etf_prices", "field"]) == set(SESSION_FIELDS)
    assert set(FIXED_WORDS["get_etf_prices", "unit"]) == set(WINDOW_UNITS)
    assert set(FIXED_WORDS["get_stock_prices", "field"]) == set(STOCK_FIELDS)
    for periods in (FIXED_WORDS["find_similar_etfs", "period"],
                    FIXED_WORDS["get_etf_prices", "against"]):  # fmt: skip
        assert set(periods) == set(PRICE_PERIODS)
    listed = {t["name"]: t["input_schema"]["properties"] for t in json.loads(CATALOG.read_text())}
    for (tool, argument), words in FIXED_WORDS.items():
        assert listed[tool][argument]["enum"] == list(words), (tool, argument)
