"""The final report document (Markdown) and the seed's workflow-level error report.

Both modes assemble the report here: the snapshot and figures tables come from the data,
the analysis / recommendation / review paragraphs from the writer (model or templates).
"""

from __future__ import annotations

from typing import Any

from agents.stock import sections as sec
from agents.stock import templates as t
from agents.stock.analysis import StockFigures
from agents.stock.events import NewsEvent
from agents.stock.fundamentals import Fundamentals
from agents.stock.research_filings import FiledAccounts, filed_lines, filed_source_line
from agents.stock.signals import Assessment
from agents.stock.state import Language, WorkflowError
from data_access.figures import RETURN_DEFINITION_EN, RETURN_DEFINITION_KO

WORKFLOW_ERROR_REPORT = "워크플로우 실행 중 오류가 발생했습니다."
DISCLAIMER = {
    "ko": "이 리포트는 데이터베이스의 가격·밸류에이션·실적·뉴스 자료로 계산한 지표에 기반한 참고 자료이며 투자 권유가 아닙니다.",
    "en": "This report is based on figures computed from the database's price, valuation, earnings and news data; it is not investment advice.",
}  # fmt: skip
HEADINGS = {
    "ko": {"title": "종목 리포트", "summary": "요약", "quote": "시세", "figures": "핵심 지표",
           "analysis": "분석", "recommendation": "추천", "news": "관련 뉴스", "review": "검토",
           "fundamentals": "실적·기본 지표", "earnings": "최근 분기 실적 (예상 대비)",
           "events": "주요 이벤트 (최근 30일)", "no_events": "최근 30일 이벤트가 없습니다.",
           "sources": "데이터 출처", "no_news": "관련 뉴스를 찾지 못했습니다.",
           "filed": "공시 재무 (OpenDART 단일회사 주요계정)"},
    "en": {"title": "Stock report", "summary": "Summary", "quote": "Quote", "figures": "Key figures",
           "analysis": "Analysis", "recommendation": "Recommendation", "news": "News",
           "fundamentals": "Earnings and fundamentals", "earnings": "Recent quarters (vs estimates)",
           "events": "Key events (last 30 days)", "no_events": "No events in the last 30 days.",
           "review": "Review", "sources": "Sources", "no_news": "No related news found.",
           "filed": "Filed accounts (OpenDART)"},
}  # fmt: skip


def final_report(
    *,
    stock: dict[str, Any],
    figures: StockFigures,
    fundamentals: Fundamentals,
    events: list[NewsEvent],
    assessment: Assessment,
    analysis: str,
    recommendation: str,
    review: str,
    news: list[dict[str, Any]],
    notes: list[str],
    as_of: str,
    lang: Language,
    warnings: list[str] | None = None,
    filed: FiledAccounts | None = None,
) -> str:
    """`as_of` is the stock's own last bar; `warnings` (stale data) stand under the title;
    `filed` is the company's imported OpenDART report (research_filings), with its source."""
    h = HEADINGS[lang]
    name = stock["name"] if lang == "ko" else (stock.get("name_en") or stock["name"])
    cur = stock["currency"]
    lines = [
        f"# {name} ({stock['security_id'].partition(':')[2]}) {h['title']}", "",  # its ticker
        f"{'기준일' if lang == 'ko' else 'As of'} {as_of} · {stock['market']} · {stock['sector']} · {cur}",
        *(f"\n> ⚠️ {w}" for w in warnings or []),
        "", f"## {h['summary']}", "",
        f"**{t.STANCE[lang][assessment['stance']]}** · {t.price(stock['current_price'], cur)} "
        f"({t.pct(stock['change_percent'])})", "", _summary_line(fundamentals, events, lang), "",
        t.weights_line(assessment, lang), "",
        f"## {h['quote']}", "", *_quote_table(stock, lang), "",
        f"## {h['figures']}", "", *_figures_table(figures, lang), "",
        f"## {h['fundamentals']}", "",
        *sec.markdown_table(sec.fundamental_rows(fundamentals, figures, lang),
                            sec.FUNDAMENTAL_HEADERS[lang]), "",
        f"**{h['earnings']}**", "",
        *(sec.markdown_table(sec.earnings_rows(fundamentals, lang), sec.EARNINGS_HEADERS[lang])
          or ["-"]), "",
        # its own section: the screen shows the fundamentals section as tables, this as text
        *([f"## {h['filed']}", "", *filed_lines(filed, lang), ""] if filed else []),
        f"## {h['events']}", "",
        *(sec.markdown_table(sec.event_rows(events, lang), sec.EVENT_HEADERS[lang])
          or [h["no_events"]]), "",
        f"## {h['analysis']}", "", analysis, "",
        f"## {h['recommendation']}", "", recommendation, "",
        f"## {h['news']}", "", *(_news_lines(news) or [h["no_news"]]), "",
        f"## {h['review']}", "", review, "",
        f"## {h['sources']}", "", *_source_lines(stock, figures, notes, as_of, lang),
        *filed_source_line(filed, lang), "",
        f"> {DISCLAIMER[lang]}",
    ]  # fmt: skip
    return "\n".join(lines) + "\n"


