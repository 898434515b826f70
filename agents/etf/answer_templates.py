"""Answer templates of the offline planner, in Korean and English.

The `render_*` functions are inlined (by their source) into the code the planner writes, so
they run inside smolagents' sandboxed executor: they may use only builtins — no imports, no
helpers outside their own body, annotations with builtin types only.
"""

from __future__ import annotations

import inspect
import re
from functools import cache, lru_cache

from agents.etf.set_answers import SET_RENDERERS, fmt_krw, josa

# ---------------------------------------------------------------- plain sentences


def unsupported(lang: str) -> str:
    if lang == "ko":
        return (
            "죄송합니다. 오프라인 플래너는 이 질문을 이해하지 못했습니다. 다음과 같은 질문에 답할 수 "
            "있습니다:\n- ETF 정보 (예: KODEX 200 알려줘)\n- ETF·종목 가격 추이 (예: TIGER 200 3개월 "
            "가격 추이, 삼성전자 1개월 주가)\n- 보유종목 변화 (예: KODEX 반도체 1주 보유종목 변화)\n"
            "- 유사 ETF (예: KODEX 200과 비슷한 ETF)\n- ETF 비교 2~3개 (예: KODEX 200과 TIGER 200 "
            "비교)\n- 종목을 많이 보유한 ETF (예: 삼성전자를 가장 많이 보유한 ETF)\n- 두 종목을 "
            "동시에 보유한 ETF\n- 태그별 보수율 낮은 ETF (예: 반도체 ETF 보수율 낮은 순)\n- 태그 목록, "
            "운용사별 ETF (예: 미래에셋자산운용 ETF 목록)\nETF·종목 이름은 데이터에 있는 그대로 써 주세요."
        )
    return (
        "Sorry, the offline planner did not understand this question. It can answer: ETF info "
        "(e.g. 'Tell me about KODEX 200'), ETF or stock price trends ('TIGER 200 price over 3 "
        "months'), holdings changes ('KODEX 200 holdings changes this week'), similar ETFs, "
        "comparisons of 2-3 ETFs, the ETFs holding a stock most ('Which ETFs hold the most Samsung "
        "Electronics?'), ETFs holding two stocks, the cheapest ETFs of a theme ('semiconductor ETFs "
        "with the lowest fees'), the tag list and a manager's ETFs."
    )


def tool_failed(lang: str) -> str:
    return "조회에 실패했습니다: " if lang == "ko" else "The lookup failed: "


def no_values(lang: str, scope: str, label: str) -> str:
    """A set whose figures came back empty: nothing answered, so the turn is not `ok`."""
    return (f"{scope}에서 {label} 값을 찾지 못했습니다." if lang == "ko"
            else f"No {label} values found for {scope}.")  # fmt: skip


NO_VALUES = re.compile(r"^\S.*에서 .* 값을 찾지 못했습니다\.$|^No .* values found for .*\.$")


def no_holdings(lang: str, name: str) -> str:
    """An ETF the data holds without a holdings snapshot (a CD-rate fund holds no stocks)."""
    if lang == "ko":
        return f"{josa(name, '은/는')} 데이터에 보유종목 스냅샷이 없습니다 (종목을 담지 않는 ETF일 수 있습니다)."
    return f"The data has no holdings snapshot for {name} (it may hold no stocks)."


def not_found(lang: str, name: str, suggestions: list[dict]) -> str:
    names = ", ".join(f"{s['name']}({s['code']})" for s in suggestions[:5])
    if lang == "ko":
        tail = f" 비슷한 이름: {names}." if names else ""
        return f"'{name}'{josa(name, '을/를')[len(name) :]} 데이터에서 찾지 못했습니다.{tail}"
    tail = f" Closest matches: {names}." if names else ""
    return f"Could not find '{name}' in the data.{tail}"


def stock_lookup(lang: str, stock: dict) -> str:
    if lang == "ko":
        return f"{stock['name']}의 종목코드는 {stock['code']}입니다."
    return f"The code of {stock['name']} is {stock['code']}."


# ---------------------------------------------------------------- inlined renderers


