"""Rules that turn the evidence into a stance with its reasons and risks (both modes use them).

Each rule looks at one figure and, past a threshold, adds a reason (with a signed weight) or a
risk. Rules belong to one of three pillars — technicals, fundamentals, events — and the stance
follows the weighted pillar scores:

    pillar score = clip(sum of the pillar's weights / PILLAR_SCALE, -1, 1)
    score        = sum over pillars of PILLAR_WEIGHTS x pillar score      (-1 … +1)

The weights are part of the assessment, so the report shows them. The text of each code lives
in templates.py.
"""

from __future__ import annotations

from datetime import date
from typing import Literal, NotRequired, TypedDict

from agents.stock.analysis import StockFigures
from agents.stock.events import BIG_MOVE, NewsEvent
from agents.stock.fundamentals import Fundamentals

Stance = Literal["overweight", "neutral", "underweight"]
Pillar = Literal["technical", "fundamental", "event"]
PILLAR_WEIGHTS: dict[Pillar, float] = {"technical": 0.35, "fundamental": 0.40, "event": 0.25}
# About the largest sum of weights a pillar's rules can reach, so each pillar spans -1 … +1.
PILLAR_SCALE: dict[Pillar, float] = {"technical": 2.5, "fundamental": 4.0, "event": 2.0}
STANCE_THRESHOLD = 0.2
MOMENTUM_THRESHOLD = 0.10
VALUATION_THRESHOLD = 0.20
# Within this of the sector median a P/E is 'similar'; between it and VALUATION_THRESHOLD the
# gap is said (34.57 against 41.09, 16% lower, had been called '비슷합니다').
INLINE_THRESHOLD = 0.05
RSI_HIGH, RSI_LOW = 70.0, 30.0
DEEP_DRAWDOWN = -0.20
HIGH_VOLATILITY = 0.45
NEAR_EDGE = 0.10
SURPRISE_SCALE = 0.05  # a 5 % surprise (or event-day move) counts fully
EPS_GROWTH_THRESHOLD = 0.15
HISTORY_EDGE = 0.10  # P/E in the top / bottom tenth of its own history
DIVIDEND_GAP = 0.01  # one percentage point above the sector's median yield
EARNINGS_SOON_DAYS = 14


class Signal(TypedDict):
    code: str
    weight: float
    values: dict[str, float]
    pillar: NotRequired[Pillar]
    labels: NotRequired[dict[str, str]]  # words a template needs (dates, headlines)


class PillarScore(TypedDict):
    weight: float
    raw: float
    score: float


class Assessment(TypedDict):
    stance: Stance
    score: float
    reasons: list[Signal]
    risks: list[Signal]
    pillars: NotRequired[dict[Pillar, PillarScore]]


def _clip(value: float, bound: float = 1.0) -> float:
    return max(-bound, min(bound, value))


def pillar_scores(reasons: list[Signal]) -> dict[Pillar, PillarScore]:
    out: dict[Pillar, PillarScore] = {}
    for pillar, weight in PILLAR_WEIGHTS.items():
        raw = sum(s["weight"] for s in reasons if s.get("pillar", "technical") == pillar)
        out[pillar] = PillarScore(weight=weight, raw=round(raw, 2),
                                  score=round(_clip(raw / PILLAR_SCALE[pillar]), 3))  # fmt: skip
    return out


def assess(f: StockFigures, fundamentals: Fundamentals | None = None,
           events: list[NewsEvent] | None = None, *, as_of: str | None = None) -> Assessment:  # fmt: skip
    reasons: list[Signal] = []
    risks: list[Signal] = []
    _trend(f, reasons)
    _momentum(f, reasons)
    _oscillators(f, reasons, risks)
    _valuation(f, reasons, risks)
    if fundamentals is not None:
        _earnings(fundamentals, reasons, risks, as_of)
        _growth_and_value(fundamentals, reasons)
    for event in events or []:
        _event(event, reasons, risks)
    _risk_levels(f, risks)
    pillars = pillar_scores(reasons)
    score = round(sum(p["weight"] * p["score"] for p in pillars.values()), 3)
    stance: Stance = (
        "overweight"
        if score >= STANCE_THRESHOLD
        else "underweight"
        if score <= -STANCE_THRESHOLD
        else "neutral"
    )
    return Assessment(stance=stance, score=score, reasons=reasons, risks=risks, pillars=pillars)


