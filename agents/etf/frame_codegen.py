"""Code for plans compiled from a question frame: the computation runs in the sandbox over tool
results, so the trace shows the filter, the sort, the sum — not only their outcome.

    etf_set_code(plan, etfs, stocks, tags)
    # rows = json.loads(graph_query(...))       the universe (tag, manager, holders, all, previous)
    # for r in rows: ... get_etf_prices(...)    measures that need prices
    # rows = [r for r in rows if r['weight'] > 3.0]
    # rows = sorted(rows, key=..., reverse=True)[:5]
    # final_answer(render_etf_set(rows, spec))
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from typing import Any

from agents.etf import answer_templates as tpl
from agents.etf.codegen import cypher_text, graph_answer, graph_code, lit, tool_code
from agents.etf.data import CHANGE_PERIODS, period_words, readable
from agents.etf.intents import AGGREGATE_WORDS, SET_MEASURES, VALUATIONS, Plan
from agents.etf.set_answers import SUMMARY_FIELD, fmt_measure
from agents.understanding.coverage import COMPOSED, pick_direction, pick_directions
from agents.understanding.frame import COMPARATOR_WORDS, bar_text, measure_name
from agents.understanding.parse import asked_move, bar_is_the_predicate
from agents.understanding.vocabulary import vocabulary
from agents.verdict import asked_bar
from agents.window_answer import mark_used, per_period_stat, period_pick
from data_access import figures as fig
from data_access.seed.news_text import josa

Row = dict[str, Any]
_PY_COMPARATOR = {">": ">", ">=": ">=", "<": "<", "<=": "<=", "=": "=="}
# columns, not one map per row: the graph client parses 900 maps ~3x slower (graph_query gives
# the same {code, name, expense_ratio} rows either way)
_RETURN = "e.code AS code, e.name AS name, e.expense_ratio AS expense_ratio"
_MANAGER_OF = "[(e)-[:MANAGED_BY]->(c:Company) | c.name][0]"  # a fund's manager, in Cypher
_MANAGER = f", {_MANAGER_OF} AS manager"
_MAP_FEE = "expense_ratio: e.expense_ratio"  # the holders' sets return maps
# the set tables' words for a measure where they are not the frame's name of it (measure_name)
_OWN_LABELS = {"volume": ("일평균 거래량", "average daily volume"),
               "volatility": ("연환산 변동성", "annualized volatility"),
               "from_high": ("최고 종가 대비", "from the closing high"),
               "from_low": ("최저 종가 대비", "from the closing low"),
               "volume_surge": ("최근 1주 평균 거래량 / 3개월 평균",
                                "last week's average volume / 3-month average"),
               "premium": ("최근 거래일 괴리율", "last session's premium"),
               "manager": ("운용사", "manager")}  # fmt: skip
LABELS = {lang: {m: _OWN_LABELS[m][i] if m in _OWN_LABELS else measure_name(m, lang)
                 for m in (*SET_MEASURES, "manager")} for i, lang in enumerate(("ko", "en"))}  # fmt: skip
# the measures a window's ends and range give (no day-to-day returns: volatility, trading value)
_RANGE_MEASURES = {"return", "close", "net_assets", "volume", "from_high", "from_low",
                   "volume_surge"}  # fmt: skip
_WINDOWED = ("return", "volume", "volatility", "from_high", "from_low", "trading_value")


def window_words(period: str) -> tuple[str, str]:
    """'최근 3개월' / 'the last 3 months'; the year and the month to date are not 'recent'."""
    if period == "ytd":
        return "연초 이후", "the year to date"
    if period == "mtd":
        return "이번 달 들어(전월 말 대비)", "the month to date"
    return "최근 " + period_words(period, "ko"), "the last " + period_words(period, "en")


def price_period(plan: Plan) -> str:
    """The asked window, else a month (a year for a volatility: a month of days is too few)."""
    if readable(plan.period):
        return str(plan.period)
    return "1y" if plan.measure == "volatility" else "1m"


def notes_text(plan: Plan) -> str:
    """What the frame asked and this answer could not do (said, never dropped)."""
    if not plan.unanswered:
        return ""
    head = "참고: " if plan.lang == "ko" else "Note: "
    return head + " ".join(plan.unanswered)


# ---------------------------------------------------------------- sets of ETFs


def universe_cypher(plan: Plan, stocks: list[Row], tags: list[str]) -> tuple[str, str]:
    """(Cypher, Korean/English description of the set) for the plan's universe; each ETF's
    manager too when the question asks it ('1년 수익률 1위 ETF의 운용사는?')."""
    cypher, described = _universe_cypher(plan, stocks, tags)
    if plan.market:  # '국내주식 ETF': the region and asset class each ETF is listed with
        cypher, described = _in_market(plan, cypher, described)
    if plan.count_in_cut:  # every ETF, each marked whether the narrower set holds it
        head = cypher.rsplit("\nRETURN ", 1)[0]
        cypher = (f"{head}\nWITH collect(e.code) AS kept\nMATCH (e:ETF)\n"
                  f"RETURN {_RETURN}, e.code IN kept AS kept")  # fmt: skip
    if plan.show_manager:  # a column list, or a map ('삼성전자를 가장 많이 담은 ETF의 운용사')
        cypher = cypher.replace(_RETURN, _RETURN + _MANAGER, 1).replace(
            _MAP_FEE, f"{_MAP_FEE}, manager: {_MANAGER_OF}", 1
        )
    return cypher, described


_MARKET_WORDS = {"KR": ("국내", "Korean"), "!KR": ("해외", "overseas"), "US": ("미국", "US"),
                 "equity": ("주식", "equity"),
                 "bond": ("채권", "bond"), "commodity": ("원자재", "commodity"),
                 "currency": ("통화", "currency")}  # fmt: skip


def _in_market(plan: Plan, cypher: str, described: str) -> tuple[str, str]:
    """The set's Cypher kept to the market asked, and its description saying so."""
    region, asset = plan.market.get("region"), plan.market.get("asset_class")
    kept = ["e.region <> 'KR'" if region == "!KR" else f"e.region = {cypher_text(str(region))}"]
    kept += [f"e.asset_class = {cypher_text(asset)}"] if asset else []
    where = " AND ".join(kept)
    head, ret = cypher.rsplit("\nRETURN ", 1)
    last = head.rsplit("\n", 1)[-1]
    head += f" AND {where}" if last.startswith("WHERE ") else f"\nWHERE {where}"
    i = 0 if plan.lang == "ko" else 1
    words = " ".join(_MARKET_WORDS[k][i] for k in (region, asset) if k)
    if plan.lang == "ko":
        said = (described.replace("전체 ETF", f"{words} ETF") if "전체 ETF" in described
                else described.replace(" ETF", f" {words} ETF", 1))  # fmt: skip
    else:
        said = f"{words} {described.removeprefix('all ')}"
    return f"{head}\nRETURN {ret}", said


