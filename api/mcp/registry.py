"""Every tool the MCP server offers, built from the agents' own tool classes.

    tools = build_tools(stores)                  # ordered: ETF (10), opening (5+), contract (4 +
    result = tools["etf_search"].call({"query": "KODEX"})   # list_contracts), stock (3), queries (2)

Names, descriptions and input schemas come from the tool classes the agents run (smolagents
`inputs`, LangChain argument schemas, the contract tools' JSON schemas), so they cannot drift.
The MCP side adds only what a call needs outside an agent run: `contract_id` for the contract
tools and an optional `day` for the opening tools (whose news window is per trading day). Calls
go through each tool's own validation and error form; the two query tools go through the same
guards and read-only execution as the Data screen's console. Results are JSON-ready values;
tool errors come back as `{"status": "error", "error", "retry_hint"}`.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from agents.evidence import EvidenceCollector
from agents.inputs import check_text
from api.errors import korean, store_down_text
from api.mcp.arguments import MAX_ARG_CHARS, check_arguments, cleaned, strict_schema
from api.stores import Stores
from data_access.errors import QueryFailed, QueryRejected, StoreUnavailable, ToolInputError
from data_access.figures import WINDOW_STATISTICS, WINDOW_UNITS
from data_access.guard_reasons import korean_reason
from data_access.guards import MAX_QUERY_CHARS

MAX_ROWS = 500
JSON_TYPES = {"string", "integer", "number", "boolean", "array", "object"}


@dataclass(frozen=True)
class McpTool:
    name: str
    description: str
    input_schema: dict[str, Any]
    call: Callable[[dict[str, Any]], Any]
    group: str  # etf | opening | contract | stock | query


def tool_error(error: str, retry_hint: str) -> dict[str, Any]:
    return {"status": "error", "error": error, "retry_hint": retry_hint}


def is_error(result: Any) -> bool:
    return isinstance(result, dict) and result.get("status") == "error"


def _parsed(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def schema_of_inputs(inputs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A smolagents-style `inputs` dict as a JSON schema (nullable inputs are optional)."""
    props = {name: {k: v for k, v in (("type", spec.get("type")), ("description", spec.get("description")))
                    if v is not None and (k != "type" or v in JSON_TYPES)}
             for name, spec in inputs.items()}  # fmt: skip
    required = [n for n, spec in inputs.items() if not spec.get("nullable")]
    return {"type": "object", "properties": props, "required": required}


def _with_property(schema: dict[str, Any], name: str, spec: dict[str, Any], *,
                   required: bool) -> dict[str, Any]:  # fmt: skip
    out = {**schema, "properties": {name: spec, **schema.get("properties", {})}}
    if required:
        out["required"] = [name, *schema.get("required", [])]
    return out


def _short(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return text[:160] + ("…" if len(text) > 160 else "")


def _guarded(
    schema: dict[str, Any], body: Callable[[dict[str, Any]], Any]
) -> Callable[[dict[str, Any]], Any]:
    """Arguments checked against the (strict) schema first; expected failures as the tool-error
    form, in Korean, with the value sent never repeated whole."""

    def call(arguments: dict[str, Any]) -> Any:
        problem = check_arguments(arguments, schema)
        if problem is not None:
            return problem
        try:
            return body(cleaned(arguments))
        except QueryRejected as e:
            said = korean_reason(e.reason) or _short(e)  # the guards word it in English
            return tool_error(
                f"쿼리가 거부되었습니다: {said}", "읽기 전용 단일 쿼리만 실행할 수 있습니다."
            )
        except (ToolInputError, QueryFailed) as e:
            return tool_error(
                korean(_short(e), "인자를 쓸 수 없습니다"), "인자를 고쳐 다시 호출하세요."
            )
        except StoreUnavailable as e:
            return tool_error(store_down_text(e), "저장소가 다시 켜진 뒤 재시도하세요.")
        except (TypeError, ValueError) as e:  # argument values the tool cannot use
            return tool_error(
                f"인자 값을 쓸 수 없습니다 ({_short(e)})",
                "inputSchema의 타입과 설명에 맞춰 보내세요.",
            )

    return call


# Words from a fixed set that a tool does not refuse by itself (an unknown `basis` reads as
# holdings, `summary` and a holdings `period` are read only in some calls, an unknown contract
# type is refused without naming the argument): the schema lists the set, so any other value is
# refused before the tool runs, naming the argument, like every other schema violation.
FIXED_WORDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("find_similar_etfs", "basis"): ("holdings", "returns"),
    ("find_similar_etfs", "period"): ("1w", "1m", "3m", "6m", "1y", "ytd", "mtd"),
    ("get_etf_prices", "summary"): ("all", "range", "ends"),
    ("get_etf_prices", "against"): ("1w", "1m", "3m", "6m", "1y", "ytd", "mtd"),
    ("get_etf_prices", "statistic"): WINDOW_STATISTICS,  # the figures module's own list
    ("get_etf_prices", "unit"): WINDOW_UNITS,
    ("get_etf_prices", "field"): (
        "close",
        "nav",
        "volume",
        "market_cap",
        "net_assets",
        "trading_value",
        "premium",
    ),
    ("get_stock_prices", "statistic"): WINDOW_STATISTICS,
    ("get_stock_prices", "unit"): WINDOW_UNITS,
    ("get_stock_prices", "field"): ("close", "high", "low", "volume", "high_low"),  # STOCK_FIELDS
    ("standard_contract", "contract_type"): ("provide", "create"),
}


