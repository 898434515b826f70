"""Offline report text in Korean and English, filled only with computed figures.

The offline writer uses `analysis_text`, `recommendation_text` and `review_text` where a model
would write; `final_report` assembles the document in both modes, so the figures, reasons and
risks a recommendation rests on are always in it.
"""

from __future__ import annotations

from typing import Any

from agents.stock.analysis import StockFigures
from agents.stock.signals import Assessment, Signal
from agents.stock.state import Language
from data_access.figures import PERIODS

STANCE = {
    "ko": {"overweight": "비중 확대", "neutral": "중립", "underweight": "비중 축소"},
    "en": {"overweight": "Overweight", "neutral": "Neutral", "underweight": "Underweight"},
}

SIGNALS: dict[str, dict[str, str]] = {
    "trend_up": {"ko": "주가가 60일({vs60})·120일({vs120}) 이동평균 위에 있어 추세가 상승 쪽입니다.",
                 "en": "Price is above its 60-day ({vs60}) and 120-day ({vs120}) moving averages: uptrend."},
    "trend_down": {"ko": "주가가 60일({vs60})·120일({vs120}) 이동평균 아래에 있어 추세가 하락 쪽입니다.",
                   "en": "Price is below its 60-day ({vs60}) and 120-day ({vs120}) moving averages: downtrend."},
    "trend_mixed": {"ko": "60일({vs60})·120일({vs120}) 이동평균 대비 위치가 엇갈려 추세가 뚜렷하지 않습니다.",
                    "en": "Price vs 60-day ({vs60}) and 120-day ({vs120}) averages is mixed: no clear trend."},
    "momentum_strong": {"ko": "3개월 수익률 {r3m}로 모멘텀이 강합니다.",
                        "en": "3-month return of {r3m}: strong momentum."},
    "momentum_weak": {"ko": "3개월 수익률 {r3m}로 모멘텀이 약합니다.",
                      "en": "3-month return of {r3m}: weak momentum."},
    "pe_discount": {"ko": "PER {pe}배로 섹터 중앙값 {median}배보다 {gap} 낮아 상대적으로 저평가입니다.",
                    "en": "P/E of {pe}x is {premium} vs the sector median of {median}x: relatively cheap."},
    "pe_premium": {"ko": "PER {pe}배로 섹터 중앙값 {median}배보다 {gap} 높아 상대적으로 고평가입니다.",
                   "en": "P/E of {pe}x is {premium} vs the sector median of {median}x: relatively expensive."},
    "pe_inline": {"ko": "PER {pe}배로 섹터 중앙값 {median}배와 비슷합니다 ({premium}).",
                  "en": "P/E of {pe}x is in line with the sector median of {median}x ({premium})."},
    "pe_below": {"ko": "PER {pe}배로 섹터 중앙값 {median}배보다 {gap} 낮습니다 (저평가로 볼 만큼의 차이는 아닙니다).",
                 "en": "P/E of {pe}x is {gap} below the sector median of {median}x (not enough to call it cheap)."},
    "pe_above": {"ko": "PER {pe}배로 섹터 중앙값 {median}배보다 {gap} 높습니다 (고평가로 볼 만큼의 차이는 아닙니다).",
                 "en": "P/E of {pe}x is {gap} above the sector median of {median}x (not enough to call it expensive)."},
    "rsi_overbought": {"ko": "RSI(14) {rsi}로 과매수 구간입니다.", "en": "RSI(14) of {rsi}: overbought."},
    "rsi_oversold": {"ko": "RSI(14) {rsi}로 과매도 구간이라 반등 여지가 있습니다.",
                     "en": "RSI(14) of {rsi}: oversold, room for a rebound."},
    "rsi_overbought_risk": {"ko": "과매수(RSI {rsi}) 뒤 단기 조정 가능성", "en": "Short-term pullback after overbought RSI ({rsi})"},
    "rsi_oversold_risk": {"ko": "과매도(RSI {rsi})가 이어질 수 있는 하락 압력", "en": "Selling pressure may persist (RSI {rsi})"},
    "pe_missing": {"ko": "PER이 없거나 음수(적자)라 밸류에이션 비교가 어렵습니다", "en": "No positive P/E: valuation cannot be compared"},
    "deep_drawdown": {"ko": "52주 고점 대비 {drawdown} 하락한 상태", "en": "Trading {drawdown} below its 52-week closing high"},
    "high_volatility": {"ko": "60일 연환산 변동성 {volatility}로 높음", "en": "High 60-day annualized volatility of {volatility}"},
    "near_52w_high": {"ko": "52주 범위 상단({position})에 있어 되돌림 위험", "en": "Near the top of its 52-week range ({position})"},
    "near_52w_low": {"ko": "52주 범위 하단({position})에 있어 추세 하락 지속 위험", "en": "Near the bottom of its 52-week range ({position})"},
    "max_drawdown": {"ko": "최근 1년 최대 낙폭 {drawdown}", "en": "Maximum drawdown over the past year: {drawdown}"},
    "earnings_beat": {"ko": "최근 실적({period}, {date} 발표): EPS 실적 {actual}, 예상 {estimate} 대비 {surprise} 상회했습니다.",
                      "en": "Latest earnings ({period}, reported {date}): EPS of {actual} beat the {estimate} estimate by {surprise}."},
    "earnings_miss": {"ko": "최근 실적({period}, {date} 발표): EPS 실적 {actual}, 예상 {estimate} 대비 {surprise} 하회했습니다.",
                      "en": "Latest earnings ({period}, reported {date}): EPS of {actual} missed the {estimate} estimate by {surprise}."},
    "earnings_inline": {"ko": "최근 실적({period}, {date} 발표): EPS 실적 {actual}, 예상 {estimate}에 부합했습니다 ({surprise}).",
                        "en": "Latest earnings ({period}, reported {date}): EPS of {actual} met the {estimate} estimate ({surprise})."},
    "beat_streak": {"ko": "최근 {count}개 분기 연속 컨센서스를 상회했습니다.", "en": "Beat estimates {count} quarters in a row."},
    "miss_streak": {"ko": "최근 {count}개 분기 연속 컨센서스를 하회했습니다.", "en": "Missed estimates {count} quarters in a row."},
    "earnings_soon": {"ko": "{days}일 뒤({date}) {period} 실적 발표 예정: 결과에 따라 변동성 확대 가능",
                      "en": "{period} earnings due in {days} days ({date}): volatility around the report"},
    "eps_growth_strong": {"ko": "주당순이익(최근 4분기 합산)이 1년 전보다 {growth} 늘었습니다.",
                          "en": "Trailing EPS grew {growth} from a year earlier."},
    "eps_decline": {"ko": "주당순이익(최근 4분기 합산)이 1년 전보다 {growth} 변했습니다(감소).",
                    "en": "Trailing EPS changed {growth} from a year earlier (a decline)."},
    "eps_growth_flat": {"ko": "주당순이익(최근 4분기 합산)의 1년 변화는 {growth}로 크지 않습니다.",
                        "en": "Trailing EPS changed {growth} over the year: little change."},
    "pe_history_high": {"ko": "PER {pe}배가 자기 과거 범위 상단(백분위 {rank}, 중앙값 {median}배)에 있습니다.",
                        "en": "P/E of {pe}x is near the top of its own history (percentile {rank}, median {median}x)."},
    "pe_history_low": {"ko": "PER {pe}배가 자기 과거 범위 하단(백분위 {rank}, 중앙값 {median}배)에 있습니다.",
                       "en": "P/E of {pe}x is near the bottom of its own history (percentile {rank}, median {median}x)."},
    "dividend_high": {"ko": "배당수익률 {dy}로 섹터 중앙값 {dy_median}보다 높습니다.",
                      "en": "Dividend yield of {dy} is above the sector median of {dy_median}."},
    "event": {"ko": "{date} {category} — {headline}: 주가 반응 {move} ({move_date}, 기사 {articles}건).",
              "en": "{date} {category} — {headline}: price reaction {move} ({move_date}, {articles} articles)."},
    "event_unexplained": {"ko": "{move_date} 주가 {move} 변동 — 뉴스에서 원인을 찾지 못했습니다 (관련 기사 {articles}건)",
                          "en": "{move_date} move of {move} with no cause found in the news ({articles} articles)"},
}  # fmt: skip
EVENT_CATEGORIES = {
    "ko": {"earnings": "실적", "guidance": "가이던스", "contract": "계약·수주", "block_deal": "블록딜",
           "regulation": "규제·소송", "product": "제품·임상", "capital": "자본 정책",
           "analyst": "투자의견", "move": "시세 급변"},
    "en": {"earnings": "Earnings", "guidance": "Guidance", "contract": "Contract/order",
           "block_deal": "Block deal", "regulation": "Regulation/legal", "product": "Product/trial",
           "capital": "Capital policy", "analyst": "Analyst view", "move": "Price move"},
}  # fmt: skip
# An earnings event's status in the data ('expected') as the report says it.
EARNINGS_STATUS = {"ko": {"confirmed": "확정", "expected": "예정", "reported": "발표", "estimated": "추정"},
                   "en": {}}  # fmt: skip
