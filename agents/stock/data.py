"""PostgreSQL reads of the stock report, each recorded as a structured citation.

Tools and the analysis call this; nothing here knows about LangGraph or Streamlit. Every query
is bounded by the run's as-of date so a report never reads past the data it says it rests on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from psycopg_pool import ConnectionPool

from agents.evidence import EvidenceCollector, make_citation
from agents.stock.suggest import Candidate, rank
from data_access import market_series
from data_access.errors import ToolInputError
from data_access.ids import Suggestion, normalize_security_id
from data_access.postgres import fetch_all, fetch_one

PEER_LIMIT = 60

STOCK = """
SELECT security_id, country, code, name, name_en, market, sector, currency, shares_outstanding
FROM stocks WHERE security_id = %(sid)s
"""

HISTORY = """
SELECT trade_date, open, high, low, close, volume,
       (SELECT bar_frequency FROM stocks WHERE security_id = %(sid)s) AS bar_frequency FROM (
    SELECT trade_date, open, high, low, close, volume FROM stock_prices
    WHERE security_id = %(sid)s AND trade_date <= %(as_of)s
    ORDER BY trade_date DESC LIMIT %(days)s
) recent ORDER BY trade_date
"""
SERIES_HISTORY = """
SELECT trade_date, open, high, low, close, volume FROM (
    SELECT trade_date, open, high, low, close, volume FROM market_series_prices
    WHERE series_code = %(code)s AND trade_date <= %(as_of)s
    ORDER BY trade_date DESC LIMIT %(days)s
) recent ORDER BY trade_date
"""
BAR_NAMES = {"weekly": "주별", "monthly": "월별", "quarterly": "분기별", "annual": "연도별"}

FUNDAMENTALS = """
SELECT as_of_date, market_cap, eps, pe, pb, dividend_yield FROM stock_fundamentals
WHERE security_id = %(sid)s AND as_of_date <= %(as_of)s
ORDER BY as_of_date DESC LIMIT 1
"""

# Latest valuation of every stock of the sector (same country first: the caller decides).
SECTOR_VALUATION = """
SELECT DISTINCT ON (s.security_id) s.security_id, s.name, s.country, f.pe, f.pb,
       f.dividend_yield, f.as_of_date
FROM stocks s JOIN stock_fundamentals f USING (security_id)
WHERE s.sector = %(sector)s AND f.as_of_date <= %(as_of)s AND NOT s.is_etf
ORDER BY s.security_id, f.as_of_date DESC
LIMIT %(limit)s
"""

# The stock's own valuation snapshots up to the as-of date (its P/E and P/B history).
FUNDAMENTAL_HISTORY = """
SELECT as_of_date, market_cap, eps, pe, pb, dividend_yield FROM stock_fundamentals
WHERE security_id = %(sid)s AND as_of_date <= %(as_of)s
ORDER BY as_of_date
"""

# Every earnings event of the stock; what counts as reported is decided against the as-of date.
EARNINGS = """
SELECT period, event_date, status, eps_estimate, eps_actual, revenue_estimate, revenue_actual
FROM earnings_events WHERE security_id = %(sid)s
ORDER BY event_date
"""

# Articles about the stock in a window ending on the as-of date, oldest first.
RECENT_NEWS = """
SELECT pk, title, url, source, lang, published_at, cardinality(tickers) AS ticker_count
FROM news_articles
WHERE tickers @> ARRAY[%(sid)s::text]
  AND published_at >= %(start)s::date AND published_at < (%(as_of)s::date + 1)
ORDER BY published_at, pk
LIMIT %(limit)s
"""
RECENT_NEWS_LIMIT = 400

# Two indexed branches (tickers GIN, title trigram GIN from migration 0012) instead of one OR
# that reads every article.
NEWS_BY_TICKER_OR_TEXT = """
SELECT a.pk, a.title, a.body, a.tickers, a.published_at, a.source, a.url, a.lang,
       (%(sid)s::text IS NOT NULL AND %(sid)s::text = ANY(a.tickers)) AS about,
       count(*) OVER () AS total