def _universe_cypher(plan: Plan, stocks: list[Row], tags: list[str]) -> tuple[str, str]:
    ko = plan.lang == "ko"
    if plan.universe == "tag":  # every theme named ('해외주식 배당 ETF': both tags)
        named = list(dict.fromkeys(tags or [t.key for t in plan.tags]))
        house = plan.managers[0].key if plan.managers else None  # '미래에셋 반도체 ETF'
        by = (f"\nMATCH (e)-[:MANAGED_BY]->(:Company {{name: {cypher_text(house)}}})"
              if house else "")  # fmt: skip
        said = (f"{house}의 " if ko else f"{house}'s ") if house else ""
        tagged = "".join(
            f"\nMATCH (e)-[:TAGGED]->(:Tag {{name: {cypher_text(t)}}})" for t in named[1:]
        )
        quoted = "·".join(f"'{t}'" for t in named)
        without, other = _others_left(plan, ko)  # '같은 운용사 다른 2차전지 ETF'
        where = f"\nWHERE {without.removeprefix(' AND ')}" if without else ""
        return (f"MATCH (e:ETF)-[:TAGGED]->(t:Tag {{name: {cypher_text(named[0])}}}){tagged}{by}"
                f"{where}\nRETURN {_RETURN}", f"{said}{quoted} 태그 {other}ETF" if ko
                else f"{said}{other}ETFs tagged {quoted}")  # fmt: skip
    if plan.universe == "manager":
        manager, (without, other) = plan.managers[0].key, _others_left(plan, ko)
        return (f"MATCH (e:ETF)-[:MANAGED_BY]->(c:Company)\nWHERE c.name = {cypher_text(manager)}"
                f"{without}\nRETURN {_RETURN}", f"{manager}의 {other}ETF" if ko
                else f"{other}ETFs managed by {manager}")  # fmt: skip
    if plan.universe == "previous":
        codes = ", ".join(cypher_text(c) for c in plan.frame.previous_result[:200])
        scope, scoped = _holder_scope(plan, tags)  # '그 중 반도체는?': narrowed to the theme
        described = (f"직전 답변의 ETF 중 {scoped}ETF" if scoped else "직전 답변의 ETF") if ko else (
            f"the {scoped}ETFs of the previous answer" if scoped else "the ETFs of the previous answer")  # fmt: skip
        return (f"MATCH (e:ETF){scope}\nWHERE e.code IN [{codes}]\nRETURN {_RETURN}", described)
    if plan.universe == "similar" and plan.frame.operation.threshold_of:
        # the five ETFs whose holdings overlap most with it, as the similar-ETF answer lists
        ref = plan.frame.operation.threshold_of
        code = cypher_text(ref.key)
        return (f"MATCH (a:ETF {{code: {code}}})-[ha:HOLDS]->(:Stock)\nWITH a, max(ha.date) AS d\n"
                "MATCH (a)-[ha:HOLDS]->(s:Stock)<-[hb:HOLDS]-(e:ETF)\n"
                f"WHERE ha.date = d AND hb.date = d AND e.code <> {code}\n"
                "WITH e, sum(CASE WHEN ha.weight < hb.weight THEN ha.weight ELSE hb.weight END) "
                "AS similarity\nORDER BY similarity DESC, e.code\nLIMIT 5\n"
                f"RETURN {_RETURN}",
                f"{josa(ref.name, '과/와')} 비슷한 ETF" if ko else f"ETFs similar to {ref.name}")  # fmt: skip
    if plan.universe == "named":
        codes = ", ".join(cypher_text(m.key) for m in plan.etfs)
        return (f"MATCH (e:ETF)\nWHERE e.code IN [{codes}]\nRETURN {_RETURN}",
                "질문한 ETF" if ko else "the ETFs asked about")  # fmt: skip
    if plan.universe == "holders" and plan.without_stocks:
        # '삼성전자 안 담은 ETF': no named stock in the fund's latest holdings snapshot
        scope, scoped = _holder_scope(plan, tags)
        codes = ", ".join(cypher_text(s["code"]) for s in stocks)
        names = ", ".join(s["name"] for s in stocks)
        return (
            f"MATCH (e:ETF)-[h:HOLDS]->(:Stock){scope}\nWITH e, max(h.date) AS latest\n"
            f"OPTIONAL MATCH (e)-[x:HOLDS]->(s:Stock)\nWHERE x.date = latest AND s.code IN [{codes}]\n"
            "WITH e, latest, count(x) AS held\nWHERE held = 0\n"
            "RETURN {code: e.code, name: e.name, expense_ratio: e.expense_ratio, weight: 0.0, "
            "date: latest}",
            f"{josa(names, '을/를')} 담지 않은 {scoped}ETF(보유종목 자료가 있는 ETF 중)" if ko
            else f"{scoped}ETFs not holding {names} (of those with holdings data)",
        )  # fmt: skip
    if plan.universe == "holders":
        # '삼성전자를 5% 넘게 담은 반도체 ETF': the holders within the named theme or manager;
        # '삼성전자와 SK하이닉스를 모두 담은 ETF': every named stock held (weights summed)
        scope, scoped = _holder_scope(plan, tags)
        held = [f"MATCH (e)-[h{i}:HOLDS]->(:Stock {{code: {cypher_text(s['code'])}}})\n"
                f"WHERE h{i}.date = latest\n" for i, s in enumerate(stocks)]  # fmt: skip
        weight = " + ".join(f"h{i}.weight" for i in range(len(stocks)))
        names = ("와 ".join(s["name"] for s in stocks) if ko
                 else " and ".join(s["name"] for s in stocks))  # fmt: skip
        return (
            f"MATCH (e:ETF)-[h:HOLDS]->(:Stock){scope}\nWITH e, max(h.date) AS latest\n"
            + "".join(held)
            + "RETURN {code: e.code, name: e.name, expense_ratio: e.expense_ratio, "
            f"weight: {weight}, date: latest}}",
            f"{josa(names, '을/를')} {'모두 ' if len(stocks) > 1 else ''}담은 {scoped}ETF" if ko
            else f"{scoped}ETFs holding {names}",
        )  # fmt: skip
    if plan.benchmark:  # '코스피200 추종 ETF': that index, or its total-return version
        name = plan.benchmark
        names = ", ".join(cypher_text(n) for n in (name, f"{name} TR", f"{name} 총수익"))
        without, other = _others_left(plan, ko)
        return (
            f"MATCH (e:ETF)\nWHERE e.benchmark IN [{names}]{without}\nRETURN {_RETURN}",
            (f"'{name}' 추종 {other}ETF" if ko else f"{other}ETFs tracking the {name}"),
        )
    if plan.name_word:  # '미국 ETF': the ETFs whose names hold the word
        word = plan.name_word
        return (f"MATCH (e:ETF)\nWHERE e.name CONTAINS {cypher_text(word)}\nRETURN {_RETURN}",
                f"이름에 '{word}'{josa(word, '이/가')[len(word):]} 들어간 ETF" if ko
                else f"ETFs with '{word}' in their names")  # fmt: skip
    return f"MATCH (e:ETF)\nRETURN {_RETURN}", "전체 ETF" if ko else "all ETFs"


def _others_left(plan: Plan, ko: bool) -> tuple[str, str]:
    """'다른 ETF': the Cypher condition leaving out the fund asked before, and its word."""
    left = ", ".join(cypher_text(c) for c in plan.others_than)
    return (f" AND NOT e.code IN [{left}]", "다른 " if ko else "other ") if left else ("", "")


def _holder_scope(plan: Plan, tags: list[str]) -> tuple[str, str]:
    """An extra pattern (and its words) narrowing holders to a tag or a manager."""
    if plan.tags:
        tag = tags[0] if tags else plan.tags[0].key
        return f", (e)-[:TAGGED]->(:Tag {{name: {cypher_text(tag)}}})", f"'{tag}' "
    if plan.managers:
        manager = plan.managers[0].key
        return f", (e)-[:MANAGED_BY]->(:Company {{name: {cypher_text(manager)}}})", f"{manager} "
    return "", ""


def set_period(plan: Plan) -> str:
    """A set's window: '어제 가장 많이 오른 ETF' is the last day's change, not a month's."""
    return "1d" if plan.period == "1d" and plan.measure == "return" else price_period(plan)


def _priced(measures: set[str]) -> bool:
    """Whether a set needs figures the graph does not hold (read by `get_etf_prices`)."""
    return bool(measures & {*_WINDOWED, "net_assets", "close", "volume_surge", "premium"})


_PriceCall = tuple[str, str | None, str | None, str]  # window, summary part, against, columns


def _price_calls(measures: set[str], period: str) -> list[_PriceCall]:
    """The `get_etf_prices` calls a set's figures take (one aggregating query each): the
    window's summaries, and the last week's volume against 3 months' for a surge."""
    if measures == {"volume_surge"}:  # its own two windows: the last week against 3 months
        return [("1w", "range", "3m", "volume_surge")]
    window = period if measures & set(_WINDOWED) else "1w"
    window = "1w" if window == "1d" else window  # the last two closes come from a week's bars
    part = ("ends" if measures <= {"return", "close", "net_assets"}  # look-ups, plain aggregates
            else "range" if measures <= _RANGE_MEASURES else None)  # fmt: skip
    columns = []
    if "return" in measures:  # '어제': the last close against the one before it
        columns.append("return=" + ("day_change" if period == "1d" else "change_rate"))
    columns += [f"{m}={f}" for m, f in SUMMARY_FIELD.items() if m in measures and m != "return"]
    if measures & {"from_high", "from_low"}:  # the last close against the window's closes
        columns += ["from_high", "from_low"]
    calls: list[_PriceCall] = [(window, part, None, ",".join(columns))]
    if "volume_surge" in measures:  # volume_surge = avg_volume / against_avg_volume
        calls.append(("1w", "range", "3m", "volume_surge"))
    return calls


def _table_lines(measures: set[str], period: str, table_args: str = "") -> list[str]:
    """The set's figures joined to its rows by `get_etf_prices(rows=…)`, which also filters,
    orders and cuts them (`table_args`, on the last call): the sandbox holds the table the tool
    returns, never a loop over every ETF of the set."""
    calls = _price_calls(measures, period)
    lines = []
    for i, (window, part, against, columns) in enumerate(calls):
        args = f"rows=rows, period={lit(window)}" + (f", summary={lit(part)}" if part else "")
        args += (f", against={lit(against)}" if against else "") + f", columns={lit(columns)}"
        args += table_args if i == len(calls) - 1 else ""
        lines += [f"table = json.loads(get_etf_prices({args})) if rows else {{}}",
                  "rows = table.get('rows', []) if isinstance(table, dict) else []"]  # fmt: skip
    return lines + ["tied = table.get('tied', []) if isinstance(table, dict) else []"]


def _where(conditions: list[_Threshold], reference: tuple[str, str, str] | None = None) -> str:
    """The filters as get_etf_prices' `where`: [column, comparator, number or the reference
    ETF's code]."""
    where = [[field, comparator, _threshold_value(field, value, unit)]
             for field, comparator, value, unit in conditions]  # fmt: skip
    if reference is not None:
        where.insert(0, list(reference))
    return f", where={lit(where)}" if where else ""