_PERCENT_KEYS = {"vs60", "vs120", "r3m", "premium", "gap", "drawdown", "volatility", "position",
                 "surprise", "growth", "move", "dy", "dy_median"}  # fmt: skip
# 'gap': a premium's size after '보다 … 낮아' ('-46.60% 낮아' said the fall twice)
_UNSIGNED_KEYS = {"position", "dy", "dy_median", "gap"}
_EPS_KEYS = {"actual", "estimate"}
_COUNT_KEYS = {"count", "days", "articles"}


def earnings_status(status: object, lang: Language) -> str:
    """'expected' → '예정' in a Korean report (English keeps the data's word)."""
    return EARNINGS_STATUS[lang].get(str(status), str(status))


def pct(value: float | None, signed: bool = True) -> str:
    if value is None:
        return "-"
    return f"{value * 100:+.2f}%" if signed else f"{value * 100:.2f}%"


def price(value: float | None, currency: str) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}원" if currency == "KRW" else f"${value:,.2f}"


def signed_price(value: float | None, currency: str) -> str:
    if value is None:
        return "-"
    sign = "+" if value > 0 else "-" if value < 0 else ""
    return sign + price(abs(value), currency)


def number(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def big_money(value: float | None, currency: str, lang: Language) -> str:
    if value is None:
        return "-"
    if currency == "KRW":
        if abs(value) < 1e12:  # small caps in 억원 rather than '0.3조원'
            return f"{value / 1e8:,.0f}억원" if lang == "ko" else f"KRW {value / 1e9:,.1f}bn"
        return f"{value / 1e12:,.1f}조원" if lang == "ko" else f"KRW {value / 1e12:,.1f}tn"
    return f"${value / 1e9:,.1f}B" if abs(value) >= 1e9 else f"${value / 1e6:,.0f}M"


def _value_text(key: str, value: float, labels: dict[str, str]) -> str:
    if key in _EPS_KEYS:
        return price(value, labels.get("currency", "KRW"))  # EPS as reported
    if key in _COUNT_KEYS:
        return f"{value:,.0f}"
    if key == "rank":
        return f"{value * 100:.0f}%"
    if key in _PERCENT_KEYS:
        return pct(value, key not in _UNSIGNED_KEYS)
    return number(value)


def signal_text(signal: Signal, lang: Language) -> str:
    labels = dict(signal.get("labels", {}))
    values = {k: _value_text(k, v, labels) for k, v in signal["values"].items()}
    if "category" in labels:
        labels["category"] = EVENT_CATEGORIES[lang].get(labels["category"], labels["category"])
    return SIGNALS[signal["code"]][lang].format(**labels, **values)


def _window(w: dict[str, Any] | None) -> str:
    """' (2025-11-20~)': the base close a calendar-period return starts from (it ends at the
    report's own last bar, its 기준일)."""
    return f" ({w['start_date']}~)" if w else ""


def figure_rows(f: StockFigures, lang: Language) -> list[dict[str, str]]:
    """The figures table: one row per figure, formatted, in the report's language."""
    ko = lang == "ko"
    cur = f["currency"]
    rows = [(("현재가" if ko else "Price"), price(f["price"], cur))]
    windows = f.get("return_windows") or {}
    rows += [((f"수익률 {PERIODS[k].ko}" if ko else f"Return {k.upper()}")  # '1M', 'YTD'
              + _window(windows.get(k)), pct(v)) for k, v in f["returns"].items()]  # fmt: skip
    rows += [
        ("변동성 20일(연환산)" if ko else "Volatility 20d (ann.)", pct(f["volatility_20d"], False)),
        ("변동성 60일(연환산)" if ko else "Volatility 60d (ann.)", pct(f["volatility_60d"], False)),
        ("1년 최대 낙폭" if ko else "Max drawdown 1Y", pct(f["max_drawdown_1y"])),
        ("고점 대비 현재 낙폭" if ko else "Current drawdown", pct(f["drawdown_current"])),
    ]
    for key, value in f["ma"].items():
        window = key.removeprefix("ma")
        label = f"{window}일 이동평균" if ko else f"{window}-day MA"
        rows.append((label, f"{price(value, cur)} ({pct(f['price_vs_ma'][key])})"))
    rows += [
        ("RSI(14)", number(f["rsi14"], 1)),
        ("52주 고가 / 저가" if ko else "52W high / low", f"{price(f['high_52w'], cur)} / {price(f['low_52w'], cur)}"),
        ("52주 범위 내 위치" if ko else "Position in 52W range", pct(f["range_position"], False)),
        ("PER" if ko else "P/E", number(f["pe"])),
        (f"섹터 PER 중앙값 ({f['peer_scope']}, {f['peer_count']}종목)" if ko
         else f"Sector median P/E ({f['peer_scope']}, {f['peer_count']} stocks)", number(f["sector_median_pe"])),
        ("섹터 대비 PER 프리미엄" if ko else "P/E premium vs sector", pct(f["pe_premium"])),
    ]  # fmt: skip
    return [{"figure": k, "value": v} for k, v in rows]


def analysis_text(stock: dict[str, Any], f: StockFigures, lang: Language) -> str:
    r = f["returns"]
    if lang == "en":
        return (
            f"{stock['name_en'] or stock['name']} closed at {price(f['price'], f['currency'])} on "
            f"{f['trade_date']} ({pct(stock['change_percent'])} on the day). Returns: 1M {pct(r['1m'])}, "
            f"3M {pct(r['3m'])}, 1Y {pct(r['1y'])}. 60-day volatility is "
            f"{pct(f['volatility_60d'], False)} annualized; the stock is {pct(f['drawdown_current'])} "
            f"from its 52-week closing high (max drawdown {pct(f['max_drawdown_1y'])}). RSI(14) is "
            f"{number(f['rsi14'], 1)} and the price sits at {pct(f['range_position'], False)} of its "
            f"52-week range. P/E {number(f['pe'])} vs sector median {number(f['sector_median_pe'])} "
            f"({pct(f['pe_premium'])})."
        )
    return (
        f"{stock['name']}의 {f['trade_date']} 종가는 {price(f['price'], f['currency'])}"
        f"(전일 대비 {pct(stock['change_percent'])})입니다. 수익률은 1개월 {pct(r['1m'])}, "
        f"3개월 {pct(r['3m'])}, 1년 {pct(r['1y'])}입니다. 60일 연환산 변동성은 "
        f"{pct(f['volatility_60d'], False)}이고, 52주 종가 고점 대비 {pct(f['drawdown_current'])} "
        f"위치(1년 최대 낙폭 {pct(f['max_drawdown_1y'])})입니다. RSI(14)는 {number(f['rsi14'], 1)}, "
        f"52주 범위 내 위치는 {pct(f['range_position'], False)}입니다. PER은 {number(f['pe'])}배로 "
        f"섹터 중앙값 {number(f['sector_median_pe'])}배 대비 {pct(f['pe_premium'])}입니다."
    )


PILLARS = {"ko": {"technical": "기술적", "fundamental": "기본적", "event": "이벤트"},
           "en": {"technical": "Technical", "fundamental": "Fundamental", "event": "Events"}}  # fmt: skip


def weights_line(a: Assessment, lang: Language) -> str:
    """How the view was weighed: each pillar's weight and score, then the total."""
    pillars = a.get("pillars") or {}
    parts = [f"{PILLARS[lang][k]} {p['weight'] * 100:.0f}% × {p['score']:+.2f}"
             for k, p in pillars.items()]  # fmt: skip
    label, total = ("가중치", "종합") if lang == "ko" else ("Weights", "total")
    return f"{label}: " + " + ".join(parts) + f" = {total} {a['score']:+.2f}"


def _pillar_tag(signal: Signal, lang: Language) -> str:
    pillar = signal.get("pillar")
    return f"[{PILLARS[lang][pillar]} {signal['weight']:+.1f}] " if pillar else ""


def rules_block(a: Assessment, lang: Language) -> str:
    """The weighed reasons and the risks, each reason tagged with its pillar and weight."""
    lines = [weights_line(a, lang), "", "근거:" if lang == "ko" else "Reasons:"]
    lines += [f"- {_pillar_tag(s, lang)}{signal_text(s, lang)}" for s in a["reasons"]] or ["- -"]
    lines += ["", "위험 요인:" if lang == "ko" else "Risks:"]
    lines += [f"- {signal_text(s, lang)}" for s in a["risks"]] or ["- -"]
    return "\n".join(lines)


def recommendation_text(a: Assessment, calculations: list[dict[str, Any]], lang: Language) -> str:
    stance = STANCE[lang][a["stance"]]
    head = (f"**의견: {stance}** (종합 점수 {a['score']:+.2f}, 범위 -1~+1)" if lang == "ko"
            else f"**View: {stance}** (total score {a['score']:+.2f} on -1 to +1)")  # fmt: skip
    lines = [head, "", rules_block(a, lang)]
    if calculations:
        lines += ["", "계산:" if lang == "ko" else "Calculations:"]
        lines += [f"- {c['label']}: `{c['expression']}` = {number(c['result'])}"
                  for c in calculations if c.get("result") is not None]  # fmt: skip
    return "\n".join(lines)


def review_text(f: StockFigures, a: Assessment, news_count: int, notes: list[str],
                lang: Language) -> str:  # fmt: skip
    weights = [s["weight"] for s in a["reasons"]]
    positive, negative = sum(w > 0 for w in weights), sum(w < 0 for w in weights)
    if lang == "en":
        text = (f"Checked: {f['sessions']} sessions of prices, {f['peer_count']} sector peers for "
                f"the P/E median, {news_count} news articles. {positive} positive and {negative} "
                f"negative signals support a {STANCE['en'][a['stance']]} view.")  # fmt: skip
    else:
        text = (f"검토: 가격 {f['sessions']}거래일, PER 비교 섹터 종목 {f['peer_count']}개, 뉴스 "
                f"{news_count}건을 확인했습니다. 긍정 신호 {positive}개와 부정 신호 {negative}개가 "
                f"'{STANCE['ko'][a['stance']]}' 의견을 뒷받침합니다.")  # fmt: skip
    if notes:
        # each note a sentence: the typo note ends in its candidates' codes ('… 삼성증권(016360)')
        # and ran into the next ('… (016360) Tavily가 설정되지 않아 …')
        ended = (n if n.rstrip().endswith((".", "?", "!")) else f"{n.rstrip()}." for n in notes)
        text += (" Notes: " if lang == "en" else " 참고: ") + " ".join(dict.fromkeys(ended))
    return text