def _tool(name: str, description: str, schema: dict[str, Any],
          body: Callable[[dict[str, Any]], Any], group: str,
          max_chars: int = MAX_ARG_CHARS) -> McpTool:  # fmt: skip
    strict = strict_schema(schema, max_chars=max_chars)
    for (tool, argument), words in FIXED_WORDS.items():
        if tool == name and argument in strict["properties"]:
            strict["properties"][argument]["enum"] = list(words)
    return McpTool(name, description, strict, _guarded(strict, body), group)


# ---------------------------------------------------------------- ETF chat (seed 000): 10 tools


def etf_tools(stores: Stores) -> list[McpTool]:
    from agents.etf.tools import TOOL_CLASSES, ToolContext
    from data_access.catalog import current_as_of_date

    def bind(cls: Any) -> Callable[[dict[str, Any]], Any]:
        def body(args: dict[str, Any]) -> Any:
            pool = stores.pool()
            context = ToolContext(store=stores.graph(), pool=pool, collector=EvidenceCollector(),
                                  as_of_date=current_as_of_date(pool).isoformat())  # fmt: skip
            return _parsed(cls(context).forward(**args))

        return body

    out = []
    for cls in TOOL_CLASSES:
        out.append(_tool(cls.name, cls.description, schema_of_inputs(cls.inputs), bind(cls), "etf"))
    return out


# ---------------------------------------------------------------- Opening script (seed 003)


class OpeningCaches:
    """One news cache per trading day for the server's life, filled with the day's news window
    on first use (as a run's `prefetch_news` node does); what `get_news_content` downloads is
    what `list_downloaded_bodies` lists. Removed when the server stops."""

    def __init__(self, stores: Stores) -> None:
        self.stores = stores
        self._caches: dict[date, Any] = {}
        self._lock = threading.Lock()

    def tools_for(self, day_text: str | None) -> list[Any]:
        from agents.opening.files import new_run_cache
        from agents.opening.graph import prefetch_to_cache
        from agents.opening.service import parse_day
        from agents.opening.tools import ToolContext, make_tools

        pool = self.stores.pool()
        day = parse_day(day_text, pool)
        with self._lock:
            cache = self._caches.get(day)
            if cache is None:
                # the day's news window, fetched as a run's first node (prefetch_news) does
                cache = new_run_cache(
                    self.stores.settings.home, f"mcp-{day}-{uuid.uuid4().hex[:8]}"
                )
                prefetch_to_cache(day, cache, pool)
                self._caches[day] = cache
        return make_tools(
            ToolContext(cache=cache, day=day, pool=pool, collector=EvidenceCollector())
        )

    def clean(self) -> None:
        with self._lock:
            for cache in self._caches.values():
                cache.clean()
            self._caches.clear()


DAY_SPEC = {"type": "string", "description": "거래일 YYYY-MM-DD (없으면 뉴스가 있는 최근 거래일)"}


def opening_tools(stores: Stores, caches: OpeningCaches) -> list[McpTool]:
    from agents.opening.files import RunCache
    from agents.opening.tools import ToolContext, make_tools

    templates = make_tools(
        ToolContext(cache=RunCache(stores.settings.home / "unused"), day=date.today())
    )

    def bind(name: str) -> Callable[[dict[str, Any]], Any]:
        def body(args: dict[str, Any]) -> Any:
            args = dict(args)
            tools = {t.name: t for t in caches.tools_for(args.pop("day", None))}
            return _parsed(tools[name].invoke(args))

        return body

    out = []
    for tool in templates:
        schema = _with_property(tool.get_input_jsonschema(), "day", DAY_SPEC, required=False)
        schema.pop("title", None)
        out.append(_tool(tool.name, tool.description, schema, bind(tool.name), "opening"))
    return out


# ---------------------------------------------------------------- Contract clauses (seed 002)


CONTRACT_SPEC = {"type": "string", "description": "계약서 id (list_contracts로 확인)"}