def _summary_line(fundamentals: Fundamentals, events: list[NewsEvent], lang: Language) -> str:
    """The latest reported quarter and the window's events, in one line."""
    ko = lang == "ko"
    parts = []
    if fundamentals["quarters"]:
        parts.append(("최근 실적 " if ko else "Latest earnings ")
                     + sec.quarter_sentence(fundamentals["quarters"][0], fundamentals["currency"], lang))  # fmt: skip
    big = [e for e in events if abs(e["move"] or 0.0) > 0.05]
    parts.append(f"최근 30일 이벤트 {len(events)}건 (5% 초과 변동 {len(big)}건)" if ko
                 else f"{len(events)} events in the last 30 days ({len(big)} with a move above 5%)")  # fmt: skip
    return " · ".join(parts)


def _quote_table(stock: dict[str, Any], lang: Language) -> list[str]:
    cur = stock["currency"]
    heads = (["현재가", "전일 대비", "거래량", "시가총액", "PER", "52주 고가", "52주 저가"]
             if lang == "ko" else ["Price", "Change", "Volume", "Market cap", "P/E", "52W high", "52W low"])  # fmt: skip
    values = [
        t.price(stock["current_price"], cur),
        f"{t.signed_price(stock['change'], cur)} ({t.pct(stock['change_percent'])})",
        f"{stock['volume']:,}", t.big_money(stock.get("market_cap"), cur, lang),
        t.number(stock.get("pe_ratio")), t.price(stock["52w_high"], cur), t.price(stock["52w_low"], cur),
    ]  # fmt: skip
    return ["| " + " | ".join(heads) + " |", "|" + " --- |" * len(heads),
            "| " + " | ".join(values) + " |"]  # fmt: skip


def _figures_table(figures: StockFigures, lang: Language) -> list[str]:
    head = "| 지표 | 값 |" if lang == "ko" else "| Figure | Value |"
    rows = [f"| {r['figure']} | {r['value']} |" for r in t.figure_rows(figures, lang)]
    return [head, "| --- | --- |", *rows, "", f"_{return_basis(lang)}_"]


def return_basis(lang: Language) -> str:
    """The written definition the report's returns follow (data_access.figures)."""
    return f"수익률: {RETURN_DEFINITION_KO}" if lang == "ko" else f"Returns: {RETURN_DEFINITION_EN}"


def _news_lines(news: list[dict[str, Any]]) -> list[str]:
    return [f"- [{n['title']}]({n['url']}) — {n.get('published_date', 'N/A')}"
            + (f", {n['source']}" if n.get("source") else "") for n in news]  # fmt: skip


def _source_lines(stock: dict[str, Any], figures: StockFigures, notes: list[str], as_of: str,
                  lang: Language) -> list[str]:  # fmt: skip
    source = stock.get("source", "database")
    imported = f" — {stock['price_source']}" if stock.get("price_source") else ""
    if lang == "ko":
        lines = [f"- 시세: {'yfinance' if source == 'yfinance' else 'PostgreSQL `stock_prices`'}"
                 f"{imported} (최근 거래일 {figures['trade_date']}, 기준일 {as_of})",
                 f"- 밸류에이션: PostgreSQL `stock_fundamentals` ({stock.get('fundamentals_date') or '-'})",
                 "- 실적: PostgreSQL `earnings_events` · 이벤트: PostgreSQL `news_articles` (최근 30일)"]  # fmt: skip
    else:
        lines = [f"- Prices: {'yfinance' if source == 'yfinance' else 'PostgreSQL stock_prices'}"
                 f"{imported} (last session {figures['trade_date']}, as of {as_of})",
                 f"- Valuation: PostgreSQL stock_fundamentals ({stock.get('fundamentals_date') or '-'})",
                 "- Earnings: PostgreSQL earnings_events · Events: PostgreSQL news_articles (last 30 days)"]  # fmt: skip
    return lines + [f"- {n}" for n in dict.fromkeys(notes)]


def error_report(symbol: str, errors: list[WorkflowError], reason: str, lang: Language) -> str:
    """What the run could not do and why (the report of a run that ended without data)."""
    if lang == "en":
        lines = [f"# Report for {symbol} could not be completed", "", f"Reason: {reason}", ""]
    else:
        lines = [f"# {symbol} 리포트를 완성하지 못했습니다", "", f"사유: {reason}", ""]
    lines += [
        f"- [{e['node']}{'/' + e['tool'] if e['tool'] else ''}] {e['message']}" for e in errors
    ]
    return "\n".join(lines) + "\n"
