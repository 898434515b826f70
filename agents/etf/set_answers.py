"""Renderers for answers computed from a question frame: sets of ETFs (filtered, ranked,
aggregated), one holding's weight, a difference between two ETFs, a max/min over a window.

Like `answer_templates`, they are inlined by source into the sandboxed code, so they use only
builtins and the formatting helpers here (`fmt_measure`, `fmt_krw`, `half_up`), which the
inliner adds with them. Numbers are written as an analyst writes
them: 억/조 원 for large KRW amounts, %p for differences of rates, the date of every figure.
"""

from __future__ import annotations

from agents.verdict import meets, verdict
from agents.window_answer import per_period_text
from data_access.figures import fmt_krw, per_period
from data_access.seed.news_text import has_batchim, josa

# the price summary's field (get_etf_prices) each set measure is read from
SUMMARY_FIELD = {"return": "change_rate", "net_assets": "latest_net_assets", "close": "end_close",
                 "volume": "avg_volume", "volatility": "volatility", "trading_value": "trading_value",
                 "premium": "latest_premium"}  # fmt: skip


def with_note(text: str, spec: dict) -> str:
    """An answer with the spec's note (what was asked and not done), a paragraph apart."""
    return text + ("\n\n" + spec["note"] if spec.get("note") else "")


def half_up(x: float, places: int) -> float:
    """x rounded half up, as an analyst (and SQL's round) rounds: an average of 0.32025 is
    0.3203, though the float nearest it is a hair below. Builtins only (inlined into the
    sandbox): a nudge far below the data's own precision tips an exact half the right way."""
    return round(x + (1e-9 if x >= 0 else -1e-9), places)


def fmt_measure(measure: str, v: object) -> str:
    """One figure of a measure in its unit (fees as stored percents, weights, returns, KRW)."""
    if v is None:
        return "-"
    if measure == "manager":
        return str(v)
    x = float(v)  # type: ignore[arg-type]
    if measure == "expense_ratio":
        return f"{half_up(x, 4):g}%"
    if measure in ("weight", "premium", "volatility"):
        return f"{half_up(x, 2):.2f}%"
    if measure == "volume_surge":
        return f"{half_up(x, 2):.2f}x"
    if measure in ("return", "from_high", "from_low"):
        return f"{half_up(x, 2):+.2f}%"
    if measure in ("net_assets", "market_cap", "trading_value"):
        return fmt_krw(x)
    if measure == "close":
        return f"{x:,.0f}원"
    if measure == "volume":
        return f"{x:,.0f}주"
    return f"{x:,.2f}"


def render_etf_set(rows: list, spec: dict, tied: list | None = None) -> str:
    ko = spec["lang"] == "ko"
    labels = spec["labels"]
    shown = spec["columns"]
    if not rows:
        return spec["empty"]
    lines = []
    for i, r in enumerate(rows[: spec.get("max_lines", 40)], 1):
        values = ", ".join(f"{labels[m]} {fmt_measure(m, r.get(m))}" for m in shown)
        lines.append(f"{i}. {r['name']} ({r['code']})" + (f": {values}" if values else ""))
    more = len(rows) - len(lines)
    if more > 0:
        lines.append(f"… 외 {more}개" if ko else f"… and {more} more")
    text = spec["title"].replace("{n}", str(len(rows))) + "\n" + "\n".join(lines)
    if tied:
        names = ", ".join(f"{r['name']} ({r['code']})" for r in tied[:10])
        text += ("\n동률: " if ko else "\nTied at the cut: ") + names
    return with_note(text, spec)


def render_etf_verdicts(rows: list, spec: dict) -> str:
    """'KODEX 200 보수 0.1% 넘어?': each named ETF's figure against the bar, yes or no first."""
    m, ko = spec["measure"], spec["lang"] == "ko"
    lines = []
    for r in rows:
        name = f"{r['name']} {spec['labels'][m]}"
        if r.get(m) is None:
            lines.append(f"{name}: 값이 없습니다." if ko else f"{name}: no value.")
        else:
            lines.append(verdict(name, float(r[m]), fmt_measure(m, r[m]), spec["comparator"],
                                 spec["bar_shown"], spec["bar"], spec["lang"]))  # fmt: skip
    if not lines:
        return spec["empty"]
    return with_note("\n".join(lines), spec)