def render_info(info: dict, name: str, lang: str) -> str:
    def pct(v: float | None) -> str:
        return "-" if v is None else f"{v:+.2f}%"

    ret = info.get("returns", {})
    tops = [f"{h['stock_name']} {h['weight']:.2f}%" for h in info.get("top_holdings", [])]
    tags = ", ".join(info.get("tags", [])) or "-"
    if lang == "ko":
        return (
            f"**{info['name']} ({info['code']})**\n"
            f"- 운용사: {info.get('company') or '-'}\n"
            f"- 총보수: 연 {info['expense_ratio']}%\n"
            f"- 기초지수: {info.get('benchmark') or '-'} · 상장일: {info.get('listed_date') or '-'}\n"
            f"- 태그: {tags}\n"
            f"- 수익률: 1주 {pct(ret.get('1w'))}, 1개월 {pct(ret.get('1m'))}, "
            f"3개월 {pct(ret.get('3m'))}\n"
            f"- 상위 보유종목 (최신 스냅샷): {', '.join(tops) or '-'}"
        )
    return (
        f"**{info['name']} ({info['code']})**\n"
        f"- Manager: {info.get('company') or '-'}\n"
        f"- Expense ratio: {info['expense_ratio']}% a year\n"
        f"- Benchmark: {info.get('benchmark') or '-'} · listed: {info.get('listed_date') or '-'}\n"
        f"- Tags: {tags}\n"
        f"- Returns: 1w {pct(ret.get('1w'))}, 1m {pct(ret.get('1m'))}, 3m {pct(ret.get('3m'))}\n"
        f"- Top holdings (latest snapshot): {', '.join(tops) or '-'}"
    )


def render_info_lead(info: dict, name: str, lang: str, asked: str) -> str:
    """The asked fact in one sentence ('KODEX 200 상장일 언제야?'), then the whole card."""
    value = {"expense_ratio": f"{info.get('expense_ratio')}%", "listed_date": info.get("listed_date"),
             "benchmark": info.get("benchmark"), "manager": info.get("company")}.get(asked)  # fmt: skip
    words = {"expense_ratio": ("총보수는 연", "expense ratio is"),
             "listed_date": ("상장일은", "listing date is"),
             "benchmark": ("기초지수는", "benchmark is"),
             "manager": ("운용사는", "manager is")}.get(asked)  # fmt: skip
    card = render_info(info, name, lang)
    if not value or not words:
        return card
    lead = (f"{info['name']}의 {words[0]} {value}입니다." if lang == "ko"
            else f"{info['name']}'s {words[1]} {value}.")  # fmt: skip
    return lead + "\n\n" + card


def render_similar(rows: list[dict], name: str, lang: str) -> str:
    lines = [
        f"{i}. {r['name']} ({r['etf_code']}): {r['similarity']:.2f}% / {r['overlap']}"
        for i, r in enumerate(rows[:5], 1)
    ]
    if not rows:
        return (f"{josa(name, '과/와')} 보유종목이 겹치는 ETF가 없습니다." if lang == "ko"
                else f"No ETF shares holdings with {name}.")  # fmt: skip
    if lang == "ko":
        head = (
            f"{josa(name, '과/와')} 보유종목 비중이 가장 비슷한 ETF입니다 (유사도 = 공통 종목별 "
            "작은 비중의 합 % / 공통 종목 수):"
        )
    else:
        head = (
            f"ETFs whose holdings overlap most with {name} (similarity = sum of the smaller "
            "weight of each shared stock, % / shared stocks):"
        )
    return head + "\n" + "\n".join(lines)


def render_similar_returns(rows: list[dict], name: str, lang: str) -> str:
    """ETFs whose daily returns moved most like the named one's (correlation, the window)."""
    if not rows:
        return (f"{josa(name, '과/와')} 20거래일 이상 함께 거래된 ETF가 없어 상관계수를 계산할 수 없습니다."
                if lang == "ko" else f"No ETF traded alongside {name} for 20 days or more.")  # fmt: skip
    span = f"{rows[0]['start_date']} {'~' if lang == 'ko' else 'to'} {rows[0]['end_date']}"
    lines = [f"{i}. {r['name']} ({r['etf_code']}): {r['correlation']:.3f} ({r['days']}일)"
             if lang == "ko" else f"{i}. {r['name']} ({r['etf_code']}): {r['correlation']:.3f} "
             f"({r['days']} days)" for i, r in enumerate(rows[:5], 1)]  # fmt: skip
    if lang == "ko":
        head = (
            f"{josa(name, '과/와')} 일간 수익률이 가장 비슷하게 움직인 ETF입니다 (상관계수, {span}; "
            "1에 가까울수록 같은 날 같은 방향으로 움직임 — 움직임의 크기는 다를 수 있어 레버리지 "
            "ETF도 1에 가깝습니다):"
        )
    else:
        head = (
            f"ETFs whose daily returns moved most like {name}'s (correlation, {span}; near "
            "1 means up and down on the same days — not by the same amount: a leveraged "
            "fund scores near 1 too):"
        )
    return head + "\n" + "\n".join(lines)


