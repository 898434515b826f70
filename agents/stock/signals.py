"""Rules that turn the figures into a stance with its reasons and risks (both modes use them).

Each rule looks at one figure and, past a threshold, adds a reason (with a signed weight) or a
risk. The stance follows the sum of the weights. The text of each code lives in templates.py.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from agents.stock.analysis import StockFigures

Stance = Literal["overweight", "neutral", "underweight"]
STANCE_THRESHOLD = 1.5
MOMENTUM_THRESHOLD = 0.10
VALUATION_THRESHOLD = 0.20
RSI_HIGH, RSI_LOW = 70.0, 30.0
DEEP_DRAWDOWN = -0.20
HIGH_VOLATILITY = 0.45
NEAR_EDGE = 0.10


class Signal(TypedDict):
    code: str
    weight: float
    values: dict[str, float]


class Assessment(TypedDict):
    stance: Stance
    score: float
    reasons: list[Signal]
    risks: list[Signal]


def assess(f: StockFigures) -> Assessment:
    reasons: list[Signal] = []
    risks: list[Signal] = []
    _trend(f, reasons)
    _momentum(f, reasons)
    _valuation(f, reasons, risks)
    _oscillators(f, reasons, risks)
    _risk_levels(f, risks)
    score = round(sum(s["weight"] for s in reasons), 2)
    stance: Stance = (
        "overweight"
        if score >= STANCE_THRESHOLD
        else "underweight"
        if score <= -STANCE_THRESHOLD
        else "neutral"
    )
    return Assessment(stance=stance, score=score, reasons=reasons, risks=risks)


def _signal(code: str, weight: float, **values: float) -> Signal:
    return Signal(code=code, weight=weight, values=values)


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
        risks.append(_signal("pe_missing", 0.0))
        return
    if premium is None or median is None:
        return
    if premium <= -VALUATION_THRESHOLD:
        reasons.append(_signal("pe_discount", 1.0, pe=pe, median=median, premium=premium))
    elif premium >= VALUATION_THRESHOLD:
        reasons.append(_signal("pe_premium", -1.0, pe=pe, median=median, premium=premium))
    else:
        reasons.append(_signal("pe_inline", 0.0, pe=pe, median=median, premium=premium))


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