def render_etf_composed(rows: list, value: object, spec: dict, tied: list = ()) -> str:  # type: ignore[assignment]
    """A composed plan's answer: the read measure of the set cut by the order measure (its
    aggregate first when one was asked), then the rows with both values, and the ETFs tied
    with the last one kept (the cut among them is the data's order, said)."""
    if not rows and spec.get("aggregate") != "count":
        return spec["empty"]
    labels = spec["labels"]
    if spec.get("aggregate"):
        if value is None:
            return spec["empty"]
        counted = spec["aggregate"] == "count"
        shown = (f"{value}개" if spec["lang"] == "ko" else str(value)) if counted else (
            fmt_measure(spec["measure"], value))  # fmt: skip
        head = spec["title"].replace("{value}", shown)
    elif len(rows) == 1:
        r = rows[0]
        head = spec["title"].replace(
            "{value}",
            f"{r['name']} ({r['code']}) {fmt_measure(spec['measure'], r.get(spec['measure']))}",
        )
    else:
        head = spec["title"].replace("{value}", "")
    lines = []
    for i, r in enumerate(rows, 1):
        values = ", ".join(f"{labels[m]} {fmt_measure(m, r.get(m))}" for m in spec["columns"])
        lines.append(f"{i}. {r['name']} ({r['code']}): {values}")
    text = head.rstrip(": ") + "\n" + "\n".join(lines)
    if tied:
        order = spec["columns"][0]
        names = ", ".join(f"{r['name']}({r['code']})" for r in tied[:10])
        same = fmt_measure(order, tied[0].get(order))
        picked = spec.get("pick_among_ties")  # the second cut chose among them too
        text += (f"\n\n참고: {labels[order]} {same}로 {spec.get('n')}위와 같은 ETF가 {len(tied)}개 더 "
                 f"있{'어 함께 후보로 골랐' if picked else ''}습니다: {names}" if spec["lang"] == "ko"
                 else f"\n\nNote: {len(tied)} more ETFs have the same {labels[order]} ({same}) as "
                 f"number {spec.get('n')}{' and were candidates too' if picked else ''}: {names}")  # fmt: skip
    as_good = spec.get("same") or []  # the pick's own ties: named (the data's order chose)
    if as_good:
        by = spec["pick_by"]
        names = ", ".join(f"{r['name']}({r['code']})" for r in as_good[:10])
        value_same = fmt_measure(by, as_good[0].get(by))
        kept = len(rows)  # one picked, or the last of several ('… 중 하위 3개')
        text += (f"\n\n참고: {labels[by]} {value_same}로 {'같은' if kept == 1 else f'{kept}번째와 같은'} "
                 f"ETF가 {len(as_good)}개 더 있어 목록 순서로 "
                 f"{'첫 번째를 골랐습니다' if kept == 1 else '잘랐습니다'}: {names}" if spec["lang"] == "ko"
                 else f"\n\nNote: {len(as_good)} more ETFs have the same {labels[by]} "
                 f"({value_same}); the list's order decided: {names}")  # fmt: skip
    return with_note(text, spec)


def render_etf_aggregate(rows: list, value: object, spec: dict) -> str:
    ko = spec["lang"] == "ko"
    if spec["aggregate"] == "count":
        head = spec["title"].replace("{value}", f"{len(rows)}개" if ko else f"{len(rows)} ETFs")
    elif value is None:
        return spec["empty"]
    else:
        head = spec["title"].replace("{value}", fmt_measure(spec["measure"], value))
    head = head.replace("{count}", str(len(rows)) if ko else f"{len(rows)} ETFs")
    names = ", ".join(f"{r['name']}({r['code']})" for r in rows[:30])
    more = len(rows) - min(len(rows), 30)
    tail = (f" 외 {more}개" if ko else f" and {more} more") if more > 0 else ""
    basis = (f"계산에 쓴 {len(rows)}개: " if ko else f"Computed over {len(rows)}: ") + names + tail
    text = head + "\n\n" + basis
    return with_note(text, spec)


def render_holding_weight(row: dict, spec: dict) -> str:
    ko = spec["lang"] == "ko"
    etf, stock = spec["etf"], spec["stock"]
    if row.get("date") is None and spec.get("missing"):  # no snapshot on or before the day
        return spec["missing"]
    if row.get("weight") is None:
        if ko:
            return f"{josa(etf, '은/는')} 최신 보유종목 스냅샷({row.get('date') or '-'})에 {josa(stock, '을/를')} 담고 있지 않습니다."
        return f"{etf} does not hold {stock} in its latest holdings snapshot ({row.get('date') or '-'})."
    w = float(row["weight"])
    if ko:
        text = f"{etf} 안에서 {stock}의 비중은 {w:.2f}%입니다 (보유종목 스냅샷 {row['date']} 기준)."
    else:
        text = f"{stock} is {w:.2f}% of {etf} (holdings snapshot of {row['date']})."
    if "changes" in spec:  # '1달 전이랑 비교': the same stock in the period's base snapshot
        changes = spec["changes"] if isinstance(spec["changes"], list) else []  # a tool error
        moved = [c for c in changes if c.get("stock_code") == spec.get("code")]
        before = moved[0].get("old_weight") if moved else w  # not listed: unchanged
        before = 0.0 if before is None else float(before)
        if ko:
            text += (f" {spec['since']} 전 스냅샷 {before:.2f}% → 현재 {w:.2f}% "
                     f"({w - before:+.2f}%p).")  # fmt: skip
        else:
            text += f" {spec['since']} ago: {before:.2f}% → now {w:.2f}% ({w - before:+.2f}%p)."
    return text


