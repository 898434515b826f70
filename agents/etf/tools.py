"""The ten ETF tools of seed 000 as smolagents tools; each answers the seed's JSON as text.

    from agents.etf.tools import TOOLS
    json.loads(TOOLS[0](query="KODEX"))  # [{"code": "069500", "name": "KODEX 200", ...}, ...]

Expected failures (bad input, unknown code, guard rejection, store down) come back as
`{"status": "error", "error": …, "retry_hint": …}` (plus `suggestions` for unknown codes), so
the agent can act on them instead of crashing. Every call is recorded in the run's evidence
collector (tool, arguments, duration, status, parsed result) and every query behind it as a
structured citation.
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any, cast

from psycopg_pool import ConnectionPool
from smolagents import Tool

from agents.etf import composite
from agents.etf.data import (
    PRICE_PERIODS,
    SESSION_STATISTICS,
    SUMMARY_PARTS,
    EtfData,
    SessionAsk,
    SummaryPart,
    UnknownEntity,
    check_etf_codes,
    check_period,
    session_figure,
)
from agents.evidence import EvidenceCollector, Stopwatch, current_collector
from data_access.errors import QueryFailed, QueryRejected, StoreUnavailable, ToolInputError
from data_access.graph.base import GraphStore
from data_access.guard_reasons import korean_reason

logger = logging.getLogger(__name__)

_CODE_HINT = "etf_search로 이름을 검색해 정확한 6자리 코드를 확인한 뒤 다시 호출하세요."
_STOCK_HINT = "stock_search로 종목명을 검색해 코드를 확인한 뒤 다시 호출하세요."


@dataclass
class ToolContext:
    """Where tools read from and report to; unset parts resolve to the process defaults."""

    store: GraphStore | None = None
    pool: ConnectionPool | None = None
    collector: EvidenceCollector | None = None
    as_of_date: str | None = None

    def data(self) -> EtfData:
        from data_access.graph import get_graph_store

        collector = self.collector or current_collector()
        return EtfData(self.store or get_graph_store(), self.pool, collector, self.as_of_date)


def _optional(kind: str, description: str) -> dict[str, Any]:
    """A tool input the call may leave out."""
    return {"type": kind, "description": description, "nullable": True}


_PERIOD_HELP = ("조회 기간: '1w', '1m'(기본값), '3m', '6m', '1y', 'ytd'(연초 대비), 'mtd'(전월 말 대비), "
                "또는 1년 이내의 N일·N주·N개월 ('45d', '10w', '5m'). "
                "기간 수익률(change_rate)은 기준일−기간 당일 또는 그 직전 거래일 종가 대비입니다.")  # fmt: skip


def error_payload(error: str, retry_hint: str, **extra: Any) -> dict[str, Any]:
    return {"status": "error", "error": error, "retry_hint": retry_hint, **extra}


def _error_for(exc: Exception, hint: str) -> tuple[dict[str, Any], str]:
    """The tool-error JSON and trace status for an expected failure."""
    if isinstance(exc, UnknownEntity):
        names = ", ".join(f"{s['code']} {s['name']}" for s in exc.suggestions) or "없음"
        return error_payload(f"{exc} 가까운 후보: {names}", hint,
                             suggestions=exc.suggestions), "error"  # fmt: skip
    if isinstance(exc, QueryRejected):
        return error_payload(
            f"쿼리가 거부되었습니다: {korean_reason(exc.reason) or exc.reason}",
            "MATCH로 시작하는 읽기 전용 쿼리만 가능합니다. RETURN은 단일 맵으로 감싸세요.",
        ), "rejected"
    if isinstance(exc, ToolInputError):
        return error_payload(str(exc), hint), "error"
    if isinstance(exc, QueryFailed):
        return error_payload(
            f"쿼리 실행 실패: {exc}", "쿼리를 단순하게 고치거나 전용 도구를 쓰세요."
        ), "error"
    if isinstance(exc, StoreUnavailable):
        return error_payload(
            f"저장소에 연결할 수 없습니다: {exc}", "잠시 후 다시 시도하세요."
        ), "error"
    raise exc


class EtfTool(Tool):
    """Shared plumbing: context, JSON output, error form, evidence recording."""

    output_type = "string"
    retry_hint = _CODE_HINT

    def __init__(self, context: ToolContext | None = None) -> None:
        super().__init__()
        self.context = context or ToolContext()

    def _invoke(self, arguments: dict[str, Any], work: Callable[[EtfData], Any]) -> str:
        clock = Stopwatch()
        data = self.context.data()
        status, error = "ok", None
        try:
            result: Any = work(data)
        except (ToolInputError, QueryRejected, QueryFailed, StoreUnavailable) as exc:
            result, status = _error_for(exc, self.retry_hint)
            error = result["error"]
            logger.info("tool %s failed: %s", self.name, error)
        text = json.dumps(result, ensure_ascii=False)
        if data.collector is not None:
            data.collector.add_call(self.name, arguments, clock.ms, status, error=error,
                                    result=result, preview=text)  # fmt: skip
        return text


class ETFSearchTool(EtfTool):
    name = "etf_search"
    description = (
        "ETF를 이름이나 코드로 검색합니다 (KODEX, TIGER, ARIRANG 등). 최대 10건. "
        'JSON 리스트 [{"code", "name", "expense_ratio"}]를 문자열로 돌려줍니다.'
    )
    inputs = {"query": {"type": "string", "description": "검색 키워드 (ETF 이름 또는 코드)"}}

    def forward(self, query: str) -> str:
        return self._invoke({"query": query}, lambda d: d.etf_search(query))


class StockSearchTool(EtfTool):
    name = "stock_search"
    description = (
        "개별 주식 종목(삼성전자, SK하이닉스 등)을 이름이나 코드로 검색합니다. 최대 10건. "
        'JSON 리스트 [{"code", "name"}]를 문자열로 돌려줍니다.'
    )
    inputs = {"query": {"type": "string", "description": "검색 키워드 (종목 이름 또는 코드)"}}
    retry_hint = _STOCK_HINT

    def forward(self, query: str) -> str:
        return self._invoke({"query": query}, lambda d: d.stock_search(query))


class ListTagsTool(EtfTool):
    name = "list_tags"
    description = (
        "그래프에 등록된 모든 태그(테마)와 태그별 ETF 수를 조회합니다. "
        'JSON 리스트 [{"name", "count"}]를 문자열로 돌려줍니다.'
    )
    inputs: dict[str, dict[str, Any]] = {}

    def forward(self) -> str:
        return self._invoke({}, lambda d: d.list_tags())


class GetETFInfoTool(EtfTool):
    name = "get_etf_info"
    description = (
        "ETF의 기본정보, 운용사, 태그, 상위 보유종목 10개, 최근 수익률(1w/1m/3m, %)을 조회합니다. "
        'JSON {"code", "name", "expense_ratio", "company", "tags", "top_holdings", "returns"}.'
    )
    inputs = {"etf_code": {"type": "string", "description": "ETF 종목코드 (예: '069500')"}}

    def forward(self, etf_code: str) -> str:
        return self._invoke({"etf_code": etf_code}, lambda d: composite.etf_info(d, etf_code))


class FindSimilarETFsTool(EtfTool):
    name = "find_similar_etfs"
    description = (
        "유사한 ETF를 찾습니다. basis='holdings'(기본값): 보유종목 비중 유사도 — similarity = 공통 "
        "종목별 min(비중A, 비중B)의 합(%), overlap = 공통 보유 종목 수 (기준 ETF의 최신 스냅샷), "
        'JSON 리스트 [{"etf_code", "name", "overlap", "similarity"}]. basis=\'returns\': 기간(period) '
        "일간 수익률의 상관계수 — "
        'JSON 리스트 [{"etf_code", "name", "correlation", "days", "start_date", "end_date"}]. '
        "둘 다 유사도 내림차순."
    )
    inputs = {
        "etf_code": {"type": "string", "description": "ETF 종목코드 (예: '069500')"},
        "basis": _optional("string", "'holdings'(기본값) 또는 'returns'"),
        "period": _optional("string", "basis='returns'의 기간: '1m', '3m'(기본값), '6m', '1y'"),
    }  # fmt: skip

    def forward(self, etf_code: str, basis: str | None = None, period: str | None = None) -> str:
        if (basis or "holdings") == "returns":
            window = period or "3m"
            return self._invoke(
                {"etf_code": etf_code, "basis": "returns", "period": window},
                lambda d: composite.find_similar_by_returns(d, etf_code, window),
            )
        return self._invoke(
            {"etf_code": etf_code}, lambda d: composite.find_similar_etfs(d, etf_code)
        )


class GetHoldingsChangesTool(EtfTool):
    name = "get_holdings_changes"
    description = (
        "ETF 보유종목 비중 변화(신규편입 added/제외 removed/비중증가 increased/비중감소 decreased)를 "
        "조회합니다. unchanged는 제외. JSON 리스트 "
        '[{"stock_code", "stock_name", "change_type", "old_weight", "new_weight"}].'
    )
    inputs = {
        "etf_code": {"type": "string", "description": "ETF 종목코드 (예: '069500')"},
        "period": _optional(
            "string", "비교 기간: '1d'(전거래일, 기본값), '1w'(1주), '1m'(1개월), '3m', '6m', '1y'"
        ),  # fmt: skip
    }

    def forward(self, etf_code: str, period: str | None = None) -> str:
        period = period or "1d"
        return self._invoke(
            {"etf_code": etf_code, "period": period},
            lambda d: composite.holdings_changes(d, etf_code, period),
        )


class GetETFPricesTool(EtfTool):
    name = "get_etf_prices"
    description = (
        "ETF의 과거 가격(종가, 거래량, 시가총액, 순자산총액)을 조회합니다. "
        'JSON {"summary": {etf_code, period, data_count, start_date, end_date, start_close, '
        "end_close, previous_close, high, low, change_rate, avg_volume, volatility, "
        "latest_market_cap, latest_net_assets}, "
        '"daily": [{date, close, volume, market_cap, net_assets}] (최신순)}. '
        "여러 ETF를 한꺼번에 보려면 코드를 쉼표로 이어 주세요 ('069500,102110'): "
        '{"summaries": {code: summary}} (daily 없음, 한 번의 쿼리). '
        "summary='ends'이면 구간의 양 끝(기준 종가·마지막 두 종가·최신 순자산)만, 'range'이면 "
        "여기에 high, low, avg_volume을 더해 읽어 더 빠르며, 빠진 값(volatility, trading_value "
        "등)은 null입니다. summary에는 from_high·from_low(마지막 종가의 구간 최고·최저 종가 대비 %)와 "
        "day_change(직전 종가 대비 %)도 있습니다. against='3m'처럼 더 긴 기간을 주면 각 요약에 "
        "against_avg_volume(그 기간 평균 거래량)과 volume_surge(avg_volume / against_avg_volume)를 "
        "더합니다. ETF 하나의 최근 N거래일(또는 N일·N주·N개월·N분기·N년, 연초 이후) 통계는 statistic("
        f"{', '.join(repr(s) for s in SESSION_STATISTICS)}), sessions(N), unit('session' 기본, "
        "'day','week','month','quarter','year','this_year'), field('close' 기본, 'volume','nav','market_cap','net_assets',"
        "'trading_value'(종가 × 거래량), 'premium'(괴리율 %))를 "
        '주면 "window": {field, statistic, sessions, unit, value, at(최고·최저일), high, low, '
        "first, last, count, text(한국어 문장), text_en}로 계산해 돌려줍니다 (표준편차는 표본 "
        "표준편차, volatility는 일간 수익률 표준편차의 연환산 %, drawdown은 창 안 종가의 최대 낙폭 %(고점·저점 모두 창 안), max_move·min_move는 하루 최대 상승·하락률 %와 그 날 at). ETF 집합은 etf_code 대신 rows"
        " (graph_query가 돌려준 행 리스트)로 주면 각 행에 columns('이름=요약필드'를 쉼표로, 예: "
        "'return=change_rate,from_high')의 값을 더하고, where([[열, 비교, 숫자 또는 기준 ETF 코드]])로 "
        "거르고, order_by(열)·descending으로 정렬해 top개로 자른 표를 한 번에 돌려줍니다: "
        '{"rows", "tied"(top번째와 같은 값이라 잘린 행), "count"(자르기 전 행 수), "bars"(기준 ETF의 '
        '값), "value"(aggregate=\'avg:return\' 등의 집계), "summaries"(돌려준 행의 요약)}.'
    )
    inputs = {
        "etf_code": _optional("string", "ETF 종목코드 (예: '069500'), 또는 쉼표로 이은 여러 코드 "
                              "(rows를 주면 생략)"),
        "period": _optional("string", _PERIOD_HELP),
        "summary": _optional("string", "여러 ETF일 때: 'all'(기본값), 'range' 또는 'ends'(더 빠름)"),
        "against": _optional("string", "여러 ETF일 때: 평균 거래량을 견줄 더 긴 기간 (예: '3m') → "
                             "volume_surge"),
        "statistic": _optional("string", "ETF 하나일 때: 최근 sessions(unit) field 값의 통계 ("
                               + ", ".join(repr(s) for s in SESSION_STATISTICS) + ")"),
        "sessions": _optional("integer", "statistic을 계산할 구간의 길이: 최근 거래일 수(unit이 "
                              "'session'), 또는 일·주·개월·분기·년 수 (1년 이내)"),
        "unit": _optional("string", "sessions의 단위: 'session'(기본값, 거래일), 'day', 'week', "
                          "'month', 'quarter', 'year', 또는 달력 주·월·연 'prev_week'(지난주), "
                          "'prev_month'(지난달), 'this_week', 'this_month', 'this_year'(연초 이후) "
                          "(sessions=1)"),
        "field": _optional("string", "statistic의 값: 'close'(기본값), 'volume', 'nav', "
                           "'market_cap', 'net_assets', 'trading_value'(종가 × 거래량), "
                           "'premium'(괴리율 %)"),
        "span": _optional("string", "sessions·unit 대신 달력 구간 'YYYY-MM-DD~YYYY-MM-DD' (작년, 3분기, "
                          "10월처럼 이름 붙은 기간): statistic을 그 구간의 거래일로 계산 (수익률·변동성·"
                          "낙폭은 구간 직전 종가부터)"),
        "bar": _optional("number", "statistic이 days_above·days_at_least·days_below·days_at_most"
                         "일 때 기준값 (field의 단위, 예: 종가 60000): 그 기준을 넘은(못 미친) 날 수"),
        "rows": _optional("array", "ETF 집합의 행 (graph_query 결과 [{code, name, …}]; etf_code 대신)"),
        "columns": _optional("string", "rows에 더할 요약 값: '이름=요약필드'를 쉼표로 (예: "
                             "'return=change_rate')"),
        "where": _optional("array", "rows의 조건 [[열, '>'|'>='|'<'|'<='|'=', 숫자 또는 기준 ETF 코드]] "
                           "(코드면 rows 안 그 ETF의 같은 열 값이 기준이고 그 ETF는 빠집니다)"),
        "order_by": _optional("string", "rows를 정렬할 열 (값이 없는 행은 빠짐)"),
        "descending": _optional("boolean", "order_by 내림차순 (기본값 true)"),
        "top": _optional("integer", "order_by로 정렬한 뒤 앞의 N개만 (동률은 tied)"),
        "aggregate": _optional("string", "돌려줄 행의 집계 '함수:열' (count, sum, avg, max, min; "
                               "예: 'avg:return')"),
    }  # fmt: skip

    def forward(self, etf_code: str | None = None, period: str | None = None,
                summary: str | None = None, against: str | None = None,
                statistic: str | None = None, sessions: int | None = None,
                field: str | None = None, unit: str | None = None, bar: float | None = None,
                span: str | None = None, rows: Any = None,
                columns: str | None = None, where: Any = None, order_by: str | None = None,
                descending: bool | None = None, top: int | None = None,
                aggregate: str | None = None) -> str:  # fmt: skip
        period = period or "1m"
        asked = {"summary": summary, "against": against, "statistic": statistic,
                 "sessions": sessions, "field": field, "unit": unit, "bar": bar, "span": span,
                 "columns": columns,
                 "where": where, "order_by": order_by, "descending": descending, "top": top,
                 "aggregate": aggregate}  # fmt: skip
        code_text = etf_code or ""

        set_args = (columns, where, order_by, descending, top, aggregate)

        def work(d: EtfData) -> Any:
            checked = check_period(period, PRICE_PERIODS)
            days = _span(span)  # a bad span is named before anything else is asked
            if rows is None and any(a is not None for a in set_args):
                composite.set_ask(*set_args)  # a bad value is named first, as for a set
                raise ToolInputError("columns·where·order_by·descending·top·aggregate는 rows와 "
                                     "함께 씁니다.")  # fmt: skip
            if rows is not None or "," in code_text:  # a set: one aggregating query
                part = (summary or "all").strip().lower()
                if part not in SUMMARY_PARTS:
                    raise ToolInputError(
                        f"summary는 {', '.join(SUMMARY_PARTS)} 중 하나여야 합니다: {part!r}"
                    )
                longer = check_period(against, PRICE_PERIODS) if against else None
                if rows is not None:  # joined, filtered, ordered and cut here, not in the code
                    ask = composite.set_ask(*set_args)
                    return composite.set_table(d, composite.set_rows(rows), checked,
                                               cast(SummaryPart, part), longer, ask)  # fmt: skip
                codes = check_etf_codes(code_text)
                return {"summaries": d.etf_price_summaries(codes, checked, cast(SummaryPart, part),
                                                           longer)}  # fmt: skip
            if not code_text:
                raise ToolInputError("etf_code(또는 ETF 집합의 rows)를 주세요.")
            session = _session(statistic, sessions, field, unit, bar, days)
            checked = session.period() if session else checked  # the window and its base
            return d.etf_prices(d.require_etf(code_text)["code"], checked, session)

        arguments = {"etf_code": _short(code_text), "period": period}
        if rows is not None:  # the trace shows the set's codes as it shows a code list
            arguments = {"rows": _short(",".join(str(r.get("code")) for r in rows
                                                if isinstance(r, dict)) if isinstance(rows, list)
                                       else str(rows)[:80]), "period": period}  # fmt: skip
        return self._invoke(
            arguments | {k: v for k, v in asked.items() if v or (k == "descending" and v is False)},
            work,
        )


def _session(statistic: str | None, sessions: Any, field: str | None, unit: str | None,
             bar: float | None, span: tuple[date, date] | None) -> SessionAsk | None:  # fmt: skip
    """The window statistic asked of one security's prices (None when none was)."""
    if not (statistic or sessions or span):
        return None
    return SessionAsk((statistic or "").strip().lower(), _count(1 if span and not sessions else sessions),
                      (field or "close").strip().lower(), (unit or "session").strip().lower(),
                      bar, span)  # fmt: skip


