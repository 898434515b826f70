"""Python code the offline planner writes for the CodeAgent: search first, then the real tool.

Step 1 (`resolve_code`) looks up every named ETF/stock/tag with the search tools and prints
what it found as one JSON line; step 2 (`answer_code`) calls the dedicated tool with the codes
read from that observation and composes the answer with a template, in the question's
language. All of it runs in smolagents' sandboxed executor against the real tools.
"""

from __future__ import annotations

from typing import Any

from agents.etf import answer_templates as tpl
from agents.etf.data import CHANGE_PERIODS, period_words
from agents.etf.intents import MANAGER_ASKED, VALUATIONS, Plan
from agents.understanding.vocabulary import find_phrases, vocabulary

Resolved = dict[str, Any]


def lit(value: Any) -> str:
    """A Python literal for generated code."""
    return repr(value)


def cypher_text(value: str) -> str:
    """A Cypher string literal (our names never contain quotes; refuse them if they do)."""
    if "'" in value or "\\" in value:
        raise ValueError(f"unexpected quote in {value!r}")
    return f"'{value}'"


def resolve_code(plan: Plan) -> str:
    """Step 1: the seed's tool-order rules (stock_search / list_tags / etf_search first)."""
    lines = ["import json", "resolved = {}"]
    for m in [*plan.stocks, *plan.tags, *plan.etfs]:
        key = lit(f"{m.kind}:{m.key}")
        if m.kind != "tag":
            lines += [f"hits = json.loads({m.kind}_search(query={lit(m.name)}))",
                      f"resolved[{key}] = hits if isinstance(hits, dict) else "
                      f"([h for h in hits if h['code'] == {lit(m.key)}] or hits)[:1]"]  # fmt: skip
            continue
        if m is plan.tags[0]:
            lines.append("tags = json.loads(list_tags())")
        lines.append(f"resolved[{key}] = tags if isinstance(tags, dict) else "
                     f"[t for t in tags if t['name'] == {lit(m.key)}]")  # fmt: skip
    lines.append("print(json.dumps(resolved, ensure_ascii=False))")
    return "\n".join(lines)


def failed_lookups(plan: Plan, resolved: Resolved) -> list[str]:
    """Sentences for every entity the search tools did not confirm."""
    out = []
    for m in [*plan.stocks, *plan.tags, *plan.etfs]:
        found = resolved.get(f"{m.kind}:{m.key}")
        if isinstance(found, list) and found:
            continue
        suggestions = found.get("suggestions", []) if isinstance(found, dict) else []
        if isinstance(found, dict) and found.get("status") == "error" and not suggestions:
            # The search itself failed (a store down): that is no evidence the name is unknown.
            out.append(tpl.tool_failed(plan.lang) + str(found.get("error", "")))
            continue
        out.append(tpl.not_found(plan.lang, m.name, suggestions))
    return out


def final_text_code(text: str) -> str:
    return f"final_answer({lit(text)})"


def answer_code(plan: Plan, resolved: Resolved) -> str:
    """Step 2: the dedicated tool call (or seed-style Cypher) and the templated answer."""
    first: dict[str, dict[str, Any]] = {}
    for key, value in resolved.items():
        if isinstance(value, list) and value:
            first[key] = value[0]
    etfs = [first[f"etf:{m.key}"] for m in plan.etfs if f"etf:{m.key}" in first]
    stocks = [first[f"stock:{m.key}"] for m in plan.stocks if f"stock:{m.key}" in first]
    tags = [first[f"tag:{m.key}"]["name"] for m in plan.tags if f"tag:{m.key}" in first]
    from agents.etf.frame_codegen import FRAME_BUILDERS

    builder = _BUILDERS.get(plan.intent) or FRAME_BUILDERS[plan.intent]  # every intent has one
    return builder(plan, etfs, stocks, tags)


def tool_code(plan: Plan, call: str, render: str) -> str:
    """Sandbox code: one tool call, its failure said, else `render` (an expression of `result`)
    as the answer, with the renderers it calls inlined."""
    return tpl.inline("\n".join([
        "import json",
        f"result = json.loads({call})",
        "if isinstance(result, dict) and result.get('status') == 'error':",
        f"    final_answer({lit(tpl.tool_failed(plan.lang))} + result['error'])",
        "else:",
        f"    final_answer({render})",
    ]))  # fmt: skip


def graph_code(plan: Plan, cypher: str, body: list[str]) -> str:
    """Sandbox code: the graph query's rows, then `body` over them (a failed query is said)."""
    lines = ["import json", f'rows = json.loads(graph_query(cypher="""\n{cypher}\n"""))',
             "if isinstance(rows, dict):",
             f"    final_answer({lit(tpl.tool_failed(plan.lang))} + rows['error'])",
             "else:", *("    " + line for line in body)]  # fmt: skip
    return tpl.inline("\n".join(lines))