FROM news_articles a
WHERE a.pk IN (SELECT pk FROM news_articles WHERE tickers @> ARRAY[%(sid)s::text]
               UNION SELECT pk FROM news_articles WHERE title ILIKE ANY(%(patterns)s))
  AND a.published_at < (%(as_of)s::date + 1)
ORDER BY about DESC, (cardinality(a.tickers) = 1) DESC, a.published_at DESC
LIMIT %(limit)s
"""

# Every stock's names for 'did you mean' suggestions (agents.stock.suggest ranks them).
NAME_INDEX = """
SELECT s.security_id, s.code, s.name, s.name_en,
       coalesce(array_agg(a.alias) FILTER (WHERE a.alias IS NOT NULL), '{}') AS aliases,
       coalesce(p.close, 0) * coalesce(s.shares_outstanding, 0) AS size
FROM stocks s
LEFT JOIN entity_aliases a ON a.kind = 'stock' AND a.target = s.security_id
LEFT JOIN LATERAL (SELECT close FROM stock_prices WHERE security_id = s.security_id
                   ORDER BY trade_date DESC LIMIT 1) p ON true
WHERE NOT s.is_etf
GROUP BY s.security_id, p.close
"""

_WORD = re.compile(r"[\w가-힣&.\-]{2,}")


@dataclass
class StockData:
    """Queries for one run: the pool, the evidence collector and the as-of date."""

    pool: ConnectionPool | None
    collector: EvidenceCollector
    as_of: date

    def resolve(self, text: str) -> str | None:
        return normalize_security_id(text, pool=self.pool)

    def market_series(self, text: str) -> dict[str, Any] | None:
        """The index, VIX, BTC or WTI series a symbol names (^KS11, 코스피, BTC-USD), if stored."""
        return market_series.find_series(text, self.pool)

    def series_history(self, code: str, days: int) -> list[dict[str, Any]]:
        """A market series' last `days` bars up to the as-of date, oldest first (cited)."""
        params = {"code": code, "as_of": self.as_of, "days": days}
        rows = fetch_all(SERIES_HISTORY, params, self.pool)
        self._cite(market_series.dataset_code_of(code), "market_series_prices", SERIES_HISTORY,
                   params, len(rows), filters={"series_code": code, "days": days},
                   start=rows[0]["trade_date"].isoformat() if rows else None,
                   end=rows[-1]["trade_date"].isoformat() if rows else None)  # fmt: skip
        return rows

    def is_exact(self, text: str, stock: dict[str, Any]) -> bool:
        """Whether the input names the stock outright (id, code, name) rather than resembling it."""
        key = re.sub(r"\s+", "", text).lower().removeprefix(stock["country"].lower() + ":")
        key = re.sub(r"^a(?=\d{6})|\.(ks|kq)$", "", key)
        names = (stock["code"], stock["name"], stock.get("name_en") or "")
        return key in {re.sub(r"\s+", "", n).lower() for n in names}

    def suggest(self, text: str, limit: int = 5) -> list[Suggestion]:
        """Stocks whose names or tickers look like `text` (agents.stock.suggest)."""
        rows = fetch_all(NAME_INDEX, pool=self.pool)
        candidates = [
            Candidate(security_id=r["security_id"], code=r["code"], name=r["name"],
                      names=(r["name"], r["name_en"] or "", *r["aliases"]), size=float(r["size"]))
            for r in rows
        ]  # fmt: skip
        return rank(text, candidates, limit)

    def stock(self, security_id: str) -> dict[str, Any] | None:
        params = {"sid": security_id}
        row = fetch_one(STOCK, params, self.pool)
        self._cite(price_dataset(security_id), "stocks", STOCK, params, 1 if row else 0)
        return row

    def history(self, security_id: str, days: int) -> list[dict[str, Any]]:
        params = {"sid": security_id, "as_of": self.as_of, "days": days}
        rows = fetch_all(HISTORY, params, self.pool)
        start = rows[0]["trade_date"].isoformat() if rows else None
        end = rows[-1]["trade_date"].isoformat() if rows else None
        self._cite(price_dataset(security_id), "stock_prices", HISTORY, params, len(rows),
                   start=start, end=end, filters={"security_id": security_id, "days": days})  # fmt: skip
        _check_daily_ohlcv(security_id, rows)
        return [
            {"date": r["trade_date"].isoformat(), "open": float(r["open"]),
             "high": float(r["high"]), "low": float(r["low"]), "close": float(r["close"]),
             "volume": int(r["volume"])}
            for r in rows
        ]  # fmt: skip

    def fundamentals(self, security_id: str) -> dict[str, Any] | None:
        params = {"sid": security_id, "as_of": self.as_of}
        row = fetch_one(FUNDAMENTALS, params, self.pool)
        self._cite("STOCK_FUNDAMENTALS", "stock_fundamentals", FUNDAMENTALS, params,
                   1 if row else 0, filters={"security_id": security_id},
                   end=row["as_of_date"].isoformat() if row else None)  # fmt: skip
        if row is None:
            return None
        return {
            k: (None if v is None else float(v)) for k, v in row.items() if k != "as_of_date"
        } | {"as_of_date": row["as_of_date"].isoformat()}

    def sector_valuation(self, sector: str) -> list[dict[str, Any]]:
        """Latest P/E, P/B and dividend yield (percent) of every stock of the sector."""
        params = {"sector": sector, "as_of": self.as_of, "limit": PEER_LIMIT}
        rows = fetch_all(SECTOR_VALUATION, params, self.pool)
        self._cite("STOCK_FUNDAMENTALS", "stock_fundamentals", SECTOR_VALUATION, params, len(rows),
                   filters={"sector": sector})  # fmt: skip
        return [
            {"security_id": r["security_id"], "name": r["name"], "country": r["country"],
             **{k: _float(r[k]) for k in ("pe", "pb", "dividend_yield")}}
            for r in rows
        ]  # fmt: skip

    def fundamental_history(self, security_id: str) -> list[dict[str, Any]]:
        """The stock's valuation snapshots up to the as-of date, oldest first."""
        params = {"sid": security_id, "as_of": self.as_of}
        rows = fetch_all(FUNDAMENTAL_HISTORY, params, self.pool)
        self._cite("STOCK_FUNDAMENTALS", "stock_fundamentals", FUNDAMENTAL_HISTORY, params,
                   len(rows), filters={"security_id": security_id},
                   start=rows[0]["as_of_date"].isoformat() if rows else None,
                   end=rows[-1]["as_of_date"].isoformat() if rows else None)  # fmt: skip
        return [{"as_of_date": r["as_of_date"]} | {k: _float(v) for k, v in r.items()
                                                   if k != "as_of_date"} for r in rows]  # fmt: skip

    def earnings(self, security_id: str) -> list[dict[str, Any]]:
        """Earnings events of the stock; actuals dated after the as-of date are withheld."""
        params = {"sid": security_id}
        rows = fetch_all(EARNINGS, params, self.pool)
        self._cite("EARNINGS_EVENTS", "earnings_events", EARNINGS, params, len(rows),
                   filters={"security_id": security_id})  # fmt: skip
        out = []
        for r in rows:
            reported = r["event_date"] <= self.as_of and r["eps_actual"] is not None
            out.append({
                "period": r["period"], "event_date": r["event_date"], "reported": reported,
                "eps_estimate": _float(r["eps_estimate"]),
                "eps_actual": _float(r["eps_actual"]) if reported else None,
                "revenue_estimate": _float(r["revenue_estimate"]),
                "revenue_actual": _float(r["revenue_actual"]) if reported else None,
            })  # fmt: skip
        return out

    def recent_news(self, security_id: str, start: date) -> list[dict[str, Any]]:
        """Articles tagged with the stock, published from `start` through the as-of date."""
        params = {"sid": security_id, "start": start, "as_of": self.as_of,
                  "limit": RECENT_NEWS_LIMIT}  # fmt: skip
        rows = fetch_all(RECENT_NEWS, params, self.pool)
        self._cite("ECONOMIC_NEWS_STREAM", "news_articles", RECENT_NEWS, params, len(rows),
                   filters={"security_id": security_id}, start=start.isoformat(),
                   end=self.as_of.isoformat())  # fmt: skip
        return rows

    def news(self, query: str, limit: int) -> tuple[list[dict[str, Any]], int]:
        """Articles tagged with the stock the query names, then titles containing its words."""
        security_id = self._security_in(query)
        words = _WORD.findall(query)[:6]
        params = {"sid": security_id, "as_of": self.as_of, "limit": limit,
                  "patterns": [f"%{w}%" for w in words] or ["%"]}  # fmt: skip
        rows = fetch_all(NEWS_BY_TICKER_OR_TEXT, params, self.pool)
        total = int(rows[0]["total"]) if rows else 0
        self._cite("ECONOMIC_NEWS_STREAM", "news_articles", NEWS_BY_TICKER_OR_TEXT, params,
                   len(rows), filters={"query": query, "security_id": security_id})  # fmt: skip
        return rows, total

    def _security_in(self, query: str) -> str | None:
        """The stock a news query is about: its first word, else the whole query."""
        words = query.split()
        found = normalize_security_id(words[0], pool=self.pool) if words else None
        if found is None and 0 < len(query) <= 40:
            found = normalize_security_id(query, pool=self.pool)
        return found

    def _cite(self, dataset: str, table: str, query: str, params: dict[str, Any], rows: int,
              *, filters: dict[str, Any] | None = None, start: str | None = None,
              end: str | None = None) -> None:  # fmt: skip
        self.collector.add_citation(
            make_citation(
                dataset_code=dataset, table=table, query=query,
                params={k: (v.isoformat() if isinstance(v, date) else v) for k, v in params.items()},
                row_count=rows, filters=filters, start=start, end=end,
                as_of_date=self.as_of.isoformat(),
            )
        )  # fmt: skip


