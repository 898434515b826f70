"""Index levels for the Equity agent (issue 25): '코스피 요즘 어때?' reads the KOSPI itself.

    answered = index_levels(resp, ctx, route, start)   # {'KOSPI'}: entity keys it answered

An index entity of the question (agents.understanding: KOSPI, KOSDAQ, NASDAQ, SPX, DOW) maps to
its market series (data_access.market_series); the `index_price_window` template reads it and
the answer states the level in points with the window's change, high and low. An index without
stored bars is left to the caller (the ETF stand-in, which says that it is one).
"""

from __future__ import annotations

from agents.macro.derived import picked_read_window, window_asked
from agents.macro.router import Route
from agents.macro.state import AgentResponse, RunContext, Series
from agents.macro.tools import lang_text, pct, run_step
from agents.understanding.frame import QuestionFrame
from data_access import market_series as ms
from data_access.market_series import VOCABULARY_KEYS, dataset_code_of, series_code_for, spec_for


def index_code(key: str, name: str) -> str | None:
    """The market series of an index entity: by its vocabulary key (KOSPI) or a series code
    (^KS11, as linked from `entity_aliases` kind 'market'), else by its name."""
    return VOCABULARY_KEYS.get(key) or (key if spec_for(key) else None) or series_code_for(name)


def all_indices_held(frame: QuestionFrame | None) -> bool:
    """Whether every index the question names has a market series (no ETF stand-in needed)."""
    entities = frame.of("index") if frame else []
    return bool(entities) and all(index_code(e.key, e.name) for e in entities)


def index_levels(resp: AgentResponse, ctx: RunContext, route: Route, start: str) -> set[str]:
    """Each named index's level over the window; returns the entity keys answered."""
    from agents.macro.domain import cited_window

    answered: set[str] = set()
    # '15거래일', '… 빠진 쪽의 1년 수익률': the whole fetch is kept, not only the period asked
    windowed = route.frame is not None and (window_asked(route.frame) is not None
                                            or picked_read_window(route.frame) is not None)  # fmt: skip
    for entity in route.frame.of("index") if route.frame else []:
        code = index_code(entity.key, entity.name)
        if code is None:
            continue
        params = {"code": code, "start": start, "as_of": ctx.as_of_date,
                  "dataset": dataset_code_of(code)}  # fmt: skip
        result = run_step(resp, ctx, "index_price_window", params)
        rows = cited_window(resp, result.rows if result else [], "trade_date", route)
        if not rows:
            continue
        answered.add(entity.key)
        first, last = rows[0], rows[-1]
        v0, v1, name, unit = float(first["close"]), float(last["close"]), last["name"], last["unit"]
        high = max(float(r["high"] if r["high"] is not None else r["close"]) for r in rows)
        low = min(float(r["low"] if r["low"] is not None else r["close"]) for r in rows)
        fetched = result.rows if windowed and result else rows  # '15거래일': all 15 sessions
        # '최고가', '최저가': the sessions' highs or lows, as a stock's are (closes otherwise)
        frame = route.frame
        field = (frame.stat_field if frame and frame.stat_field in ("high", "low", "open")
                 else "open" if frame and frame.measure() == "open" else "close")  # fmt: skip
        said = {"high": ("고가", "high"), "low": ("저가", "low"), "open": ("시가", "open")}.get(field, ("", ""))  # fmt: skip
        shown = f"{name} {said[route.language != 'ko']}".strip()  # '비트코인 고가 최근 90일 …'
        resp.series.append(Series(key=code, title=f"{shown} ({code})", unit=unit,
                                  points=[(str(r["trade_date"]), float(r[field] if r[field] is not None else r["close"]))
                                          for r in fetched]))  # fmt: skip
        resp.key_points.append(lang_text(
            route.language,
            f"{name}({code}) {v1:,.2f}{ms.UNIT_KO.get(unit, unit)} ({last['trade_date']}), {first['trade_date']} "
            f"대비 {pct(v0, v1):+.2f}% (기간 고점 {high:,.2f}, 저점 {low:,.2f}).",
            f"{name} ({code}) at {v1:,.2f} {unit} on {last['trade_date']}, {pct(v0, v1):+.2f}% "
            f"since {first['trade_date']} (range {low:,.2f}-{high:,.2f}).",
        ))  # fmt: skip
        if field == "open" and last["open"] is not None:  # '코스피 오늘 시가': the session's open
            resp.key_points.insert(len(resp.key_points) - 1, lang_text(
                route.language, f"{name} 시가 {float(last['open']):,.2f} ({last['trade_date']}).",
                f"{name} opened at {float(last['open']):,.2f} on {last['trade_date']}."))  # fmt: skip
    return answered