def etf_set_code(plan: Plan, _e: Any, stocks: list[Row], tags: list[str]) -> str:
    assert plan.measure is not None
    op, measure = plan.frame.operation, plan.measure
    period = set_period(plan)
    cypher, described = universe_cypher(plan, stocks, tags)
    filter_measure = op.filter_measure if op.filter_measure in LABELS["ko"] else measure
    bar = _asked_bar(plan, filter_measure)
    held = _aggregate_held_to_bar(plan)  # '반도체 ETF 평균 보수는 KODEX 200보다 높아?'
    # the set's lines read the set as if no bar were said: the bar is the verdict's, after
    built = replace(plan, frame=plan.frame.model_copy(update={"operation": op.model_copy(
        update={"comparator": None, "threshold": None, "threshold_of": None})})) if held else plan  # fmt: skip
    conditions = [] if bar else _conditions(built, filter_measure)
    used = {measure, *plan.also} | ({filter_measure} if op.comparator and not held else set())
    used |= {c[0] for c in conditions}
    descending = _descending(op.direction, op.comparator, measure)
    aggregate = op.aggregate if op.kind in ("aggregate", "filter") else None  # '… 몇 개야?'
    n = int(op.top_n) if op.kind == "rank" and op.top_n and not aggregate else None
    if plan.count_in_cut:  # '상위 10개 중 레버리지 ETF 몇 개?': ordered and cut, counted after
        n, aggregate = int(op.top_n or 0), None
        descending = _descending(op.direction, None, measure)
        label = _measure_label(plan, measure, period)
        described = (f"{label} {'높은' if descending else '낮은'} 순 상위 {n}개 중 {described}"
                     if plan.lang == "ko" else f"{described} among the {n} "
                     f"{'highest' if descending else 'lowest'} by {label}")  # fmt: skip
    if _priced(used):  # the price tool joins, filters, orders and cuts the set
        body = _priced_set_lines(built, used, period, conditions, filter_measure, measure,
                                 descending, n, aggregate)  # fmt: skip
    else:
        body = _graph_set_lines(built, conditions, filter_measure, measure, descending, n,
                                aggregate)  # fmt: skip
    if plan.count_in_cut:
        aggregate = "count"
        body += ["cut = rows + tied", "rows = [r for r in cut if r.get('kept')]", "tied = []",
                 "value = len(rows)"]  # fmt: skip
    if held and aggregate:
        spec = _aggregate_spec(built, described, measure, period)
        label, words = _measure_label(plan, measure, period), AGGREGATE_WORDS[aggregate]
        said = (f"{described} {label} {words[0]}" if plan.lang == "ko"
                else f"the {words[1]} {label} of {described}")  # fmt: skip
        answer = ["tied = []", *_held_to_bar_lines(plan, measure, period, "value", lit(said)),
                  "final_answer(lead + render_etf_aggregate(rows, value, spec))"]  # fmt: skip
    elif bar:  # 'KODEX 200 보수 0.1% 넘어?': each named fund held to the bar, not filtered out
        spec = {**_set_spec(plan, described, filter_measure, filter_measure, period), **bar}
        answer = ["final_answer(render_etf_verdicts(rows, spec))"]
    elif aggregate:
        spec = _aggregate_spec(plan, described, measure, period)
        answer = ["final_answer(render_etf_aggregate(rows, value, spec))"]
    elif plan.rank_of:  # '순자산 순위 몇 위?': its place in the whole order, then the top ten
        spec = {**_set_spec(plan, described, measure, filter_measure, period), "max_lines": 10}
        label, code = _measure_label(plan, measure, period), lit(plan.rank_of)
        lead = (f"{{name}}의 {label} 순위: {{place}}위 / {{n}}개 ({{value}})" if plan.lang == "ko"
                else f"{{name}} ranks {{place}} of {{n}} by {label} ({{value}})")  # fmt: skip
        answer = [f"me = next((r for r in rows if r['code'] == {code}), None)",
                  f"mine = me.get({lit(measure)}) if me else None",
                  # competition ranking: ETFs with the same value share the place ('공동 20위')
                  f"better = [r for r in rows if mine is not None and r.get({lit(measure)}) is not None "
                  f"and r[{lit(measure)}] {'>' if descending else '<'} mine]",
                  f"same = len([r for r in rows if mine is not None and r.get({lit(measure)}) == mine]) - 1",
                  f"place = (({lit('공동 ' if plan.lang == 'ko' else '=')} if same > 0 else '') + str(len(better) + 1)) if me else '-'",
                  f"lead = {lit(lead)}.replace('{{name}}', me['name'] if me else {code})"
                  ".replace('{place}', place).replace('{n}', str(len(rows)))"
                  f".replace('{{value}}', fmt_measure({lit(measure)}, mine))",
                  "final_answer(lead + '\\n\\n' + render_etf_set(rows, spec, tied))"]  # fmt: skip
    else:
        spec = _set_spec(plan, described, measure, filter_measure, period)
        answer = ["final_answer(render_etf_set(rows, spec, tied))"]
    # a bar is asked of named funds with no aggregate: its title has no reference ETF
    titled = [] if bar else ["spec['title'] = spec['title'].replace('{ref}', ref_text)"]
    return graph_code(plan, cypher, [*body, f"spec = {lit(spec)}", *titled, *answer])


def _asked_bar(plan: Plan, measure: str) -> dict[str, Any] | None:
    """The bar named funds are held to ('KODEX 200 보수 0.1% 넘어?'), or None: a set filters."""
    op = plan.frame.operation
    if plan.universe != "named" or op.conditions or op.aggregate or op.threshold_of:
        return None
    asked = asked_bar(plan.frame, measure)
    if asked is None:
        return None
    comparator, bar = asked
    return {"measure": measure, "comparator": comparator, "bar": bar,
            "bar_shown": fmt_measure(measure, bar).lstrip("+")}  # fmt: skip


def _priced_set_lines(plan: Plan, used: set[str], period: str, conditions: list[_Threshold],
                      filter_measure: str, measure: str, descending: bool, n: int | None,
                      aggregate: str | None) -> list[str]:  # fmt: skip
    """A set with price figures: one `get_etf_prices(rows=…)` call gives the filtered, ordered
    and cut table (ties at the cut named apart, not silently dropped)."""
    ref = plan.frame.operation.threshold_of
    reference = (filter_measure, plan.frame.operation.comparator or "<", ref.key) if ref else None
    args = _where(conditions, reference)
    if aggregate and aggregate != "count":
        args += f", aggregate={lit(aggregate + ':' + measure)}"
    elif not aggregate:
        args += f", order_by={lit(measure)}, descending={descending!r}"
        args += f", top={n}" if n else ""
    # the reference ETF ('KODEX 200보다 싼') is read beside the set, first: its row is the bar
    body = ([f"ref = {_one_etf(ref.key)}", "rows = (ref if isinstance(ref, list) else []) + rows"] if ref
            else ["ref_text = ''"])  # fmt: skip
    body += _table_lines(used, period, args)
    if ref:
        body.append(f"ref_text = fmt_measure({lit(filter_measure)}, (table.get('bars') or {{}})"
                    f".get({lit(filter_measure)}) if isinstance(table, dict) else None)")  # fmt: skip
    if aggregate == "count":
        body.append("value = len(rows)")
    elif aggregate:
        body.append("value = table.get('value') if isinstance(table, dict) else None")
    return body


def _sorted(measure: str, descending: bool, rows: str = "rows") -> str:
    """Sandbox expression: the `rows` that have a `measure`, ordered by it."""
    return (f"sorted([r for r in {rows} if r.get({lit(measure)}) is not None], "
            f"key=lambda r: r[{lit(measure)}], reverse={descending!r})")  # fmt: skip


def _graph_set_lines(plan: Plan, conditions: list[_Threshold], filter_measure: str,
                     measure: str, descending: bool, n: int | None,
                     aggregate: str | None) -> list[str]:  # fmt: skip
    """A set of the graph's own figures (fees, weights): filtered and ordered in the code."""
    body = _reference_lines(plan)
    if plan.frame.operation.threshold_of is not None:
        body += _against_reference(plan, filter_measure)
    body += _filter_lines(conditions)
    if aggregate:
        return body + _aggregate_lines(aggregate, measure)
    return body + _cut_lines(measure, descending, n)


def _cut_lines(measure: str, descending: bool, n: int | None, nth: bool = False) -> list[str]:
    """Sandbox lines: the rows ordered by `measure`, cut at `n` (the n-th alone when `nth`), its
    ties in `tied`: they follow the cut, so the scan stops at the first other value."""
    if not n:
        return [f"rows = {_sorted(measure, descending)}", "tied = []"]
    return [f"ordered = {_sorted(measure, descending)}",
            f"rows = ordered[{n - 1 if nth else ''}:{n}]", "tied = []",
            f"for r in ordered[{n}:]:", f"    if r[{lit(measure)}] != ordered[{n - 1}][{lit(measure)}]:",
            "        break", "    tied.append(r)"]  # fmt: skip


def composed_code(plan: Plan, _e: Any, stocks: list[Row], tags: list[str]) -> str:
    """set → order by one measure → take N → read another (or aggregate it): each step a line
    of the sandbox code the trace shows."""
    assert plan.measure is not None and plan.order_by is not None
    op, order_by, measure = plan.frame.operation, plan.order_by, plan.measure
    period = set_period(plan)
    cypher, described = universe_cypher(plan, stocks, tags)
    descending = _descending(_order_direction(plan, order_by), None, order_by)
    # '보수 0.1% 미만 ETF 중 …': the graph's figure keeps the set's rows before the order
    kept = _filter_lines(_conditions(plan, op.filter_measure or "")) if plan.filter_first else []
    if plan.both_ends:
        return graph_code(plan, cypher, _both_ends_lines(plan, described, order_by, measure,
                                                         period, kept))  # fmt: skip
    n = int(plan.position or op.top_n or 1)
    picks = [order_by] + ([plan.pick_by] if plan.pick_by else [])
    read = {measure} - {"holdings"}  # a picked ETF's holdings are read after the pick
    if _priced({*picks, *read}):  # the price tool orders and cuts; the ties come apart
        body = kept + _table_lines({*picks, *read}, period, f", order_by={lit(order_by)}, "
                            f"descending={descending!r}, top={n}")  # fmt: skip
        body += [f"rows = rows[{n - 1}:{n}]"] if plan.position else []  # the n-th alone if asked
    else:  # the n-th alone if asked
        body = kept + _cut_lines(order_by, descending, n, nth=bool(plan.position))
    pick = None
    if plan.pick_by:  # '… 중 보수가 제일 싼 것의': one more cut, by the adjective before '의'
        pick = (plan.pick_by, _descending(pick_direction(plan.frame), None, plan.pick_by))
        # the ETFs tied at the cut are in the set as much as the last one kept: candidates too
        body += [f"candidates = {_sorted(pick[0], pick[1], 'rows + tied')}",
                 f"rows = candidates[:{plan.pick_n}]",  # and those as good as the last picked, named
                 f"same = [r for r in candidates[{plan.pick_n}:] if r[{lit(pick[0])}] == rows[-1][{lit(pick[0])}]]"]  # fmt: skip
    if plan.keep_where:  # '상위 10개 중 총보수 0.1% 미만인 것': the cut first, then the condition
        body += _filter_lines(_conditions(plan, measure)) + ["tied = []"]
    if plan.holdings_n:
        return graph_code(plan, cypher, body + _holdings_of_pick(plan, order_by, descending))
    aggregate = op.aggregate if op.aggregate in ("avg", "sum", "max", "min", "count") else None
    body += _aggregate_lines(aggregate, measure) if aggregate else ["value = None"]
    spec = _composed_spec(plan, described, order_by, measure, period, descending, n, aggregate,
                          pick)  # fmt: skip
    body += [f"spec = {lit(spec)}"] + (["spec['same'] = same"] if pick else [])
    if plan.held_to_bar:  # '… 1년 수익률은 KODEX 200보다 높아?': the yes or no first
        body += _held_to_bar_lines(plan, measure, period)
        body += ["final_answer(lead + render_etf_composed(rows, value, spec, tied))"]
    else:
        body += ["final_answer(render_etf_composed(rows, value, spec, tied))"]
    return graph_code(plan, cypher, body)