def _check_daily_ohlcv(security_id: str, rows: list[dict[str, Any]]) -> None:
    """Returns, volatility and volume figures assume daily OHLCV bars: an imported weekly/monthly
    or close-only series is refused with the reason (not computed as if it were daily)."""
    if not rows:
        return
    frequency = rows[0]["bar_frequency"]
    if frequency in BAR_NAMES:
        raise ToolInputError(
            f"{security_id}의 시세는 {BAR_NAMES[frequency]} 데이터입니다. 수익률·변동성 지표는 "
            "일별 시세로 계산하므로 이 종목의 리포트는 작성하지 않습니다."
        )
    if any(r[k] is None for r in rows for k in ("open", "high", "low", "volume")):
        raise ToolInputError(
            f"{security_id}의 시세에 시가·고가·저가·거래량이 없는 날이 있습니다 (종가만 가져온 "
            "데이터). 일별 OHLCV가 있는 종목만 리포트를 작성합니다."
        )


def price_dataset(security_id: str) -> str:
    """The catalogue dataset of a stock's daily bars."""
    return "KR_STOCK_DAILY_OHLCV" if security_id.startswith("KR:") else "US_TOP50_DAILY_OHLCV"


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def stock_choices(pool: ConnectionPool | None = None) -> list[dict[str, str]]:
    """Every stock as id, code and name, largest first (the screen's symbol suggestions)."""
    rows = fetch_all(
        "SELECT s.security_id, s.code, s.name FROM stocks s"
        " LEFT JOIN LATERAL (SELECT close FROM stock_prices p WHERE p.security_id = s.security_id"
        "  ORDER BY trade_date DESC LIMIT 1) p ON true WHERE NOT s.is_etf"
        " ORDER BY coalesce(p.close, 0) * coalesce(s.shares_outstanding, 0) DESC, s.security_id",
        pool=pool,
    )
    return [{"id": r["security_id"], "code": r["code"], "name": r["name"]} for r in rows]