def _returns_lead(picked: list, spec: dict) -> str:
    """What was asked of the listed holdings' own returns, said first: their average (highest,
    lowest), then the one whose return is highest (lowest), its ties named."""
    priced = [r for r in picked if r.get("return") is not None]
    if not priced:
        return ""
    ko, label, n, text = spec["lang"] == "ko", spec["return_label"], len(picked), ""
    stat = spec.get("return_stat")
    if stat:
        values = [float(r["return"]) for r in priced]
        value = sum(values) / len(values) if stat == "avg" else max(values) if stat == "max" else min(values)  # fmt: skip
        words = {"avg": ("평균", "average"), "max": ("최고", "highest"), "min": ("최저", "lowest")}[stat]  # fmt: skip
        unpriced = n - len(priced)
        if ko:
            note = f" (시세 없는 {unpriced}개 제외)" if unpriced else ""
            text = f"{spec['etf']} 비중 상위 {n}개 종목의 {label} {words[0]}: {value:+.2f}%{note}\n\n"  # fmt: skip
        else:
            note = f" ({unpriced} without prices left out)" if unpriced else ""
            text = (f"The {words[1]} {label} of {spec['etf']}'s top {n} holdings: "
                    f"{value:+.2f}%{note}\n\n")  # fmt: skip
    if spec.get("pick"):
        high = spec["pick"] == "desc"
        ordered = sorted(priced, key=lambda r: float(r["return"]), reverse=high)  # the sandbox's
        best = ordered[0]  # interpreter calls no '(max if … else min)(…)'
        ties = [r["name"] for r in ordered[1:] if float(r["return"]) == float(best["return"])]
        also = (f" (공동: {', '.join(ties)})" if ko else f" (tied: {', '.join(ties)})") if ties else ""  # fmt: skip
        said = f"{best['name']} ({best['code']}) {float(best['return']):+.2f}%{also}\n\n"
        text += (f"비중 상위 {n}개 중 {label} 가장 {'높은' if high else '낮은'} 종목: {said}" if ko
                 else f"Of the top {n} by weight, the {'highest' if high else 'lowest'} {label}: {said}")  # fmt: skip
    return text


def render_holdings_aggregate(rows: list, spec: dict) -> str:
    ko = spec["lang"] == "ko"
    if "condition" in spec:  # filtered in the code: say the condition, even when none qualify
        return _holdings_meeting(rows, spec)
    if not rows:
        return spec["empty"]
    day = rows[0].get("date") or "-"
    n = spec.get("top_n") or len(rows)
    if spec.get("place") and len(rows) >= abs(spec["place"]):  # '5위는?': that holding alone
        at = spec["place"] if spec["place"] > 0 else len(rows)  # -1: the last, the lightest
        r = rows[at - 1]
        if ko:
            return (f"{spec['etf']} 비중 {at}위 종목: {r['name']} ({r['code']}) "
                    f"{float(r['weight']):.2f}% (스냅샷 {day} 기준)")  # fmt: skip
        return (f"{spec['etf']}'s number {at} holding by weight: {r['name']} ({r['code']}) "
                f"{float(r['weight']):.2f}% (snapshot of {day})")  # fmt: skip
    bottom = spec.get("smallest") and not spec.get("within")
    if bottom:  # '비중 가장 작은 종목': the holdings from the smallest weight up
        rows = sorted(rows, key=lambda r: float(r["weight"]))
    picked = rows[:n]
    if spec.get("within"):  # '상위 3종목' → '그 중 비중 가장 작은 건?': the pick inside that cut
        kept = sorted(rows[: spec["within"]], key=lambda r: float(r["weight"]),
                      reverse=not spec.get("smallest"))  # fmt: skip
        side = ("작은", "smallest") if spec.get("smallest") else ("큰", "largest")
        listed = ", ".join(f"{r['name']} ({r['code']}) {float(r['weight']):.2f}%" for r in kept[:n])
        if ko:
            return (f"{spec['etf']} 비중 상위 {spec['within']}개 중 비중이 가장 {side[0]} 종목: "
                    f"{listed} (스냅샷 {day} 기준)")  # fmt: skip
        return (f"Of {spec['etf']}'s top {spec['within']} holdings, the {side[1]} by weight: "
                f"{listed} (snapshot of {day})")  # fmt: skip
    listed = ", ".join(f"{r['name']} {float(r['weight']):.2f}%" for r in picked)
    if spec["aggregate"] == "list":
        label = spec.get("return_label")  # the holdings' own returns, when asked
        unpriced = "시세 없음" if ko else "no prices"
        lines = []
        for i, r in enumerate(picked, 1):
            line = f"{i}. {r['name']} ({r['code']}): {float(r['weight']):.2f}%"
            if label:
                moved = r.get("return")
                line += f", {label} " + (f"{float(moved):+.2f}%" if moved is not None else unpriced)
            lines.append(line)
        total = sum(float(r["weight"]) for r in picked)  # how much of the fund the list is
        lead = _returns_lead(picked, spec) if label else ""
        head = lead + (
            f"{spec['etf']} 보유종목 {len(rows)}개 중 비중 {'하위' if bottom else '상위'} "
            f"{len(picked)}개 (합계 {total:.2f}%, 스냅샷 {day} 기준):"
            if ko
            else f"{'Bottom' if bottom else 'Top'} {len(picked)} of {spec['etf']}'s {len(rows)} "
            "holdings by weight "
            f"({total:.2f}% of the fund; snapshot of {day}):"
        )
        return head + "\n" + "\n".join(lines)
    if spec["aggregate"] == "count":
        if ko:
            return f"{spec['etf']}의 보유종목은 {len(rows)}개입니다 (스냅샷 {day} 기준).\n\n상위: {listed}"
        return f"{spec['etf']} holds {len(rows)} stocks (snapshot of {day}).\n\nTop: {listed}"
    values = [float(r["weight"]) for r in picked]
    value = sum(values) if spec["aggregate"] == "sum" else sum(values) / len(values)
    what = {"sum": ("합", "combined weight"), "avg": ("평균", "average weight")}[spec["aggregate"]]
    ranked = bool(spec.get("top_n"))  # '상위 5개 종목 비중 합' vs all of them ('반도체 비중 합')
    if ko:
        return (
            f"{spec['etf']} {'상위 ' if ranked else ''}{len(picked)}개 종목 비중 {what[0]}: "
            f"{value:.2f}% (스냅샷 {day} 기준)\n\n{listed}"
        )
    return (f"{what[1].capitalize()} of the {'top ' if ranked else ''}{len(picked)} holdings of "
            f"{spec['etf']}: {value:.2f}% (snapshot of {day})\n\n{listed}")  # fmt: skip