def render_changes(rows: list[dict], name: str, lang: str, kind: str = "", since: str = "") -> str:
    """The holdings changes with the count of each kind; only the kind asked for ('새로 들어온
    종목', '비중 늘어난 종목': the largest moves first), none of it said with the counts of the
    other kinds so the answer is not mistaken for 'no data'."""
    ko = lang == "ko"
    words = {"added": "신규 편입", "removed": "제외(편출)", "increased": "비중 증가",
             "decreased": "비중 감소"}  # fmt: skip
    picked = [r for r in rows if r["change_type"] == kind] if kind else rows
    if kind in ("increased", "decreased"):
        picked.sort(
            key=lambda r: abs((r["new_weight"] or 0) - (r["old_weight"] or 0)), reverse=True
        )
    counts = ", ".join(f"{words[k] if ko else k} {sum(1 for r in rows if r['change_type'] == k)}"
                       for k in words if k != kind)  # fmt: skip
    if not picked:
        if not kind:
            return f"{name}의 보유종목 변화가 없습니다." if ko else f"No holdings changes for {name}."  # fmt: skip
        return (f"{name}: {since} {words[kind]} 종목은 없습니다 (그 밖의 변화: {counts})." if ko
                else f"{name}: no holdings {kind} {since} (other changes: {counts}).")  # fmt: skip
    lines = []
    for r in picked[: 15 if kind else 10]:
        old = "-" if r["old_weight"] is None else f"{r['old_weight']:.2f}%"
        new = "-" if r["new_weight"] is None else f"{r['new_weight']:.2f}%"
        said = "" if kind else " " + (words[r["change_type"]] if ko else r["change_type"])
        lines.append(f"- {r['stock_name']}({r['stock_code']}){said}: {old} → {new}")
    if kind:
        head = (f"{name} {since} {words[kind]} 종목 {len(picked)}개:" if ko
                else f"{name}: {len(picked)} holdings {kind} {since}:")  # fmt: skip
    else:
        head = f"{name} 보유종목 변화 ({counts}):" if ko else f"{name} holdings changes ({counts}):"
    return head + "\n" + "\n".join(lines)


def render_prices(result: dict, name: str, lang: str) -> str:
    s = result.get("summary", {})
    labels = {"1w": "1주", "1m": "1개월", "3m": "3개월", "6m": "6개월", "1y": "1년"}
    volume = "-" if s.get("avg_volume") is None else f"{s['avg_volume']:,}"  # NULL if imported
    if not s.get("data_count"):
        return f"{name}의 가격 데이터가 없습니다." if lang == "ko" else f"No prices for {name}."
    if lang == "ko":
        text = (
            f"{name}의 {labels.get(s['period'], s['period'])} 가격 추이 ({s['start_date']} ~ {s['end_date']}, "
            f"{s['data_count']}거래일): 종가 {s['start_close']:,} → {s['end_close']:,} "
            f"({s['change_rate']:+.2f}%), 고가 {s['high']:,}, 저가 {s['low']:,}, "
            f"평균 거래량 {volume}주."
        )
        if s.get("latest_net_assets"):
            text += f" 최근 순자산총액 {fmt_krw(float(s['latest_net_assets']))}."
        return text
    text = (
        f"{name} over {s['period']} ({s['start_date']} to {s['end_date']}, {s['data_count']} "
        f"trading days): close {s['start_close']:,} → {s['end_close']:,} "
        f"({s['change_rate']:+.2f}%), high {s['high']:,}, low {s['low']:,}, average volume "
        f"{volume}."
    )
    if s.get("latest_net_assets"):
        text += f" Latest net assets: KRW {s['latest_net_assets'] / 100000000:,.0f} hundred million."  # fmt: skip
    return text


def render_valuation(result: dict, name: str, lang: str, measure: str) -> str:
    """A stock's PER, PBR, EPS, dividend yield or market cap from its last valuation snapshot."""
    v = result.get("valuation") or {}
    column = {"per": "pe", "pbr": "pb"}.get(measure, measure)
    ko = lang == "ko"
    label = {"per": "PER", "pbr": "PBR", "eps": "EPS", "dividend_yield": "배당수익률" if ko else "dividend yield",
             "market_cap": "시가총액" if ko else "market cap"}[measure]  # fmt: skip
    value = v.get(column)
    if value is None:
        return f"{name}의 {label} 데이터가 없습니다." if ko else f"No {label} for {name}."
    won = str(result.get("summary", {}).get("stock_code", "")).isdigit()  # a Korean code: KRW
    if measure in ("per", "pbr"):
        text = f"{value:,.2f}배" if ko else f"{value:,.2f}x"
    elif measure == "dividend_yield":
        text = f"{value:.2f}%"
    elif measure == "market_cap":
        text = fmt_krw(value) if won else f"{value / 1e9:,.1f}B USD"
    else:
        text = f"{value:,.0f}원" if won else f"{value:,.2f} USD"
    if ko:
        return f"{name}의 {josa(label, '은/는')} {text}입니다 (밸류에이션 스냅샷 {v.get('as_of_date')} 기준)."
    return f"{name}'s {label} is {text} (valuation snapshot of {v.get('as_of_date')})."