def _aggregate_held_to_bar(plan: Plan) -> bool:
    """A set's average (sum, max, min) asked against a bar as the question's predicate."""
    op = plan.frame.operation  # '평균 보수는 0.3% 넘어?' is read as a filter with an average
    return bool(op.kind in ("aggregate", "filter") and op.aggregate in ("avg", "sum", "max", "min")
                and op.comparator and (op.threshold_of or op.threshold is not None)
                and bar_is_the_predicate(plan.frame))  # fmt: skip


def _held_to_bar_lines(plan: Plan, measure: str, period: str, mine: str = "",
                       subject: str = "") -> list[str]:  # fmt: skip
    """Sandbox lines: the bar (a number, or the named fund's same figure, read as the set's
    were), then `lead`, the figure (`mine`, of `subject`: sandbox expressions; by default the
    picked fund's) against it (agents.verdict)."""
    op, ref = plan.frame.operation, plan.frame.operation.threshold_of
    if ref is None:
        bar = _threshold_value(measure, op.threshold or 0.0, op.threshold_unit)
        lines = [f"bar, bar_shown = {bar!r}, {lit(fmt_measure(measure, bar).lstrip('+'))}"]
    else:
        lines = ["picked, picked_tied = rows, tied",
                 f"rows = {_one_etf(ref.key)}",
                 "rows = rows if isinstance(rows, list) else []",
                 *(_table_lines({measure}, period) if _priced({measure}) else []),
                 f"bar = rows[0].get({lit(measure)}) if rows else None",
                 f"bar_shown = {lit(ref.name)} + '(' + fmt_measure({lit(measure)}, bar) + ')'",
                 "rows, tied = picked, picked_tied"]  # fmt: skip
    label = _measure_label(plan, measure, period)
    mine = mine or f"rows[0].get({lit(measure)}) if rows else None"
    subject = subject or f"rows[0]['name'] + {lit('의 ' + label if plan.lang == 'ko' else ' ' + label)}"  # fmt: skip
    return lines + [
        f"mine = {mine}",
        f"lead = '' if mine is None or bar is None else verdict({subject}, mine, "
        f"fmt_measure({lit(measure)}, mine), {lit(op.comparator)}, bar_shown, bar, "
        f"{lit(plan.lang)}) + '\\n\\n'"]  # fmt: skip


def _order_direction(plan: Plan, order_by: str) -> str | None:
    """The order's direction, read on the side of '중' where its measure is named: before it
    for a cut ('순자산 상위 5개 ETF 중 …'), after it when the funds are named first ('KODEX
    200과 TIGER 200 중 1년 수익률 낮은 쪽의 보수')."""
    frame, low = plan.frame, plan.frame.question.lower()
    among = low.find(" 중")
    surface = next((m.surface.lower() for m in frame.measures if m.name == order_by), "")
    after = among >= 0 and bool(surface) and low.find(surface) > among
    return frame.operation.direction or pick_direction(frame, of_pick=after)


def _both_ends_lines(plan: Plan, described: str, order_by: str, measure: str, period: str,
                     kept: list[str]) -> list[str]:  # fmt: skip
    """Sandbox lines: the set (`kept` its filters) ordered by one measure, its first and last
    ETF, and the gap of another measure between them ('순자산 가장 큰 것과 가장 작은 것의 보수 차이')."""
    order, label = _measure_label(plan, order_by, period), _measure_label(plan, measure, period)
    op = plan.frame.operation
    two = op.top_n == 2  # '상위 2개의 … 차이': the two of the cut
    said = [] if two else pick_directions(plan.frame)
    # the end said first comes first ('보수 제일 싼 것과 제일 비싼 것': the cheapest − the dearest)
    down = not (two and op.direction == "asc") and said[:1] != ["asc"]
    if _priced({order_by, measure}):
        body = kept + _table_lines({order_by, measure}, period,
                                   f", order_by={lit(order_by)}, descending={down!r}")  # fmt: skip
    else:
        body = kept + [f"rows = {_sorted(order_by, down)}"]
    if two:
        body.append(f"rows = [r for r in rows if r.get({lit(measure)}) is not None][:2]")
        side = ("상위", "top") if down else ("하위", "bottom")
        head = (f"{described} 중 {order} {side[0]} 2개 ETF의 {label} 차이" if plan.lang == "ko"
                else f"The {label} gap between the {side[1]} 2 by {order} among {described}")  # fmt: skip
    else:
        ends = ("높은", "낮은") if down else ("낮은", "높은")
        head = (f"{described} 중 {order} 가장 {ends[0]} ETF와 가장 {ends[1]} ETF의 {label} 차이"
                if plan.lang == "ko" else f"The {label} gap between the "
                f"{'highest and the lowest' if down else 'lowest and the highest'} {order} among {described}")  # fmt: skip
    spec = {"lang": plan.lang, "measure": measure, "label": label, "note": notes_text(plan),
            "empty": tpl.no_values(plan.lang, described, order)}  # fmt: skip
    lead = lit(head + ":\n\n")  # its own paragraph: Markdown joins single lines
    return body + [
        f"ends = [r for r in rows if r.get({lit(measure)}) is not None]",
        "if len(ends) < 2:", f"    final_answer({lit(spec['empty'])})", "else:",
        f"    first = {{'name': ends[0]['name'], 'value': ends[0][{lit(measure)}]}}",
        f"    second = {{'name': ends[-1]['name'], 'value': ends[-1][{lit(measure)}]}}",
        f"    final_answer({lead} + render_difference(first, second, {lit(spec)}))"]  # fmt: skip


def _holdings_of_pick(plan: Plan, order_by: str, descending: bool) -> list[str]:
    """Sandbox lines after a pick of one ETF: its latest holdings, the top N by weight."""
    ko = plan.lang == "ko"
    order = measure_name(order_by, plan.lang)
    place = f"{plan.position}번째로" if (plan.position or 0) > 1 else "가장"  # '두 번째로 큰 …'
    said = (f"{order} {place} {'높은' if descending else '낮은'} ETF" if ko
            else f"the ETF with the {'highest' if descending else 'lowest'} {order}")  # fmt: skip
    spec = {"lang": plan.lang, "aggregate": "list", "top_n": plan.holdings_n,
            "place": plan.holding_place, "empty": tpl.tool_failed(plan.lang)}  # fmt: skip
    holdings = _latest_holdings("$code").replace("\n", " ")
    return ["if not rows:", f"    final_answer({lit(tpl.tool_failed(plan.lang))})", "else:",
            "    pick = rows[0]",
            f"    held = json.loads(graph_query(cypher={lit(holdings)}.replace('$code', "
            "\"'\" + str(pick['code']) + \"'\")))",
            "    if isinstance(held, dict):",
            f"        final_answer({lit(tpl.tool_failed(plan.lang))} + held['error'])",
            "    else:",
            f"        spec = {lit(spec)}",
            f"        spec['etf'] = pick['name'] + {lit(f' ({said})' if ko else f' ({said})')}",
            f"        final_answer(render_holdings_aggregate(held, spec) + {lit(_note_suffix(plan))})"]  # fmt: skip


def _composed_spec(plan: Plan, described: str, order_by: str, measure: str, period: str,
                   descending: bool, n: int, aggregate: str | None,
                   pick: tuple[str, bool] | None = None) -> dict[str, Any]:  # fmt: skip
    """The composed answer's title and columns; `pick` is a second cut (measure, descending)."""
    ko = plan.lang == "ko"
    order, label = _measure_label(plan, order_by, period), _measure_label(plan, measure, period)
    then = _measure_label(plan, pick[0], period) if pick else ""
    if plan.filter_first:  # '보수 0.1% 미만 ETF 중 …': said first
        kept = _condition(plan, plan.frame.operation.filter_measure or "")
        described += f" 중 {kept}" if ko else f" with {kept}"
    if ko:
        take = f"{n}위" if plan.position else f"상위 {n}개" if n > 1 else "1위"
        cut = f"{order} {'높은' if descending else '낮은'} 순 {take}"
        cut += f" 중 {then} {'높은' if pick[1] else '낮은'} {plan.pick_n}개" if pick else ""
        cut += f" 중 {_condition(plan, measure)}" if plan.keep_where else ""
        title = f"{described} 중 {cut} ETF의 {label}"
        title += f" {AGGREGATE_WORDS[aggregate][0]}: {{value}}" if aggregate else ": {value}"
        if aggregate == "count":  # how many of the cut meet the condition, not a count of fees
            title = f"{described} 중 {cut} ETF 개수: {{value}}"
    else:
        cut = (f"number {n} by {order}" if plan.position
               else f"{'top' if descending else 'bottom'} {n} by {order}")  # fmt: skip
        cut += (f", then the {'highest' if pick[1] else 'lowest'} {plan.pick_n if plan.pick_n > 1 else ''}"
                f"{' ' if plan.pick_n > 1 else ''}{then}," if pick else "")  # fmt: skip
        cut += f" with {_condition(plan, measure)}" if plan.keep_where else ""
        label = "ETFs" if aggregate == "count" else label
        title = (f"{AGGREGATE_WORDS[aggregate][1].capitalize()} {label} of the {cut} among "
                 f"{described}: {{value}}" if aggregate
                 else f"{label.capitalize()} of the {cut} among {described}: {{value}}")  # fmt: skip
    empty = tpl.no_values(plan.lang, described, order)
    return {"lang": plan.lang, "title": title, "measure": measure, "aggregate": aggregate,
            "n": n, "pick_among_ties": pick is not None, "pick_by": pick[0] if pick else None,
            "columns": list(dict.fromkeys([order_by, *([pick[0]] if pick else []), measure,
                                           *(["manager"] if plan.show_manager else [])])),
            "empty": empty, "note": notes_text(plan),
            "labels": {m: _measure_label(plan, m, period) for m in LABELS[plan.lang]}}  # fmt: skip