def _stock_figure(r: dict, measure: str) -> object:
    """A holding's own figure from its price tool result: the period's return, or a value of
    its last valuation snapshot (a P/E only where earnings are positive)."""
    got = r.get("prices") or {}
    if measure == "return":
        return (got.get("summary") or {}).get("change_rate")
    value = (got.get("valuation") or {}).get({"per": "pe", "pbr": "pb"}.get(measure, measure))
    return None if value is None or (measure == "per" and float(value) <= 0) else value


def _figure_text(measure: str, v: object, ko: bool) -> str:
    if measure in ("per", "pbr"):
        return f"{float(v):,.2f}배" if ko else f"{float(v):,.2f}x"  # type: ignore[arg-type]
    if measure in ("dividend_yield",):
        return f"{float(v):.2f}%"  # type: ignore[arg-type]
    if measure == "eps":
        return f"{float(v):,.0f}"  # type: ignore[arg-type]
    return fmt_measure(measure, v)


def render_holdings_by_figure(rows: list, spec: dict) -> str:
    """'KODEX 은행 보유종목 중 배당수익률 가장 높은 종목(의 PER)': the holdings ordered by a figure
    of their own, the first named (ties too) with the figure read of it, then the next four."""
    ko, order, read, labels = spec["lang"] == "ko", spec["order"], spec.get("read"), spec["labels"]
    if not rows:
        return spec["empty"]
    day = rows[0].get("date") or "-"
    held = [r for r in rows if _stock_figure(r, order) is not None]
    if not held:
        return (f"{spec['etf']} 보유종목의 {labels[order]} 데이터가 없습니다." if ko
                else f"No {labels[order]} for {spec['etf']}'s holdings.")  # fmt: skip
    ordered = sorted(held, key=lambda r: float(_stock_figure(r, order)), reverse=spec["high"])  # type: ignore[arg-type]
    best, side = ordered[0], ("높은", "highest") if spec["high"] else ("낮은", "lowest")
    ties = [r["name"] for r in ordered[1:] if _stock_figure(r, order) == _stock_figure(best, order)]
    within = (f"비중 상위 {len(rows)}개" if ko else f"top {len(rows)}") if spec.get("within") else (
        f"보유종목 {len(rows)}개" if ko else f"{len(rows)} holdings")  # fmt: skip
    said = f"{best['name']} ({best['code']}) {labels[order]} {_figure_text(order, _stock_figure(best, order), ko)}"
    if read:
        value = _stock_figure(best, read)
        shown = (
            _figure_text(read, value, ko)
            if value is not None
            else ("데이터 없음" if ko else "not held")
        )
        said += f" → {labels[read]} {shown}"
    also = (f" (공동: {', '.join(ties)})" if ko else f" (tied: {', '.join(ties)})") if ties else ""
    left = len(rows) - len(held)
    note = (
        (f", {labels[order]} 없는 {left}개 제외" if ko else f", {left} without it left out")
        if left
        else ""
    )
    head = (f"{spec['etf']} {within} 중 {labels[order]} 가장 {side[0]} 종목: {said}{also} "
            f"(보유 스냅샷 {day}{note})" if ko else f"Of {spec['etf']}'s {within}, the {side[1]} "
            f"{labels[order]}: {said}{also} (holdings of {day}{note})")  # fmt: skip
    lines = [f"{i}. {r['name']} ({r['code']}): {labels[order]} "
             f"{_figure_text(order, _stock_figure(r, order), ko)}, "
             f"{'비중' if ko else 'weight'} {float(r['weight']):.2f}%" for i, r in enumerate(ordered[:5], 1)]  # fmt: skip
    return head + "\n\n" + "\n".join(lines)


def render_holdings_counts(rows: list, spec: dict) -> str:
    """Each named ETF's number of holdings on its latest snapshot; the one asked for first."""
    ko, names = spec["lang"] == "ko", spec["names"]
    counted = {r["code"]: r for r in rows}
    missing = [names[c] for c in names if c not in counted]
    ranked = sorted(counted.values(), key=lambda r: r["holdings"], reverse=not spec["fewer"])
    if not ranked:
        return "보유종목 스냅샷이 없습니다." if ko else "No holdings snapshot."
    listed = ", ".join(f"{r['name']} {r['holdings']}개 ({r['date']})" if ko
                       else f"{r['name']} {r['holdings']} ({r['date']})" for r in ranked)  # fmt: skip
    top = ranked[0]
    tied = len(ranked) > 1 and ranked[1]["holdings"] == top["holdings"]
    word = "적은" if spec["fewer"] else "많은"
    head = (("보유종목 수가 같습니다" if tied else f"보유종목이 더 {word} 쪽: {top['name']}") if ko
            else ("Same number of holdings" if tied else f"{'Fewer' if spec['fewer'] else 'More'} holdings: {top['name']}"))  # fmt: skip
    text = f"{head} ({listed}, 최신 스냅샷)" if ko else f"{head} ({listed}, latest snapshots)"
    if missing:
        text += ("\n\n보유종목 스냅샷이 없는 ETF: " if ko else "\n\nNo holdings snapshot: ") + ", ".join(missing)  # fmt: skip
    return text