def graph_answer(plan: Plan, cypher: str, render: str) -> str:
    """`graph_code` answering with `render` (an expression of `rows`)."""
    return graph_code(plan, cypher, [f"final_answer({render})"])


def _etf_call(plan: Plan, named: dict[str, Any], call: str, render: str, *more: str,
              result: str = "result") -> str:  # fmt: skip
    """`tool_code` answering with `render(result, name, lang, *more)`."""
    args = ", ".join([result, lit(named["name"]), lit(plan.lang), *map(lit, more)])
    return tool_code(plan, call, f"{render}({args})")


_INFO_FACTS = ("expense_ratio", "listed_date", "benchmark", "manager")


def _info(plan: Plan, etfs: list[dict[str, Any]], *_: Any) -> str:
    call = f"get_etf_info(etf_code={lit(etfs[0]['code'])})"
    asked = plan.frame.measure()
    asked = "manager" if MANAGER_ASKED.search(plan.question) else asked
    if asked not in _INFO_FACTS:
        return _etf_call(plan, etfs[0], call, "render_info")
    return _etf_call(plan, etfs[0], call, "render_info_lead", asked)  # the asked fact leads


def _similar(plan: Plan, etfs: list[dict[str, Any]], *_: Any) -> str:
    if plan.similar_by == "returns":  # '수익률 움직임이 비슷한': the daily returns' correlation
        window = plan.period if plan.period in ("1m", "3m", "6m", "1y") else "3m"
        call = (f"find_similar_etfs(etf_code={lit(etfs[0]['code'])}, basis='returns', "
                f"period={lit(window)})")  # fmt: skip
        render = "render_similar_returns"
    else:
        call, render = f"find_similar_etfs(etf_code={lit(etfs[0]['code'])})", "render_similar"
    n = plan.frame.operation.top_n  # 'KODEX 200과 비슷한 ETF 3개'
    return _etf_call(plan, etfs[0], call, render, result=f"result[:{int(n)}]" if n else "result")


def _changes(plan: Plan, etfs: list[dict[str, Any]], *_: Any) -> str:
    if plan.frame.operation.kind == "rank":
        from agents.etf.frame_codegen import ranked_changes_code

        return ranked_changes_code(plan, etfs)
    period = plan.period if plan.period in CHANGE_PERIODS else "1d"
    call = f"get_holdings_changes(etf_code={lit(etfs[0]['code'])}, period={lit(period)})"
    kinds = find_phrases(plan.question.lower(), vocabulary()["holdings_change_kinds"])
    if len({k.label for k in kinds}) != 1:  # none, or several kinds ('편입 편출'): all changes
        return _etf_call(plan, etfs[0], call, "render_changes")
    since = (("전 거래일 대비" if period == "1d" else f"최근 {period_words(period, 'ko')}")
             if plan.lang == "ko" else ("since the previous day" if period == "1d"
                                        else f"over the last {period_words(period, 'en')}"))  # fmt: skip
    return _etf_call(plan, etfs[0], call, "render_changes", kinds[0].label, since)


def _prices(plan: Plan, etfs: list[dict[str, Any]], stocks: list[dict[str, Any]],
            *_: Any) -> str:  # fmt: skip
    """An ETF's (a stock's) prices over the asked window, a month unless asked."""
    period = plan.period if plan.period in ("1w", "1m", "3m", "6m", "1y") else "1m"
    etf = plan.intent == "etf_prices"
    named, tool = (
        (etfs[0], "get_etf_prices(etf_code") if etf else (stocks[0], "get_stock_prices(stock_code")
    )
    call = f"{tool}={lit(named['code'])}, period={lit(period)})"
    if not etf and plan.measure in VALUATIONS:  # '그 종목 PER은?': its valuation snapshot
        return _etf_call(plan, named, call, "render_valuation", plan.measure)
    return _etf_call(plan, named, call, "render_prices")


def _compare(plan: Plan, etfs: list[dict[str, Any]], *_: Any) -> str:
    codes = ",".join(e["code"] for e in etfs[:3])
    return _etf_call(plan, etfs[0], f"compare_etfs(etf_codes={lit(codes)})", "render_compare")


def _stock_lookup(plan: Plan, _e: Any, stocks: list[dict[str, Any]], *_: Any) -> str:
    return final_text_code(tpl.stock_lookup(plan.lang, stocks[0]))


def _list_tags(plan: Plan, *_: Any) -> str:
    return tool_code(plan, "list_tags()", f"render_tags(result, '', {lit(plan.lang)})")


_BUILDERS: dict[str, Any] = {
    "etf_info": _info,
    "similar": _similar,
    "holdings_changes": _changes,
    "etf_prices": _prices,
    "stock_prices": _prices,
    "compare": _compare,
    "stock_lookup": _stock_lookup,
    "list_tags": _list_tags,
}