def groups_code(plan: Plan, _e: Any, _s: Any, tags: list[str]) -> str:
    """One figure per manager or theme ('운용사별 평균 보수'), or each group's best ETFs
    ('운용사별로 보수 가장 싼 ETF'), over the asked scope and filters."""
    assert plan.measure is not None
    op, measure, ko = plan.frame.operation, plan.measure, plan.lang == "ko"
    period = price_period(plan)
    rel, label = ("MANAGED_BY", "Company") if op.group_by == "manager" else ("TAGGED", "Tag")
    key = "manager" if op.group_by == "manager" else "theme"  # the group's column in the table
    scope, scoped = ("", "") if plan.only_groups else _holder_scope(plan, tags)
    cypher = f"MATCH (e:ETF)-[:{rel}]->(g:{label}){scope}\nRETURN {_RETURN}, g.name AS {key}"
    filter_measure = op.filter_measure if op.filter_measure in LABELS["ko"] else measure
    conditions = _conditions(plan, filter_measure)
    used = {measure} | {c[0] for c in conditions}
    body = (_table_lines(used, period, _where(conditions)) if _priced(used)
            else _filter_lines(conditions))  # fmt: skip
    descending = _descending(op.direction, op.comparator, measure)
    body += ["members_of = {}", "for r in rows:", f"    members_of.setdefault(r[{lit(key)}], []).append(r)",
             "groups = []", "for grp, rows in members_of.items():"]  # fmt: skip
    if op.kind == "rank":
        n = int(op.top_n or 1)
        body += [f"    rows = {_sorted(measure, descending)}[:{n}]",
                 "    groups.append({'group': grp, 'rows': rows, 'value': rows[0]"
                 f"[{lit(measure)}] if rows else None, 'n': len(members_of[grp])}})"]  # fmt: skip
    else:
        body += ["    " + line for line in _aggregate_lines(op.aggregate or "count", measure)]
        body.append("    groups.append({'group': grp, 'value': value, 'rows': [], 'n': len(rows)})")
    word = {"manager": ("운용사", "manager"), "tag": ("테마", "theme")}[op.group_by or "manager"]
    label = _measure_label(plan, measure, period)
    agg = AGGREGATE_WORDS[op.aggregate or "count"]
    condition = _condition(plan, filter_measure)
    if op.kind == "rank":
        what = (f"{label} {'높은' if descending else '낮은'} ETF", f"ETFs with the "
                f"{'highest' if descending else 'lowest'} {label}")  # fmt: skip
    elif op.aggregate == "count":
        what = ("ETF 수", "Number of ETFs")
    else:
        what = (f"{label} {agg[0]}", f"{agg[1].capitalize()} {label}")
    etf = "ETF " if scoped and not what[0].startswith("ETF") else ""  # '반도체' ETF 총보수 평균
    title = (f"{word[0]}별 {scoped}{etf}{what[0]}" + (f" ({condition})" if condition else "") if ko
             else f"{what[1]} by {word[1]}" + (f", {scoped}ETFs" if scoped else "")
             + (f" with {condition}" if condition else ""))  # fmt: skip
    spec = {"lang": plan.lang, "title": title, "measure": measure, "aggregate": op.aggregate,
            "descending": descending if op.group_first else descending or op.aggregate == "count",
            "ranked": op.kind == "rank", "first": op.group_first, "group_word": word[0 if ko else 1],
            "note": notes_text(plan), "what": what[0] if ko else what[1],
            "gap_of": plan.only_groups if plan.gap_of_groups else [],
            "total_of": plan.only_groups if plan.total_of_groups else []}  # fmt: skip
    if plan.only_groups:  # the managers named ('미래에셋 … 삼성 … 차이'), in the question's order
        body.append(f"groups = [g for name in {lit(plan.only_groups)} for g in groups "
                    "if g['group'] == name]")  # fmt: skip
    body.append(f"final_answer(render_groups(groups, {lit(spec)}))")
    return graph_code(plan, cypher, body)


_Threshold = tuple[str, str, float, str | None]  # measure, comparator, number, unit


def _conditions(plan: Plan, filter_measure: str) -> list[_Threshold]:
    """Every threshold of the frame on a measure a set holds: (measure, comparator, number,
    unit), the first on the filter's measure ('보수 0.1% 미만이고 순자산 1조 넘는')."""
    op = plan.frame.operation
    first: list[_Threshold] = [(filter_measure, op.comparator, op.threshold, op.threshold_unit)] if (
        op.comparator and op.threshold is not None) else []  # fmt: skip
    return first + [(c.measure, str(c.comparator), c.threshold, c.unit) for c in op.conditions
                    if c.measure in LABELS["ko"]]  # fmt: skip


def _filter_lines(conditions: list[_Threshold]) -> list[str]:
    return [f"rows = [r for r in rows if r.get({lit(field)}) is not None and r[{lit(field)}] "
            f"{_PY_COMPARATOR[comparator]} {_threshold_value(field, value, unit)!r}]"
            for field, comparator, value, unit in conditions]  # fmt: skip


def _reference_lines(plan: Plan) -> list[str]:
    """The ETF whose value is the bar ('KODEX 200보다 싼'): read beside the set, first, so the
    price lookups fill its value as they fill the others'."""
    ref = plan.frame.operation.threshold_of
    if ref is None:
        return ["ref_text = ''"]
    return [f"ref = {_one_etf(ref.key)}",
            f"rows = (ref if isinstance(ref, list) else []) + [r for r in rows if r['code'] != {lit(ref.key)}]"]  # fmt: skip


def _one_etf(code: str) -> str:
    """The sandbox expression reading one ETF's row as a set's rows are read."""
    return f'json.loads(graph_query(cypher="MATCH (e:ETF) WHERE e.code = {cypher_text(code)} RETURN {_RETURN}"))'


def _against_reference(plan: Plan, measure: str) -> list[str]:
    assert plan.frame.operation.threshold_of is not None
    op, key = plan.frame.operation, plan.frame.operation.threshold_of.key
    return [f"bar = next((r.get({lit(measure)}) for r in rows if r['code'] == {lit(key)}), None)",
            f"rows = [r for r in rows if r['code'] != {lit(key)} and bar is not None and "
            f"r.get({lit(measure)}) is not None and r[{lit(measure)}] {_PY_COMPARATOR[op.comparator or '<']} bar]",
            f"ref_text = fmt_measure({lit(measure)}, bar)"]  # fmt: skip


def _descending(direction: str | None, comparator: str | None, measure: str) -> bool:
    """The order asked for; unasked, fees list cheapest first and everything else largest first
    (a 'below' filter lists from the bottom)."""
    if direction:
        return direction != "asc"
    if comparator in ("<", "<="):
        return False
    return measure != "expense_ratio"


_WON_MEASURES = frozenset({"net_assets", "close", "trading_value"})


def _threshold_value(measure: str, threshold: float, unit: str | None) -> float:
    """A bar in the measure's own unit: amounts in won are read in 억 ('1만원' is 0.0001억); a
    bare net-assets bar is in 억 too."""
    if unit == "억" and measure in _WON_MEASURES or (measure == "net_assets" and unit is None):
        return threshold * 1e8
    return threshold


def _aggregate_lines(aggregate: str, measure: str) -> list[str]:
    values = f"values = [r[{lit(measure)}] for r in rows if r.get({lit(measure)}) is not None]"
    if aggregate == "count":
        return ["value = len(rows)"]
    if aggregate == "avg":
        return [values, "value = sum(values) / len(values) if values else None"]
    fn = aggregate if aggregate in ("sum", "max") else "min"
    return [values, f"value = {fn}(values) if values else None"]


def _condition(plan: Plan, measure: str) -> str:
    """The filter's conditions in words ('총보수 0.1% 미만 및 순자산총액 1조 초과')."""
    op = plan.frame.operation
    if op.threshold_of is not None and op.comparator:  # the bar is another ETF's value
        label, ref = LABELS[plan.lang][measure], op.threshold_of.name
        if plan.lang == "ko":
            lower = op.comparator in ("<", "<=")
            return f"{josa(label, '이/가')} {ref}({{ref}})보다 {'낮은' if lower else '높은'}"
        return f"{label} {'below' if op.comparator in ('<', '<=') else 'above'} {ref}'s ({{ref}})"
    if not op.comparator or op.threshold is None:
        return ""
    parts = [_one_condition(plan, measure, op.comparator, op.threshold, op.threshold_unit)]
    parts += [_one_condition(plan, c.measure, c.comparator, c.threshold, c.unit)
              for c in op.conditions if c.measure in LABELS[plan.lang]]  # fmt: skip
    return (" 및 " if plan.lang == "ko" else " and ").join(parts)