def _count(sessions: Any) -> int:
    try:
        return int(sessions or 0)
    except (TypeError, ValueError) as e:
        raise ToolInputError(f"sessions는 거래일 수(정수)입니다. 받은 값: {sessions!r}") from e


def _span(span: str | None) -> tuple[date, date] | None:
    """'2025-01-01~2025-12-31' as its first and last day."""
    if not span:
        return None
    try:
        first, last = (date.fromisoformat(d.strip()) for d in span.split("~"))
    except ValueError as e:
        raise ToolInputError(f"span은 'YYYY-MM-DD~YYYY-MM-DD'입니다. 받은 값: {span!r}") from e
    if first > last:
        raise ToolInputError(f"span의 첫날이 마지막 날보다 늦습니다: {span!r}")
    return first, last


def _short(codes: str) -> str:
    """A long code list as the trace shows it: the first codes and how many in all."""
    parts = codes.split(",")
    return codes if len(parts) <= 5 else ",".join(parts[:5]) + f",… ({len(parts)} ETFs)"


class GetStockPricesTool(EtfTool):
    name = "get_stock_prices"
    description = (
        "개별 주식(ETF 아님)의 OHLCV 가격을 조회합니다. "
        'JSON {"summary": {stock_code, period, data_count, start_date, end_date, start_close, '
        'end_close, high, low, change_rate, avg_volume}, "daily": [{date, open, high, low, '
        'close, volume, change_rate}] (최신순), "valuation": {as_of_date, market_cap, eps, pe, pb, '
        "dividend_yield(%)} (최근 밸류에이션 스냅샷)}. statistic·sessions·unit·span은 "
        'get_etf_prices와 같게 읽어 "window"를 더합니다.'
    )
    inputs = {
        "stock_code": {"type": "string", "description": "종목코드 (예: '005930', 'AAPL')"},
        "period": _optional("string", _PERIOD_HELP),
        **{k: GetETFPricesTool.inputs[k] for k in ("statistic", "sessions", "unit", "span")},
        "field": _optional("string", "statistic의 값: 'close'(기본값), 'high', 'low', 'volume', "
                           "또는 'high_low'(statistic='extremes'일 때 최고 고가와 최저 저가)"),
    }  # fmt: skip
    retry_hint = _STOCK_HINT

    def forward(self, stock_code: str, period: str | None = None, statistic: str | None = None,
                sessions: int | None = None, unit: str | None = None, field: str | None = None,
                span: str | None = None) -> str:  # fmt: skip
        period = period or "1m"
        asked = {"statistic": statistic, "sessions": sessions, "unit": unit, "field": field,
                 "span": span}  # fmt: skip

        def work(d: EtfData) -> Any:
            checked = check_period(period, PRICE_PERIODS)
            session = _session(statistic, sessions, field, unit, None, _span(span))
            stock = d.require_stock(stock_code)
            out = d.stock_prices(stock["security_id"], stock["code"],
                                 session.period() if session else checked)  # fmt: skip
            if session is not None:  # a US stock's prices are in dollars
                out["window"] = session_figure(out["daily"], session, stock["name"], "KRW"
                                               if stock["code"].isdigit() else "USD")  # fmt: skip
            return out

        return self._invoke({"stock_code": stock_code, "period": period}
                            | {k: v for k, v in asked.items() if v}, work)  # fmt: skip