def _holdings_meeting(rows: list, spec: dict) -> str:
    ko, condition = spec["lang"] == "ko", spec["condition"]
    day = rows[0].get("date") if rows else None
    when = (f" (스냅샷 {day} 기준)" if ko else f" (snapshot of {day})") if day else ""
    if not rows:
        return (f"{spec['etf']} 보유종목 중 {condition} 종목은 없습니다{when}." if ko
                else f"No holding of {spec['etf']} has {condition}{when}.")  # fmt: skip
    if spec["aggregate"] == "count":
        head = (f"{spec['etf']} 보유종목 중 {condition}: {len(rows)}개{when}" if ko
                else f"Holdings of {spec['etf']} with {condition}: {len(rows)}{when}")  # fmt: skip
    elif spec["aggregate"] in ("sum", "avg"):  # '비중 10% 넘는 것만' → '그 합계는?'
        weights = [float(r["weight"]) for r in rows]
        total = sum(weights) if spec["aggregate"] == "sum" else sum(weights) / len(weights)
        word = ("합", "total") if spec["aggregate"] == "sum" else ("평균", "average")
        head = (f"{spec['etf']} 보유종목 중 {condition} {len(rows)}개의 비중 {word[0]}: {total:.2f}%{when}"
                if ko else f"The {word[1]} weight of {spec['etf']}'s {len(rows)} holdings with "
                f"{condition}: {total:.2f}%{when}")  # fmt: skip
    else:
        head = (f"{spec['etf']} 보유종목 중 {condition} ({len(rows)}개){when}:" if ko
                else f"Holdings of {spec['etf']} with {condition} ({len(rows)}){when}:")  # fmt: skip
    lines = [f"{i}. {r['name']} ({r['code']}): {float(r['weight']):.2f}%"
             for i, r in enumerate(rows, 1)]  # fmt: skip
    return head + "\n" + "\n".join(lines)


def render_difference(first: dict, second: dict, spec: dict) -> str:
    def diff(measure: str, d: float) -> str:
        if measure == "expense_ratio":
            text = f"{d:+.4f}".rstrip("0")
            return (
                text + "0" if text.endswith(".") or len(text.split(".")[1]) < 2 else text
            ) + "%p"
        if measure in ("return", "weight", "volatility", "premium"):
            return f"{d:+.2f}%p"
        if measure in ("volume", "net_assets", "close"):  # signed, in the figure's own unit
            return ("+" if d >= 0 else "-") + fmt_measure(measure, abs(d))
        return f"{d:+,.2f}"

    ko = spec["lang"] == "ko"
    m, label = spec["measure"], spec["label"]
    a, b = first.get("value"), second.get("value")
    if a is None or b is None:
        return spec["empty"]
    d = float(a) - float(b)  # type: ignore[arg-type]
    if ko:
        text = (
            f"{josa(first['name'], '과/와')} {second['name']}의 {label} 차이는 {diff(m, d)}입니다 "
            f"({first['name']} {fmt_measure(m, a)} − {second['name']} {fmt_measure(m, b)})."
        )
    else:
        text = (
            f"The {label} difference between {first['name']} and {second['name']} is "
            f"{diff(m, d)} ({first['name']} {fmt_measure(m, a)} − {second['name']} {fmt_measure(m, b)})."
        )
    if d:  # which side it falls on, in words: a cheaper fee, a larger fund, a higher return
        high, low = (first, second) if d > 0 else (second, first)
        bp = f"{abs(d) * 100:.0f}bp"
        if m == "expense_ratio":
            text += (f" {josa(low['name'], '이/가')} {high['name']}보다 보수가 {bp} 낮습니다." if ko
                     else f" {low['name']} is cheaper by {bp}.")  # fmt: skip
        elif m == "net_assets":
            text += f" {high['name']}의 규모가 더 큽니다." if ko else f" {high['name']} is larger."
        else:
            text += (f" {high['name']}의 {josa(label, '이/가')} {low['name']}보다 높습니다." if ko
                     else f" {high['name']}'s {label} is higher.")  # fmt: skip
    else:
        text += (f" 두 ETF의 {label} 값이 같습니다." if ko
                 else f" The two have the same {label}.")  # fmt: skip
    return with_note(text, spec)


def render_common_holdings(rows: list, spec: dict) -> str:
    """How many stocks both ETFs hold and their overlap: the sum over them of the smaller of
    the two weights (the share of each fund that is the same stocks)."""
    ko = spec["lang"] == "ko"
    if not rows:
        return (f"{josa(spec['a'], '과/와')} {josa(spec['b'], '이/가')} 함께 담은 종목은 없습니다 (각 최신 스냅샷 기준)."
                if ko else f"{spec['a']} and {spec['b']} hold no stock in common.")  # fmt: skip
    overlap = sum(min(float(r["weight"]), float(r["other_weight"])) for r in rows)
    lines = [f"{i}. {r['name']} ({r['code']}): {float(r['weight']):.2f}% / {float(r['other_weight']):.2f}%"
             for i, r in enumerate(rows[:15], 1)]  # fmt: skip
    more = len(rows) - len(lines)
    if more > 0:
        lines.append(f"… 외 {more}개" if ko else f"… and {more} more")
    when = f"{rows[0]['date']} / {rows[0]['other_date']}"
    if ko:
        head = (f"{josa(spec['a'], '과/와')} {spec['b']}의 공통 보유 종목 {len(rows)}개, 겹치는 비중 "
                f"{overlap:.2f}% (종목마다 두 비중 중 작은 쪽의 합; 스냅샷 {when}). 비중은 "
                f"{spec['a']} / {spec['b']} 순:")  # fmt: skip
    else:
        head = (f"{spec['a']} and {spec['b']} hold {len(rows)} stocks in common; overlap "
                f"{overlap:.2f}% (the smaller weight of each, summed; snapshots {when}). Weights "
                f"{spec['a']} / {spec['b']}:")  # fmt: skip
    text = head + "\n" + "\n".join(lines)
    return with_note(text, spec)