def _one_condition(plan: Plan, measure: str, comparator: str, threshold: float,
                   unit: str | None) -> str:  # fmt: skip
    if measure in ("from_high", "from_low") and threshold == 0:  # '52주 신고가': at the extreme
        period = period_words(plan.period or "1y", plan.lang)
        high = measure == "from_high"
        return (f"최근 종가가 {period} 최{'고' if high else '저'} 종가인 ETF" if plan.lang == "ko"
                else f"the last close at the {period} {'high' if high else 'low'}")  # fmt: skip
    unit = unit or ("%" if measure in ("expense_ratio", "weight", "return", "from_high", "from_low")
                    else "")  # fmt: skip
    word = COMPARATOR_WORDS[plan.lang][comparator]
    label = LABELS[plan.lang][measure]
    amount = bar_text(threshold, unit)
    if plan.lang == "ko":
        return f"{label} {amount} {word}"
    return f"{label} {word} {amount}"


def _measure_label(plan: Plan, measure: str, period: str) -> str:
    if measure == "weight" and plan.universe == "holders" and len(plan.stocks) > 1:
        return "합산 비중" if plan.lang == "ko" else "combined weight"  # the stocks' weights summed
    label = LABELS[plan.lang][measure]
    if period == "1d" and measure == "return":
        return f"전일 대비 {label}" if plan.lang == "ko" else f"1-day {label}"
    if period == "1d":  # '어제': the day's move, the rest over the week its bars come from
        period = "1w"
    if measure in _WINDOWED:
        return f"{period_words(period, plan.lang)} {label}"
    return label


def _set_spec(plan: Plan, described: str, measure: str, filter_measure: str,
              period: str) -> dict[str, Any]:  # fmt: skip
    op, ko = plan.frame.operation, plan.lang == "ko"
    condition = _condition(plan, filter_measure)
    ascending = not _descending(op.direction, op.comparator, measure)
    order = ("낮은 순" if ascending else "높은 순") if ko else (
        "lowest first" if ascending else "highest first")  # fmt: skip
    label = _measure_label(plan, measure, period)
    top = "" if op.kind != "rank" or not op.top_n else f" 상위 {op.top_n}개" if ko else f", top {op.top_n}"  # fmt: skip
    where = (f" 중 {condition}" if ko else f" with {condition}") if condition else ""
    title = (f"{described}{where} ({label} {order}{top}, {{n}}개):" if ko
             else f"{described}{where} ({label}, {order}{top}; {{n}}):")  # fmt: skip
    if plan.also:  # '질문한 ETF의 총보수 · 1년 수익률': every measure asked, nothing else
        labels = " · ".join(_measure_label(plan, m, period) for m in [measure, *plan.also])
        title = f"{described}의 {labels} ({{n}}개):" if ko else f"{labels} of {described} ({{n}}):"
    columns = [measure, *plan.also]
    columns += [filter_measure] if condition and filter_measure not in columns else []
    columns += [c.measure for c in op.conditions if c.measure in LABELS["ko"]
                and c.measure not in columns]  # every filtered measure is shown  # fmt: skip
    if "expense_ratio" not in columns and measure != "weight" and not plan.also:
        columns.append("expense_ratio")
    columns += ["manager"] if plan.show_manager else []
    empty = (f"{described} 중 조건({condition or label})에 맞는 ETF가 없습니다." if ko
             else f"No ETF among {described} meets the condition ({condition or label}).")  # fmt: skip
    return {"lang": plan.lang, "title": title, "columns": columns, "empty": empty,
            "labels": {m: _measure_label(plan, m, period) for m in LABELS[plan.lang]},
            "note": notes_text(plan)}  # fmt: skip


def _aggregate_spec(plan: Plan, described: str, measure: str, period: str) -> dict[str, Any]:
    op, ko = plan.frame.operation, plan.lang == "ko"
    condition = _condition(plan, op.filter_measure or measure)
    scope = described + ((f" 중 {condition}" if ko else f" with {condition}") if condition else "")
    label = _measure_label(plan, measure, period)
    words = AGGREGATE_WORDS[op.aggregate or "count"]
    counted = op.also_count and op.aggregate != "count"  # '몇 개고 평균 보수는?'
    if op.aggregate == "count":
        title = f"{scope}: {{value}}"
    elif ko:
        title = f"{scope}{' {count}개' if counted else ''}의 {label} {words[0]}: {{value}}"
    else:
        title = f"{words[1].capitalize()} {label} of {scope}{' ({count})' if counted else ''}: {{value}}"
    empty = tpl.no_values(plan.lang, scope, label)
    return {"lang": plan.lang, "title": title, "aggregate": op.aggregate or "count",
            "measure": measure, "empty": empty, "note": notes_text(plan)}  # fmt: skip


# ---------------------------------------------------------------- one ETF, two ETFs


def holding_weight_code(plan: Plan, etfs: list[Row], stocks: list[Row], _t: Any) -> str:
    etf, stock = etfs[0], stocks[0]
    cypher = _weight_cypher(etf, stock, plan.as_of)
    spec: dict[str, Any] = {"lang": plan.lang, "etf": etf["name"], "stock": stock["name"],
                            "code": stock["code"]}  # fmt: skip
    if plan.as_of:
        spec["missing"] = out_of_window_text(plan)
    render = f"render_holding_weight(rows[0] if rows else {{}}, {lit(spec)})"
    asked = plan.frame.operation.kind
    if plan.period in CHANGE_PERIODS and plan.period != "1d" and asked in ("compare", "change"):
        # '1달 전이랑 비교': the weight change from the holdings-changes tool over that period
        spec["since"] = period_words(plan.period, plan.lang)
        render = (f"render_holding_weight(rows[0] if rows else {{}}, dict({lit(spec)}, changes="
                  f"json.loads(get_holdings_changes(etf_code={lit(etf['code'])}, "
                  f"period={lit(plan.period)}))))")  # fmt: skip
    return graph_answer(plan, cypher, render)


def _latest_holdings(code: str, within: str = "") -> str:
    """Cypher: the ETF `code` (a literal) holds on its latest snapshot, the largest first."""
    return (f"MATCH (e:ETF {{code: {code}}})-[h:HOLDS]->(:Stock)\nWITH e, max(h.date) AS latest\n"
            f"MATCH (e)-[h:HOLDS]->(s:Stock)\nWHERE h.date = latest{within}\n"
            "RETURN {code: s.code, name: s.name, weight: h.weight, date: h.date}\n"
            "ORDER BY h.weight DESC")  # fmt: skip


def _weight_cypher(etf: Row, stock: Row, as_of: str | None = None) -> str:
    """The stock's weight in the ETF's latest holdings snapshot, or the last on or before a day
    asked ('1개월 전에는?')."""
    on_or_before = f"WHERE h.date <= {cypher_text(as_of)}\n" if as_of else ""
    return (f"MATCH (e:ETF {{code: {cypher_text(etf['code'])}}})-[h:HOLDS]->(:Stock)\n"
            f"{on_or_before}WITH e, max(h.date) AS latest\n"
            f"OPTIONAL MATCH (e)-[h2:HOLDS]->(s:Stock {{code: {cypher_text(stock['code'])}}})\n"
            "WHERE h2.date = latest\nRETURN {etf_code: e.code, date: latest, weight: h2.weight}")  # fmt: skip