class CompareETFsTool(EtfTool):
    name = "compare_etfs"
    description = (
        "2~3개 ETF를 한 번에 비교합니다 (보수율, 운용사, 태그, 상위 보유종목 5개, 1개월 수익률, "
        ' 순자산). JSON 리스트 [{"code", "name", "expense_ratio", "company", "tags", '
        '"top_holdings", "return_1m", "latest_net_assets"}].'
    )
    inputs = {
        "etf_codes": {
            "type": "string",
            "description": "쉼표 구분 ETF 코드 (예: '069500,102110,229200'), 최소 2개, 최대 3개",
        }
    }

    def forward(self, etf_codes: str) -> str:
        return self._invoke(
            {"etf_codes": etf_codes}, lambda d: composite.compare_etfs(d, etf_codes)
        )


class GraphQueryTool(EtfTool):
    name = "graph_query"
    description = (
        "그래프 DB에 읽기 전용 Cypher를 직접 실행합니다 (전용 도구로 안 되는 복잡한 관계 질문용). "
        "규칙: MATCH로 시작, RETURN은 단일 맵 `RETURN {key: val}`, 문자열은 작은따옴표, "
        "집계 + ORDER BY는 WITH로 분리. CREATE/MERGE/DELETE/SET/REMOVE/DROP 금지. "
        "스키마: ETF(code, name, expense_ratio), Stock(code, name, is_etf), Company(name), "
        "Sector(name), Market(name), Tag(name); (ETF)-[:HOLDS {date, weight, shares}]->(Stock), "
        "(ETF)-[:MANAGED_BY]->(Company), (Stock)-[:BELONGS_TO]->(Sector), "
        "(Stock)-[:PART_OF]->(Market), (ETF)-[:TAGGED]->(Tag), "
        "(ETF)-[:HAS_CHANGE {date, change_type}]->(Stock). JSON 리스트를 돌려줍니다."
    )
    inputs = {"cypher": {"type": "string", "description": "읽기 전용 Cypher 쿼리"}}
    retry_hint = "쿼리를 고쳐 다시 시도하거나 전용 도구(get_etf_info 등)를 쓰세요."

    def forward(self, cypher: str) -> str:
        return self._invoke({"cypher": cypher}, lambda d: composite.graph_query(d, cypher))


TOOL_CLASSES: tuple[type[EtfTool], ...] = (
    ETFSearchTool,
    StockSearchTool,
    ListTagsTool,
    GetETFInfoTool,
    FindSimilarETFsTool,
    GetHoldingsChangesTool,
    GetETFPricesTool,
    GetStockPricesTool,
    CompareETFsTool,
    GraphQueryTool,
)


def make_tools(context: ToolContext | None = None) -> list[EtfTool]:
    """Fresh tool instances bound to one context (one agent run): copies of instances built
    once, since smolagents validates a tool class's schema on every construction and the
    schema is the class's, not the run's."""
    context = context or ToolContext()
    tools = [copy.copy(tool) for tool in _validated()]
    for tool in tools:
        tool.context = context
    return tools


@lru_cache(maxsize=1)
def _validated() -> tuple[EtfTool, ...]:
    return tuple(cls() for cls in TOOL_CLASSES)


# Process-default instances: default stores, evidence to whatever `collecting()` block is active.
TOOLS: list[EtfTool] = make_tools()