def _signal(code: str, weight: float, pillar: Pillar = "technical", **values: float) -> Signal:
    return Signal(code=code, weight=round(weight, 2), values=values, pillar=pillar)


def _trend(f: StockFigures, out: list[Signal]) -> None:
    vs60, vs120 = f["price_vs_ma"].get("ma60"), f["price_vs_ma"].get("ma120")
    if vs60 is None or vs120 is None:
        return
    if vs60 > 0 and vs120 > 0:
        out.append(_signal("trend_up", 1.0, vs60=vs60, vs120=vs120))
    elif vs60 < 0 and vs120 < 0:
        out.append(_signal("trend_down", -1.0, vs60=vs60, vs120=vs120))
    else:
        out.append(_signal("trend_mixed", 0.0, vs60=vs60, vs120=vs120))


def _momentum(f: StockFigures, out: list[Signal]) -> None:
    r3m = f["returns"].get("3m")
    if r3m is None:
        return
    if r3m >= MOMENTUM_THRESHOLD:
        out.append(_signal("momentum_strong", 1.0, r3m=r3m))
    elif r3m <= -MOMENTUM_THRESHOLD:
        out.append(_signal("momentum_weak", -1.0, r3m=r3m))


def _valuation(f: StockFigures, reasons: list[Signal], risks: list[Signal]) -> None:
    pe, median, premium = f["pe"], f["sector_median_pe"], f["pe_premium"]
    if pe is None or pe <= 0:
        risks.append(_signal("pe_missing", 0.0, "fundamental"))
        return
    if premium is None or median is None:
        return
    code, weight = (
        ("pe_discount", 1.0)
        if premium <= -VALUATION_THRESHOLD
        else ("pe_premium", -1.0)
        if premium >= VALUATION_THRESHOLD
        else ("pe_inline", 0.0)
        if abs(premium) < INLINE_THRESHOLD  # '비슷합니다' only for a gap this small
        else ("pe_below" if premium < 0 else "pe_above", 0.0)
    )
    reasons.append(_signal(code, weight, "fundamental", pe=pe, median=median, premium=premium,
                           gap=abs(premium)))  # fmt: skip


def _oscillators(f: StockFigures, reasons: list[Signal], risks: list[Signal]) -> None:
    rsi = f["rsi14"]
    if rsi is None:
        return
    if rsi >= RSI_HIGH:
        reasons.append(_signal("rsi_overbought", -0.5, rsi=rsi))
        risks.append(_signal("rsi_overbought_risk", 0.0, rsi=rsi))
    elif rsi <= RSI_LOW:
        reasons.append(_signal("rsi_oversold", 0.5, rsi=rsi))
        risks.append(_signal("rsi_oversold_risk", 0.0, rsi=rsi))


def _risk_levels(f: StockFigures, risks: list[Signal]) -> None:
    dd, vol, pos = f["drawdown_current"], f["volatility_60d"], f["range_position"]
    if dd is not None and dd <= DEEP_DRAWDOWN:
        risks.append(_signal("deep_drawdown", 0.0, drawdown=dd))
    if vol is not None and vol >= HIGH_VOLATILITY:
        risks.append(_signal("high_volatility", 0.0, volatility=vol))
    if pos is not None and pos >= 1 - NEAR_EDGE:
        risks.append(_signal("near_52w_high", 0.0, position=pos))
    elif pos is not None and pos <= NEAR_EDGE:
        risks.append(_signal("near_52w_low", 0.0, position=pos))
    if f["max_drawdown_1y"] is not None:
        risks.append(_signal("max_drawdown", 0.0, drawdown=f["max_drawdown_1y"]))