def daily_words(field: str) -> tuple[str, str]:
    """A daily figure of an ETF's price rows in the analyst's words (Korean, English); a
    function, not a table, so the sandbox inliner carries it with the renderers."""
    return {"close": ("종가", "close"), "volume": ("거래량", "volume"), "nav": ("NAV", "NAV"),
            "net_assets": ("순자산총액", "net assets"), "market_cap": ("시가총액", "market cap"),
            "trading_value": ("거래대금", "trading value"), "premium": ("괴리율", "premium"),
            "high": ("고가", "high"), "low": ("저가", "low"),
            "high_low": ("고가·저가", "high and low")}[field]  # fmt: skip


def daily_amount(field: str, v: float) -> str:
    """One daily figure in its unit as fmt_measure writes it (shares, 조/억 원, won), a NAV in
    won, a premium signed to three decimals."""
    if field == "premium":
        return f"{v:+.3f}%"
    return fmt_measure("close" if field in ("high", "low", "high_low") else field, v) + (
        "원" if field == "nav" else "")  # fmt: skip


def render_per_period(daily: list, spec: dict) -> str:
    """One figure per calendar period of the price tool's year (the oldest period is the base;
    the newest may still be running, its last day said)."""
    field = "close" if spec["aggregate"] == "return" else spec["field"]
    points = [(str(d["date"])[:10], float(d[field])) for d in reversed(daily)
              if d.get(field) is not None]  # fmt: skip
    rows = per_period(points, spec["per"], spec["aggregate"])[-12:]
    if spec["aggregate"] == "return":
        shown = [f"{r[1]:+.2f}%" for r in rows]
    else:
        shown = [daily_amount(field, r[1]) for r in rows]
    words = daily_words(field)
    name = spec["name"] if spec["aggregate"] == "return" else f"{spec['name']} {words[0 if spec['lang'] == 'ko' else 1]}"  # fmt: skip
    return with_note(per_period_text(name, spec["per"], spec["aggregate"], rows, shown,
                                     spec["lang"], spec.get("pick")), spec)  # fmt: skip


def _daily_values(daily: list, spec: dict) -> str:
    """'최근 5일 종가': each of the last N trading days, newest first."""
    ko, field, n = spec["lang"] == "ko", spec["measure"], spec["days"]
    picked = [d for d in daily if d.get(field) is not None][:n]
    if not picked:
        return spec["empty"]
    unit = ("원" if field == "close" else "주") if ko else ("" if field == "close" else " shares")
    lines = [f"- {d['date']}: {float(d[field]):,.0f}{unit}" for d in picked]
    word = ("종가" if field == "close" else "거래량") if ko else field
    head = (f"{spec['name']} 최근 {len(picked)}거래일 {word}:" if ko
            else f"{spec['name']} {word}, last {len(picked)} trading days:")  # fmt: skip
    return head + "\n" + "\n".join(lines)