def render_compare(rows: list[dict], name: str, lang: str) -> str:
    def pct(v: float | None) -> str:
        return "-" if v is None else f"{v:+.2f}%"

    ko = lang == "ko"
    header = "| 항목 | " if ko else "| Item | "
    header += " | ".join(r["name"] for r in rows) + " |"
    lines = [header, "|" + " --- |" * (len(rows) + 1)]
    fields = [
        ("코드" if ko else "Code", [r["code"] for r in rows]),
        ("운용사" if ko else "Manager", [r.get("company") or "-" for r in rows]),
        ("총보수" if ko else "Expense ratio", [f"{r['expense_ratio']}%" for r in rows]),
        ("1개월 수익률" if ko else "1m return", [pct(r.get("return_1m")) for r in rows]),
        (
            "순자산" if ko else "Net assets",  # '4조 6,695억 원', as every other answer writes it
            [fmt_krw(r["latest_net_assets"]) if r.get("latest_net_assets") else "-" for r in rows],
        ),
        ("태그" if ko else "Tags", [", ".join(r.get("tags", [])) or "-" for r in rows]),
        (
            "상위 보유종목" if ko else "Top holdings",
            [
                ", ".join(h["stock_name"] for h in r.get("top_holdings", [])[:3]) or "-"
                for r in rows
            ],
        ),
    ]
    lines += [f"| {label} | " + " | ".join(values) + " |" for label, values in fields]
    low_fee = min(r["expense_ratio"] for r in rows)
    cheapest = [r["name"] for r in rows if r["expense_ratio"] == low_fee]
    ranked = [r for r in rows if r.get("return_1m") is not None]
    best = max(ranked, key=lambda r: r["return_1m"]) if ranked else None
    names = [r["name"] for r in rows]
    title = " vs ".join(names)
    tie = len(cheapest) > 1  # equal fees: name none of them the cheapest
    if ko:
        notes = (f"총보수는 {'·'.join(cheapest)} 모두 {low_fee}%로 같습니다." if tie
                 else f"보수율이 가장 낮은 ETF는 {cheapest[0]}({low_fee}%)입니다.")  # fmt: skip
        if best:  # every one fell: the best is the one that fell least, said so
            said = "가장 덜 내렸습니다" if best["return_1m"] < 0 else "가장 높습니다"
            notes += f" 최근 1개월 수익률은 {josa(best['name'], '이/가')} {pct(best['return_1m'])}로 {said}."
        both = f"{josa(names[0], '과/와')} {names[1]}" if len(names) == 2 else "·".join(names)
        return f"## {both} 비교\n" + "\n".join(lines) + "\n\n" + notes
    notes = (f"Same expense ratio for {' and '.join(cheapest)}: {low_fee}%." if tie
             else f"Lowest expense ratio: {cheapest[0]} ({low_fee}%).")  # fmt: skip
    if best:
        said = "Smallest 1-month fall" if best["return_1m"] < 0 else "Best 1-month return"
        notes += f" {said}: {best['name']} ({pct(best['return_1m'])})."
    return f"## {title}\n" + "\n".join(lines) + "\n\n" + notes


def render_tags(rows: list[dict], name: str, lang: str) -> str:
    items = ", ".join(f"{r['name']}({r['count']})" for r in rows)
    if lang == "ko":
        return f"등록된 태그는 {len(rows)}개입니다 (괄호 안은 ETF 수): {items}"
    return f"There are {len(rows)} tags (ETF count in brackets): {items}"


RENDERERS = {
    fn.__name__: fn
    for fn in (
        *SET_RENDERERS,
        render_info,
        render_info_lead,
        render_similar,
        render_similar_returns,
        render_changes,
        render_prices,
        render_valuation,
        render_compare,
        render_tags,
    )  # fmt: skip
}


def inline(code: str) -> str:
    """`code` preceded by the source of every renderer it calls, and of the helpers those call
    (helpers first, so each name exists before it is used in the sandbox)."""
    return _sources(frozenset(m.group(1) for m in _CALLS.finditer(code))) + code


# A call of any renderer: its name (longest first), then '('
_CALLS = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, RENDERERS), key=len, reverse=True)) + r")\("
)


@lru_cache(maxsize=64)
def _sources(called: frozenset[str]) -> str:
    """The renderers `called` and the helpers they call, as one block of source: read once per
    process (`inspect.getsource` reads and tokenizes the module file each time)."""
    used = list(called)
    pending = [_source(name) for name in used]
    while pending:
        text = pending.pop()
        for name in {m.group(1) for m in _CALLS.finditer(text)} - set(used):
            used.append(name)
            pending.append(_source(name))
    sources = [_source(name) for name in RENDERERS if name in used]  # helpers come first
    return "\n".join(sources) + ("\n" if sources else "")


@cache
def _source(name: str) -> str:
    return inspect.getsource(RENDERERS[name])