def _earnings(fu: Fundamentals, reasons: list[Signal], risks: list[Signal],
              as_of: str | None) -> None:  # fmt: skip
    """The latest surprise, the beat/miss streak, and an earnings date close ahead."""
    if fu["quarters"]:
        q = fu["quarters"][0]
        if q["surprise"] is not None:
            weight = 0.5 * _clip(q["surprise"] / SURPRISE_SCALE)
            code = {"beat": "earnings_beat", "miss": "earnings_miss"}.get(q["result"] or "",
                                                                         "earnings_inline")  # fmt: skip
            reasons.append(Signal(code=code, weight=round(weight, 2), pillar="fundamental",
                                  values={"surprise": q["surprise"], "actual": q["eps_actual"] or 0.0,
                                          "estimate": q["eps_estimate"] or 0.0},
                                  labels={"period": q["period"], "date": q["event_date"],
                                          "currency": fu["currency"]}))  # fmt: skip
    if fu["streak"] >= 2:
        reasons.append(_signal("beat_streak", 1.0, "fundamental", count=fu["streak"]))
    elif fu["streak"] <= -2:
        reasons.append(_signal("miss_streak", -1.0, "fundamental", count=-fu["streak"]))
    upcoming = fu["next_earnings"]
    if upcoming and as_of and _days_between(as_of, upcoming["event_date"]) <= EARNINGS_SOON_DAYS:
        risks.append(Signal(code="earnings_soon", weight=0.0, pillar="event",
                            values={"days": float(_days_between(as_of, upcoming["event_date"]))},
                            labels={"period": upcoming["period"], "date": upcoming["event_date"]}))  # fmt: skip


def _days_between(start: str, end: str) -> int:
    return (date.fromisoformat(end) - date.fromisoformat(start)).days


def _growth_and_value(fu: Fundamentals, reasons: list[Signal]) -> None:
    growth = fu["eps_growth"]
    if growth is not None:
        code, weight = (
            ("eps_growth_strong", 1.0)
            if growth >= EPS_GROWTH_THRESHOLD
            else ("eps_decline", -1.0)
            if growth <= -EPS_GROWTH_THRESHOLD
            else ("eps_growth_flat", 0.0)
        )
        reasons.append(_signal(code, weight, "fundamental", growth=growth))
    rank, median = fu["pe_history_percentile"], fu["pe_history_median"]
    if rank is not None and median is not None and fu["pe"] is not None:
        if rank >= 1 - HISTORY_EDGE:
            reasons.append(_signal("pe_history_high", -0.5, "fundamental", pe=fu["pe"],
                                   median=median, rank=rank))  # fmt: skip
        elif rank <= HISTORY_EDGE:
            reasons.append(_signal("pe_history_low", 0.5, "fundamental", pe=fu["pe"],
                                   median=median, rank=rank))  # fmt: skip
    gap = fu["dy_vs_sector"]
    if gap is not None and gap >= DIVIDEND_GAP and fu["dividend_yield"] is not None:
        reasons.append(_signal("dividend_high", 0.5, "fundamental", dy=fu["dividend_yield"],
                               dy_median=fu["dy_sector_median"] or 0.0))  # fmt: skip


def event_weight(event: NewsEvent) -> float:
    """Half the news (its direction, or the size of an earnings surprise), half the reaction."""
    move = event["move"] or 0.0
    earnings = event["earnings"]
    if earnings is not None and earnings["surprise"] is not None:
        news = _clip(earnings["surprise"] / SURPRISE_SCALE)
    else:
        news = float(event["polarity"])
    return round(0.5 * news + 0.5 * _clip(move / SURPRISE_SCALE), 2)


def _event(event: NewsEvent, reasons: list[Signal], risks: list[Signal]) -> None:
    """A reported cause is a reason; a big move with no reported cause is a risk."""
    values = {"move": event["move"] or 0.0, "articles": float(len(event["articles"]))}
    labels = {"category": event["category"], "date": event["date"],
              "headline": event["headline"], "move_date": event["move_date"] or event["date"]}  # fmt: skip
    if event["explained"]:
        reasons.append(Signal(code="event", weight=event_weight(event), pillar="event",
                              values=values, labels=labels))  # fmt: skip
    elif abs(event["move"] or 0.0) > BIG_MOVE or event["articles"]:
        risks.append(Signal(code="event_unexplained", weight=0.0, pillar="event", values=values,
                            labels=labels))  # fmt: skip