def render_measure(result: dict, spec: dict) -> str:
    ko = spec["lang"] == "ko"
    s = result.get("summary") or {}
    if not s.get("data_count"):
        return spec["empty"]
    if spec["measure"] == "premium":
        premium, nav = s.get("latest_premium"), s.get("latest_nav")
        if premium is None or nav is None:
            return spec["empty"]
        gap = round(float(s["end_close"]) - float(nav), 2)  # the close less the NAV, in won
        if ko:
            return (
                f"{spec['name']}의 괴리율은 {float(premium):+.2f}%입니다 ({s['end_date']} 종가 "
                f"{s['end_close']:,}원, NAV {nav:,}원, 차이 {gap:+,}원; 괴리율 = 종가/NAV − 1)."
            )
        return (
            f"{spec['name']} traded at a {float(premium):+.2f}% premium to NAV on {s['end_date']} "
            f"(close {s['end_close']:,}, NAV {nav:,}, a gap of {gap:+,})."
        )
    if spec.get("days") and spec["measure"] in ("close", "volume"):
        return _daily_values(result.get("daily") or [], spec)
    latest_traded = spec["measure"] == "trading_value"  # the last session's close × volume
    if spec.get("as_of") or latest_traded or spec["measure"] in (
            "close", "nav", "volume", "market_cap", "net_assets"):  # fmt: skip
        # one session's figure: the day asked ('10월 말 종가': that day, or the last trading
        # day before it), else the latest; a trading value is that session's close × volume
        daily = result.get("daily") or []
        row = (next((r for r in daily if r["date"] <= spec["as_of"]), None) if spec.get("as_of")
               else daily[0] if daily else None)  # fmt: skip
        if row is None:
            return spec["out_of_window"]
        field = spec["measure"]
        v = float(row["close"]) * float(row["volume"]) if latest_traded else row[field] or 0
        value = f"{v:,}원" if field in ("close", "nav") else daily_amount(field, float(v))
        ko_word, en_word = daily_words(field)
        note = "" if row["date"] == (spec.get("as_of") or row["date"]) else (
            f" ({spec['as_of']}의 직전 거래일)" if ko else f" (the last trading day on or before {spec['as_of']})")  # fmt: skip
        if latest_traded:
            note = " (종가 × 거래량 근사)" if ko else " (close × volume)"
        if ko:
            # '종가 55,730원' on the latest day; a past day's or a fund's size takes its particle
            topic = spec.get("as_of") or field in ("net_assets", "market_cap", "nav")
            said = josa(ko_word, "은/는") if topic else ko_word
            return f"{spec['name']}의 {row['date']} {said} {value}입니다{note}."
        shown = value.replace("원", "") if field in ("close", "nav") else value.replace("주", " shares")  # fmt: skip
        verb = "were" if en_word.endswith("assets") else "was"
        return f"{spec['name']}'s {en_word} on {row['date']} {verb} {shown}{note}."
    rate = float(s["change_rate"])
    if ko:
        text = (
            f"{spec['name']}의 {spec['period_ko']} 수익률은 {rate:+.2f}%입니다 "
            f"(종가 {s['start_close']:,} ({s['start_date']}) → {s['end_close']:,} ({s['end_date']}))."
        )
    else:
        text = (
            f"{spec['name']} returned {rate:+.2f}% over {spec['period_en']} (close "
            f"{s['start_close']:,} on {s['start_date']} → {s['end_close']:,} on {s['end_date']})."
        )
    return with_note(text, spec)


def render_groups(groups: list, spec: dict) -> str:
    """One line per manager or theme: its figure and how many ETFs it covers, ordered by the
    figure (largest first, fees cheapest first); or each group's best ETFs."""
    ko, measure = spec["lang"] == "ko", spec["measure"]
    if not groups:
        return "해당하는 ETF가 없습니다." if ko else "No ETF matches."
    known = [g for g in groups if g["value"] is not None]
    known.sort(key=lambda g: g["value"], reverse=spec["descending"])
    lines = []
    for i, g in enumerate(known, 1):
        if spec["ranked"]:
            best = ", ".join(f"{r['name']} ({r['code']}) {fmt_measure(measure, r[measure])}"
                             for r in g["rows"])  # fmt: skip
            lines.append(f"{i}. {g['group']}: {best}")
        elif spec["aggregate"] == "count":
            lines.append(f"{i}. {g['group']}: {g['n']}개" if ko else f"{i}. {g['group']}: {g['n']}")
        else:
            count = f" (ETF {g['n']}개)" if ko else f" ({g['n']} ETF{'s' if g['n'] != 1 else ''})"
            lines.append(f"{i}. {g['group']}: {fmt_measure(measure, g['value'])}{count}")
    head = f"{spec['title']} ({len(known)}개 그룹):" if ko else f"{spec['title']} ({len(known)} groups):"  # fmt: skip
    text = head + "\n" + "\n".join(lines)
    if spec.get("first") and known:  # 'ETF가 가장 많은 운용사': the first group(s) said first
        text = _first_groups(known, spec) + "\n\n" + text
    named = [g for name in spec.get("gap_of") or [] for g in known if g["group"] == name]
    if len(named) == 2:  # two named groups: their gap first, in the order asked
        a, b = named
        counted = spec["aggregate"] == "count"
        gap = (a["n"] - b["n"]) if counted else a["value"] - b["value"]
        shown = (f"{gap:+d}개" if counted else f"{gap:+.4f}%p"
                 if measure in ("expense_ratio", "return") else fmt_measure(measure, gap))  # fmt: skip
        high, low = (a, b) if gap >= 0 else (b, a)  # '… 중 더 높은 쪽': the higher named
        size = shown.lstrip("+-")
        said = (f" ({josa(high['group'], '이/가')} {low['group']}보다 {size} {'많습니다' if counted else '높습니다'})"
                if ko else f" ({high['group']} is higher by {size})") if gap else (" (같습니다)" if ko else " (the same)")  # fmt: skip
        text = (f"{a['group']} − {b['group']} {spec['what']} 차이: {shown}{said}\n\n" if ko
                else f"{a['group']} − {b['group']}: {shown}{said}\n\n") + text  # fmt: skip
    added = [g for name in spec.get("total_of") or [] for g in known if g["group"] == name]
    if len(added) >= 2 and spec["aggregate"] in ("count", "sum"):  # '합치면?': the groups added
        counted = spec["aggregate"] == "count"
        total = sum(g["n"] for g in added) if counted else sum(g["value"] for g in added)
        shown = (f"{total}개" if ko else str(total)) if counted else fmt_measure(measure, total)
        names, what = " + ".join(g["group"] for g in added), spec["what"]
        what = what if what.endswith(("합계", "total")) else what + (" 합계" if ko else " combined")
        text = f"{names} {what}: {shown}\n\n" + text
    return with_note(text, spec)