def contract_tools(stores: Stores) -> list[McpTool]:
    from agents.contract import store as contract_store
    from agents.contract.registry import ToolCall, ToolRegistry
    from agents.contract.tools import TOOL_CLASSES, ToolContext, make_tools

    def bind(name: str) -> Callable[[dict[str, Any]], Any]:
        def body(args: dict[str, Any]) -> Any:
            args = dict(args)
            pool = stores.pool()
            contract_id = str(args.pop("contract_id", "") or "")
            if (
                name != "standard_contract"
                and contract_store.get_contract(contract_id, pool) is None
            ):
                return tool_error(f"계약서를 찾을 수 없습니다: {contract_id[:80]!r}",
                                  "list_contracts로 contract_id를 확인하세요.")  # fmt: skip
            context = ToolContext(contract_id, pool, stores.settings)
            registry = ToolRegistry(make_tools(context), EvidenceCollector(),
                                    scope={"contract_id": contract_id})  # fmt: skip
            return registry.execute(ToolCall(name, args)).result

        return body

    def list_contracts(_: dict[str, Any]) -> Any:
        from agents.contract.service import ensure_samples

        pool = stores.pool()
        ensure_samples(pool, stores.settings)
        return [{"contract_id": c.contract_id, "title": c.title, "contract_type": c.contract_type,
                 "is_standard": c.is_standard, "article_count": c.article_count}
                for c in contract_store.list_contracts(pool)]  # fmt: skip

    empty = {"type": "object", "properties": {}, "required": []}
    out = [_tool("list_contracts", "저장된 계약서 목록 (표준계약서·예시 포함): contract_id, title, "
                 "contract_type, is_standard, article_count.", empty, list_contracts, "contract")]  # fmt: skip
    for cls in TOOL_CLASSES:
        schema = _with_property(cls.parameters, "contract_id", CONTRACT_SPEC,
                                required=cls.name != "standard_contract")  # fmt: skip
        out.append(_tool(cls.name, cls.description, schema, bind(cls.name), "contract"))
    return out


# ---------------------------------------------------------------- Stock report (seed 001)


def stock_tools(stores: Stores) -> list[McpTool]:
    from agents.stock.context import StockContext
    from agents.stock.data import StockData
    from agents.stock.tools import StockToolkit
    from data_access.catalog import current_as_of_date

    def toolkit() -> StockToolkit:
        pool = stores.pool()
        data = StockData(pool, EvidenceCollector(), current_as_of_date(pool))
        return StockToolkit.build(data, StockContext.from_settings(stores.settings))

    def bind(attribute: str) -> Callable[[dict[str, Any]], Any]:
        return lambda args: getattr(toolkit(), attribute).run(**args)

    from agents.stock.tools import CalculatorTool, FinancialNewsTool, StockDataTool

    out = []
    for attribute, cls in (("stock", StockDataTool), ("news", FinancialNewsTool),
                           ("calculator", CalculatorTool)):  # fmt: skip
        schema = schema_of_inputs(cls.inputs)
        schema["required"] = schema["required"][:1]  # max_results is optional
        out.append(_tool(cls.name, cls.description, schema, bind(attribute), "stock"))
    return out


# ---------------------------------------------------------------- guarded read-only queries


QUERY_SCHEMA = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "읽기 전용 쿼리 하나"},
        "max_rows": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_ROWS,
            "description": f"최대 행 수 (1~{MAX_ROWS}, 기본 100)",
        },  # fmt: skip
    },
    "required": ["query"],
}


def _rows_result(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "status": "ok",
        "row_count": len(rows),
        "rows": json.loads(json.dumps(rows, default=str)),
    }


def query_tools(stores: Stores) -> list[McpTool]:
    from data_access.postgres import run_read_only

    def text_and_rows(args: dict[str, Any]) -> tuple[str, int]:
        checked = check_text(args.get("query"), what="쿼리", max_chars=MAX_QUERY_CHARS)
        if checked.problem:
            raise ToolInputError(checked.problem)
        return checked.text, min(max(int(args.get("max_rows") or 100), 1), MAX_ROWS)

    def sql(args: dict[str, Any]) -> Any:
        text, n = text_and_rows(args)
        return _rows_result(run_read_only(text, max_rows=n, pool=stores.pool()))

    def cypher(args: dict[str, Any]) -> Any:
        text, n = text_and_rows(args)
        store = stores.graph()
        if store is None:
            raise StoreUnavailable(
                f"그래프 저장소에 연결할 수 없습니다 ({stores.graph_down_reason()})", store="graph"
            )
        return _rows_result(store.run_guarded(text, max_rows=n))

    return [
        _tool("sql_query", "PostgreSQL 읽기 전용 SELECT (가드: 단일 문장, 허용된 테이블·함수만, LIMIT 강제, "
              "READ ONLY 트랜잭션과 statement_timeout).", QUERY_SCHEMA, sql, "query", MAX_QUERY_CHARS),
        _tool("cypher_query", "그래프 읽기 전용 Cypher (가드: 쓰기·관리 명령·허용 밖 프로시저 거부, LIMIT 강제, "
              "읽기 전용 실행과 타임아웃).", QUERY_SCHEMA, cypher, "query", MAX_QUERY_CHARS),
    ]  # fmt: skip


def build_tools(stores: Stores, caches: OpeningCaches) -> dict[str, McpTool]:
    tools = [*etf_tools(stores), *opening_tools(stores, caches), *contract_tools(stores),
             *stock_tools(stores), *query_tools(stores)]  # fmt: skip
    return {t.name: t for t in tools}