def holdings_aggregate_code(plan: Plan, etfs: list[Row], *_: Any) -> str:
    etf, op = etfs[0], plan.frame.operation
    sector, sectors = _holdings_sector(plan)
    within = f" AND s.sector IN [{', '.join(cypher_text(x) for x in sectors)}]" if sectors else ""
    cypher = _latest_holdings(cypher_text(etf["code"]), within)
    # 'KODEX 200 구성종목 중 반도체 비중 합': the holdings of that sector, said in the title
    name = (f"{etf['name']} {sector} 업종" if plan.lang == "ko" else f"{etf['name']} ({sector})"
            ) if sector else etf["name"]  # fmt: skip
    spec = {"lang": plan.lang, "etf": name, "aggregate": op.aggregate or "sum", "within": plan.within,
            "smallest": op.direction == "asc", "place": plan.position,
            "top_n": op.top_n, "empty": tpl.no_holdings(plan.lang, name)}  # fmt: skip
    if plan.holdings_by:  # '보유종목 중 배당수익률 가장 높은 종목': each holding's own figure
        return _holdings_by_figure_code(plan, cypher, spec)
    render = f"render_holdings_aggregate(rows, {lit(spec)})"
    if plan.position and plan.measure in (*VALUATIONS, "return"):  # '1위 보유종목의 PBR'
        n, period = int(plan.position), plan.period if plan.period in _PERIODS else "1m"
        at = n - 1 if n > 0 else n  # -1: the last (the lightest) holding
        if plan.measure == "return":  # '1위 종목의 1년 수익률': that stock's own
            label = _measure_label(plan, "return", period)
            own = "의" if plan.lang == "ko" else "'s"
            said = (f"f\"{{rows[{at}]['name']}}{own} {label}: {{_figure_text('return', "
                    f"_stock_figure({{'prices': got}}, 'return'), True)}}\"")  # fmt: skip
        else:
            said = (
                f"render_valuation(got, rows[{at}]['name'], {lit(plan.lang)}, {lit(plan.measure)})"
            )
        return graph_code(plan, cypher, [
            f"if len(rows) < {abs(n)}:", f"    final_answer({render})",
            f"got = json.loads(get_stock_prices(stock_code=rows[{at}]['code'], "
            f"period={lit(period if plan.measure == 'return' else '1w')}))",
            f"final_answer(render_holdings_aggregate(rows, {lit(spec)}) + '\\n' + {said})"])  # fmt: skip
    returns = any(m.name == "return" for m in plan.frame.measures)
    of_returns = (returns and op.aggregate in ("avg", "max", "min")
                  and not any(m.name == "weight" for m in plan.frame.measures))  # fmt: skip
    if returns and (
        (op.aggregate == "list" and plan.frame.measure() != "holdings")
        or op.kind == "rank"  # '상위 3개 중 1개월 수익률 가장 높은 종목'
        or of_returns  # '보유종목 상위 5개의 평균 1개월 수익률'
    ):  # 'TIGER 200에 가장 많이 담긴 종목의 1개월 수익률': each listed holding's own return
        period = plan.period if plan.period in ("1w", "1m", "3m", "6m", "1y", "ytd") else "1m"
        spec["aggregate"], spec["return_label"] = "list", _measure_label(plan, "return", period)
        spec["return_stat"] = op.aggregate if of_returns else None
        plan.frame.notes.append(COMPOSED)  # holdings → top N → each one's return: all read
        if " 중" in plan.question:  # '상위 10종목 중 1개월 수익률 가장 높은 종목': the pick first
            spec["pick"] = pick_direction(plan.frame)
        render = f"render_holdings_aggregate(rows, {lit(spec)})"
        n = int(op.top_n or 10)  # the smallest weights are priced when they are listed
        kept = (f"sorted(rows, key=lambda r: float(r['weight']))[:{n}]"
                if spec["smallest"] and not spec.get("within") else f"rows[:{n}]")  # fmt: skip
        body = [f"for r in {kept}:",
                f"    got = json.loads(get_stock_prices(stock_code=r['code'], period={lit(period)}))",
                "    r['return'] = got.get('summary', {}).get('change_rate') if isinstance(got, dict) else None",
                f"final_answer({render})"]  # fmt: skip
        return graph_code(plan, cypher, body)
    if op.comparator and op.threshold is not None:  # '비중 5% 넘는 종목': filtered in the code
        spec["condition"] = _condition(plan, "weight")
        keep = f"r['weight'] {_PY_COMPARATOR[op.comparator]} {op.threshold!r}"
        render = (f"render_holdings_aggregate([r for r in rows if r.get('weight') is not None "
                  f"and {keep}], {lit(spec)})")  # fmt: skip
    return graph_answer(plan, cypher, render)


_PERIODS = ("1w", "1m", "3m", "6m", "1y", "ytd")  # the price tool's periods


def _holdings_by_figure_code(plan: Plan, cypher: str, spec: dict[str, Any]) -> str:
    """Every holding (or those of the cut) priced by the price tool, ordered by its figure."""
    order, read = str(plan.holdings_by), plan.measure
    period = plan.period if plan.period in _PERIODS else "1m"
    labels = {m: _measure_label(plan, m, period) if m == "return" else measure_name(m, plan.lang)
              for m in filter(None, (order, read))}  # fmt: skip
    spec.update(order=order, read=read, labels=labels, high=plan.frame.operation.direction != "asc")
    kept = f"rows[:{int(plan.within)}]" if plan.within else "rows"
    asked = period if "return" in (order, read) else "1w"  # a valuation needs no long window
    return graph_code(plan, cypher, [
        f"kept = {kept}", "for r in kept:",
        f"    got = json.loads(get_stock_prices(stock_code=r['code'], period={lit(asked)}))",
        "    r['prices'] = got if isinstance(got, dict) else {}",
        f"final_answer(render_holdings_by_figure(kept, {lit(spec)}))"])  # fmt: skip


def _holdings_sector(plan: Plan) -> tuple[str | None, list[str]]:
    """A theme named beside one ETF's holdings that is also a sector of stocks ('반도체',
    '금융'): the holdings are read within it (its data sectors: '기술' is IT, software …)."""
    for tag in plan.tags:
        spec = next((x for x in vocabulary()["sectors"] if x["key"] == tag.name), None)
        if spec:
            return tag.name, list(spec.get("data_sectors") or [tag.name])
    return None, []


def holdings_counts_code(plan: Plan, etfs: list[Row], *_: Any) -> str:
    """How many stocks each named ETF holds on its latest snapshot, the larger said first."""
    codes = ", ".join(cypher_text(e["code"]) for e in etfs[:3])
    cypher = (
        f"MATCH (e:ETF)-[h:HOLDS]->(:Stock)\nWHERE e.code IN [{codes}]\n"
        "WITH e, max(h.date) AS latest\nMATCH (e)-[h:HOLDS]->(s:Stock)\nWHERE h.date = latest\n"
        "RETURN e.code AS code, e.name AS name, count(s) AS holdings, latest AS date"
    )
    spec = {"lang": plan.lang, "names": {e["code"]: e["name"] for e in etfs[:3]},
            "fewer": pick_direction(plan.frame) == "asc"}  # fmt: skip
    return graph_answer(plan, cypher, f"render_holdings_counts(rows, {lit(spec)})")


def common_holdings_code(plan: Plan, etfs: list[Row], *_: Any) -> str:
    """The stocks two ETFs both hold (each on its latest snapshot) and how much they overlap."""
    a, b = etfs[0], etfs[1]
    cypher = (
        f"MATCH (a:ETF {{code: {cypher_text(a['code'])}}})-[h:HOLDS]->(:Stock)\n"
        "WITH a, max(h.date) AS da\n"
        f"MATCH (b:ETF {{code: {cypher_text(b['code'])}}})-[h2:HOLDS]->(:Stock)\n"
        "WITH a, da, b, max(h2.date) AS db\n"
        "MATCH (a)-[x:HOLDS]->(s:Stock)<-[y:HOLDS]-(b)\nWHERE x.date = da AND y.date = db\n"
        "RETURN {code: s.code, name: s.name, weight: x.weight, other_weight: y.weight, date: da, "
        "other_date: db}\n"
        "ORDER BY x.weight DESC"
    )
    spec = {"lang": plan.lang, "a": a["name"], "b": b["name"], "note": notes_text(plan)}
    return graph_answer(plan, cypher, f"render_common_holdings(rows, {lit(spec)})")


def difference_code(plan: Plan, etfs: list[Row], stocks: list[Row], _t: Any) -> str:
    """A − B of one figure of two ETFs; of a stock's weight, in each one's latest snapshot."""
    measure = plan.measure or "expense_ratio"
    a, b = etfs[0], etfs[1]
    stock = stocks[0] if measure == "weight" and stocks else None
    period = price_period(plan)
    label = (f"{stock['name']} {'비중' if plan.lang == 'ko' else 'weight'}" if stock
             else _measure_label(plan, measure, period))  # fmt: skip
    spec = {"lang": plan.lang, "measure": measure, "label": label, "note": notes_text(plan),
            "empty": tpl.tool_failed(plan.lang) + label}  # fmt: skip
    lines, pad = ["import json"], ""
    if stock:
        lines.append("values = {}")
        for etf in (a, b):
            lines += [f'rows = json.loads(graph_query(cypher="""\n{_weight_cypher(etf, stock)}\n"""))',
                      f"values[{lit(etf['code'])}] = rows[0].get('weight') if isinstance(rows, list) "
                      "and rows else None"]  # fmt: skip
        values = [f"values[{lit(e['code'])}]" for e in (a, b)]
    elif measure == "expense_ratio":
        lines += [f"rows = json.loads(compare_etfs(etf_codes={lit(a['code'] + ',' + b['code'])}))",
                  "if isinstance(rows, dict):",
                  f"    final_answer({lit(tpl.tool_failed(plan.lang))} + rows['error'])",
                  "else:", "    by_code = {r['code']: r for r in rows}"]  # fmt: skip
        values, pad = [f"by_code[{lit(e['code'])}]['expense_ratio']" for e in (a, b)], "    "
    else:
        window = period if measure in ("return", "volume", "volatility") else "1w"
        for var, etf in (("pa", a), ("pb", b)):
            lines.append(f"{var} = json.loads(get_etf_prices(etf_code={lit(etf['code'])}, "
                         f"period={lit(window)}))")  # fmt: skip
        key = lit(SUMMARY_FIELD[measure])
        values = [f"{v}.get('summary', {{}}).get({key})" for v in ("pa", "pb")]
    lines += [f"{pad}first = {{'name': {lit(a['name'])}, 'value': {values[0]}}}",
              f"{pad}second = {{'name': {lit(b['name'])}, 'value': {values[1]}}}",
              f"{pad}final_answer(render_difference(first, second, {lit(spec)}))"]  # fmt: skip
    return tpl.inline("\n".join(lines))


def _since_before(day: str) -> str:
    """A price window from ten days before `day` to the latest bar ('since:…'): the day, or a
    span from it, and the close before it, however long ago."""
    return fig.SINCE + (date.fromisoformat(day) - timedelta(days=10)).isoformat()


def out_of_window_text(plan: Plan) -> str:
    """What is said of a past day (or month) the price tool's year does not reach (the turn is
    partial)."""
    when = plan.span.label(plan.lang) if plan.span else plan.as_of
    if plan.intent == "holding_weight":  # a day before the first holdings snapshot
        return (f"{when}의 값은 보유종목 스냅샷이 없는 날이라 답할 수 없습니다." if plan.lang == "ko"
                else f"{when} is before the first holdings snapshot.")  # fmt: skip
    return (f"{when}의 값은 가격 데이터 범위 밖이라 답할 수 없습니다." if plan.lang == "ko"
            else f"{when} is outside the price data.")  # fmt: skip