def _first_groups(known: list, spec: dict) -> str:
    """The group(s) the superlative asked for, ties kept together: '운용사별 ETF 수가 가장 많은
    운용사: 미래에셋자산운용 (43개)'."""
    ko, counted = spec["lang"] == "ko", spec["aggregate"] == "count"
    value = (lambda g: g["n"]) if counted else (lambda g: g["value"])
    cut = value(known[min(spec["first"], len(known)) - 1])
    first = [g for g in known if (value(g) >= cut if spec["descending"] else value(g) <= cut)]
    shown = ", ".join(f"{g['group']} ({g['n']}개)" if counted and ko else f"{g['group']} ({g['n']})"
                      if counted else f"{g['group']} ({fmt_measure(spec['measure'], g['value'])})"
                      for g in first)  # fmt: skip
    if ko:
        most = ("많은" if spec["descending"] else "적은") if counted else ("높은" if spec["descending"] else "낮은")  # fmt: skip
        return f"{josa(spec['what'], '이/가')} 가장 {most} {spec['group_word']}: {shown}"
    if counted:
        return f"The {spec['group_word']} with the {'most' if spec['descending'] else 'fewest'} ETFs: {shown}"
    return f"The {spec['group_word']} with the {'highest' if spec['descending'] else 'lowest'} {spec['what'].lower()}: {shown}"


def render_attribution(fund: dict, rows: list, spec: dict) -> str:
    """An ETF's return and its largest holdings' contributions (weight × return), in the
    direction of the move; what the ten do not explain is said, and so is a premise the data
    does not bear out."""
    ko = spec["lang"] == "ko"
    summary = fund.get("summary") if isinstance(fund, dict) else None
    if not summary or summary.get("change_rate") is None:
        return spec["empty"]
    total = float(summary["change_rate"])
    window = spec["window_ko"] if ko else spec["window_en"]
    moved = [r for r in rows if r.get("contribution") is not None]
    down = total < 0
    moved.sort(key=lambda r: r["contribution"], reverse=not down)
    span = f"{summary.get('start_date')} → {summary.get('end_date')}"
    lines = []
    asked = spec.get("asked")
    if asked and (asked == "down") != down:
        lines.append(f"질문과 달리 {josa(spec['etf'], '은/는')} {window} {'하락' if down else '상승'}했습니다."
                     if ko else f"Contrary to the question, {spec['etf']} "
                     f"{'fell' if down else 'rose'} over {window}.")  # fmt: skip
    lines.append(f"{spec['etf']}의 {window} 수익률 {total:+.2f}% ({span})." if ko
                 else f"{spec['etf']} returned {total:+.2f}% over {window} ({span}).")  # fmt: skip
    if not moved:
        lines.append("보유종목의 가격을 찾지 못해 기여를 계산하지 못했습니다." if ko
                     else "No prices were found for its holdings, so no contributions.")  # fmt: skip
        return "\n\n".join(lines)
    day = moved[0].get("date") or "-"
    lines.append(f"보유 비중 상위 {len(rows)}종목의 기여 (비중 × 종목 수익률, 보유 스냅샷 {day}):" if ko
                 else f"Contributions of its top {len(rows)} holdings (weight × return, holdings of {day}):")  # fmt: skip
    for i, r in enumerate(moved, 1):
        lines.append(f"{i}. {r['name']}({r['code']}): {float(r['weight']):.2f}% × "
                     f"{float(r['return']):+.2f}% = {r['contribution']:+.2f}%p")  # fmt: skip
    explained = sum(r["contribution"] for r in moved)
    rest = total - explained
    if ko:
        lines.append(f"상위 종목 기여 합 {explained:+.2f}%p, 나머지 {rest:+.2f}%p는 그 밖의 종목·현금·"
                     "보수 등입니다. 기간 중 비중 변화는 반영하지 않은 근사치입니다.")  # fmt: skip
        lines.append(
            "뉴스·이벤트 원인은 매크로 Q&A에서 종목별로 물어보세요 (예: "
            f"'{moved[0]['name']} 왜 {'떨어졌어' if down else '올랐어'}?')."
        )
    else:
        lines.append(
            f"The top holdings explain {explained:+.2f}%p; the other {rest:+.2f}%p is "
            "the remaining holdings, cash and fees (weights held fixed, an approximation)."
        )
        lines.append(
            f"For news and events, ask Macro Q&A about a stock (e.g. 'why did "
            f"{moved[0]['name']} {'fall' if down else 'rise'}?')."
        )
    text = lines[0]  # paragraphs apart, the numbered contributions one list (Markdown)
    for before, line in zip(lines, lines[1:], strict=False):
        listed = before[:1].isdigit() and line[:1].isdigit()
        text += ("\n" if listed else "\n\n") + line
    return with_note(text, spec)


SET_RENDERERS = (
    has_batchim,  # builtins only: the particle after a name ('KODEX 레버리지와', 'TIGER 200과')
    josa,
    fmt_krw,
    with_note,
    daily_words,
    daily_amount,
    half_up,
    fmt_measure,
    per_period,
    per_period_text,
    render_per_period,
    render_etf_set,
    meets,
    verdict,
    render_etf_verdicts,
    render_etf_aggregate,
    render_etf_composed,
    render_holding_weight,
    render_attribution,
    _holdings_meeting,
    _daily_values,
    _returns_lead,
    render_holdings_aggregate,
    _stock_figure,
    _figure_text,
    render_holdings_by_figure,
    render_difference,
    render_common_holdings,
    render_holdings_counts,
    render_measure,
    render_groups,
    _first_groups,
)