def measure_code(plan: Plan, etfs: list[Row], *_: Any) -> str:
    etf = etfs[0]
    # a trading value said alone is the last session's, as a volume is ('KODEX 200 거래대금')
    windowed = plan.measure == "return" or plan.days
    if plan.days and plan.frame.statistic is None:
        mark_used(plan.frame)  # the N sessions' values ('최근 5일 종가': '5일' is read)
    period = price_period(plan) if windowed else "1w"
    if plan.as_of:  # a window from just before the day asked; the day is picked from it
        period = "1y" if windowed else _since_before(plan.as_of)
    if plan.measure == "return" and not plan.period:
        plan.unanswered.append("기간이 없어 최근 1개월로 계산했습니다." if plan.lang == "ko"
                               else "No period given: the last month was used.")  # fmt: skip
    shown = "1y" if period.startswith(fig.SINCE) else period  # a past day's own window
    spec = {"lang": plan.lang, "name": etf["name"], "measure": plan.measure,
            "period_ko": window_words(shown)[0],
            "period_en": window_words(shown)[1], "note": notes_text(plan),
            "empty": tpl.tool_failed(plan.lang) + etf["name"], "days": plan.days,
            "as_of": plan.as_of,
            "out_of_window": out_of_window_text(plan)}  # fmt: skip
    return tool_code(
        plan,
        f"get_etf_prices(etf_code={lit(etf['code'])}, period={lit(period)})",
        f"render_measure(result, {lit(spec)})",
    )


def window_code(plan: Plan, etfs: list[Row], stocks: list[Row], *_: Any) -> str:
    """One statistic over one window of one ETF's (or stock's) daily figure ('최근 2주 거래량
    합계', '20거래일 종가 변동성', '가장 많이 오른 날'): the price tool computes it
    (data_access.figures) and words it as the stock and Macro screens do (window_answer.describe)."""
    ask, etf, frame = plan.window, (etfs or stocks)[0], plan.frame
    assert ask is not None
    mark_used(frame)
    if etfs and frame.stat_field in ("high", "low", "high_low"):
        plan.unanswered.append("ETF 시세에는 장중 고가·저가가 없어 종가 기준으로 계산했습니다."
                               if plan.lang == "ko" else "ETF prices are closes only: computed "
                               "on the closes.")  # fmt: skip
    bar = f", bar={ask.threshold!r}" if ask.stat in fig.BAR_DAYS else ""  # '6만원 넘은 날'
    span = plan.span if plan.intent == "etf_window" else None  # '작년 최대 낙폭': its own days
    where = (f"span={lit(span.first + '~' + span.last)}" if span
             else f"sessions={ask.window.n}, unit={lit(ask.window.unit)}")  # fmt: skip
    tool = "get_etf_prices(etf_code" if etfs else "get_stock_prices(stock_code"
    call = (f"{tool}={lit(etf['code'])}, statistic={lit(ask.stat)}, {where}, "
            f"field={lit(plan.measure)}{bar})")  # fmt: skip
    suffix = _note_suffix(plan)
    if ask.stat in ("max", "min", "extremes", "max_move", "min_move") and not (
            frame.window or frame.period or frame.span):  # fmt: skip
        suffix += ("\n\n기간이 없어 최근 3개월로 조회했습니다." if plan.lang == "ko"
                   else "\n\nNo period given: the last 3 months were used.")  # fmt: skip
    text = f"result['window'][{lit('text' if plan.lang == 'ko' else 'text_en')}]"
    if span:  # the tool names the span by its days, the answer by the name asked ('2025년')
        said = (
            f"{span.first} ~ {span.last}" if plan.lang == "ko" else f"{span.first} to {span.last}"
        )
        text += f".replace({lit(said)}, {lit(span.label(plan.lang))}, 1)"
    if len(etfs) > 1:  # 'KODEX 레버리지와 KODEX 인버스 2개월 최대 낙폭': each one's, one per line
        lines = ["import json", "texts = []"]
        for other in etfs:
            failed = lit(tpl.tool_failed(plan.lang) + other["name"])
            lines += [f"result = json.loads({call.replace(lit(etf['code']), lit(other['code']))})",
                      f"texts.append({text} if isinstance(result, dict) "
                      f"and result.get('window') else {failed})"]  # fmt: skip
        return "\n".join([*lines, f"final_answer('\\n'.join(texts) + {lit(_note_suffix(plan))})"])
    yes, no = ("예 — ", "아니요 — ") if plan.lang == "ko" else ("Yes — ", "No — ")
    lead = f"({lit(yes)} if result['window']['value'] else {lit(no)}) + " if ask.ever else ""
    failed = out_of_window_text(plan) if span else tpl.tool_failed(plan.lang) + etf["name"]
    return tool_code(plan, call, f"({lead}{text} + {lit(suffix)}) "
                     f"if result.get('window') else {lit(failed)}")  # fmt: skip


def ranked_changes_code(plan: Plan, etfs: list[Row]) -> str:
    """'비중이 가장 많이 늘어난 종목': holdings changes ordered by the weight change."""
    op, etf = plan.frame.operation, etfs[0]
    period = plan.period if plan.period in CHANGE_PERIODS else "1m"
    if plan.period not in (None, *CHANGE_PERIODS):
        plan.unanswered.append("보유종목 변화 도구는 최대 1년까지만 비교해 1개월로 조회했습니다."
                               if plan.lang == "ko" else "Holdings changes go back one year at most.")  # fmt: skip
    falling = any(w in plan.question for w in ("줄어", "작아", "감소", "decrease", "fell"))
    descending = not falling and op.direction != "asc"
    n = int(op.top_n or 5)
    ko = plan.lang == "ko"
    word = ("감소" if falling else "증가") if ko else ("decrease" if falling else "increase")
    head = (f"{etf['name']} 최근 {period_words(period, 'ko')} 비중 {word} 상위 {n}개 종목:" if ko
            else f"{etf['name']}: top {n} holdings by weight {word} over {period_words(period, 'en')}:")  # fmt: skip
    lines = ["import json",
             f"rows = json.loads(get_holdings_changes(etf_code={lit(etf['code'])}, period={lit(period)}))",
             "if isinstance(rows, dict):",
             f"    final_answer({lit(tpl.tool_failed(plan.lang))} + rows['error'])",
             "else:",
             "    for r in rows:",
             "        r['delta'] = (r.get('new_weight') or 0) - (r.get('old_weight') or 0)",
             f"    rows = sorted(rows, key=lambda r: r['delta'], reverse={descending!r})[:{n}]",
             "    lines = [f\"{i}. {r['stock_name']}({r['stock_code']}): {r.get('old_weight') or 0:.2f}% → "
             "{r.get('new_weight') or 0:.2f}% ({r['delta']:+.2f}%p)\" for i, r in enumerate(rows, 1)]",
             f"    final_answer({lit(head)} + '\\n' + '\\n'.join(lines) + {lit(_note_suffix(plan))})"]  # fmt: skip
    return "\n".join(lines)


def _note_suffix(plan: Plan) -> str:
    note = notes_text(plan)
    return "\n\n" + note if note else ""


def attribution_code(plan: Plan, etfs: list[Row], *_: Any) -> str:
    """'KODEX 반도체 왜 떨어졌어?': the ETF's return over the window and, for each of its ten
    largest holdings (latest snapshot), weight × the stock's return over the same window: the
    holdings that moved it, computed in the sandbox."""
    etf = etfs[0]
    period = price_period(plan)
    if not plan.period:
        plan.unanswered.append("기간이 없어 최근 1개월로 계산했습니다." if plan.lang == "ko"
                               else "No period given: the last month was used.")  # fmt: skip
    cypher = _latest_holdings(cypher_text(etf["code"])) + " LIMIT 10"
    spec = {"lang": plan.lang, "etf": etf["name"], "window_ko": window_words(period)[0],
            "window_en": window_words(period)[1], "asked": asked_move(plan.question),
            "note": notes_text(plan), "empty": tpl.tool_failed(plan.lang) + etf["name"]}  # fmt: skip
    body = [
        f"fund = json.loads(get_etf_prices(etf_code={lit(etf['code'])}, period={lit(period)}))",
        "for r in rows:",
        f"    got = json.loads(get_stock_prices(stock_code=r['code'], period={lit(period)}))",
        "    summary = got.get('summary') if isinstance(got, dict) else None",
        "    r['return'] = summary.get('change_rate') if summary else None",
        "    if r['return'] is not None and r.get('weight') is not None:",
        "        r['contribution'] = r['weight'] * r['return'] / 100",
        f"final_answer(render_attribution(fund, rows, {lit(spec)}))",
    ]
    return graph_code(plan, cypher, body)


def month_code(plan: Plan, etfs: list[Row], *_: Any) -> str:
    """'분기별 수익률', '월별 평균 종가': one figure per calendar period of one ETF's year of
    prices (a span named whole is a window statistic: `window_code`)."""
    etf = etfs[0]
    spec = {"lang": plan.lang, "name": etf["name"], "per": plan.per, "field": plan.measure,
            "aggregate": per_period_stat(plan.frame), "note": notes_text(plan),
            "pick": period_pick(plan.frame)}  # fmt: skip
    return tool_code(plan, f"get_etf_prices(etf_code={lit(etf['code'])}, period='1y')",
                     f"render_per_period(result.get('daily') or [], {lit(spec)})")  # fmt: skip


FRAME_BUILDERS: dict[str, Any] = {
    "etf_month": month_code,
    "etf_set": etf_set_code,
    "etf_composed": composed_code,
    "etf_groups": groups_code,
    "holding_weight": holding_weight_code,
    "holdings_aggregate": holdings_aggregate_code,
    "etf_difference": difference_code,
    "common_holdings": common_holdings_code,
    "holdings_counts": holdings_counts_code,
    "etf_measure": measure_code,
    "etf_window": window_code,
    "etf_attribution": attribution_code,
}
