"""The `get_market_movers` pipeline: the window's articles → reads → ranked clusters.

    inputs = read_inputs(cache.read_news_list(), date(2026, 11, 20), pool)
    ranked(inputs)[0].subject  # '엔비디아'

`read_inputs` does every query (closes, stock facts, USD/KRW, earnings, then sector breadth for
the candidate sectors) and keeps their citations; `ranked` is pure (agents.opening.clusters).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from psycopg_pool import ConnectionPool

from agents.opening import clusters, market_reads
from agents.opening.clusters import Cluster, CompanyMove, Earnings, Session, StockInfo
from data_access.contracts import StructuredCitation

SESSION_LOOKBACK_DAYS = 14  # calendar days of closes read (a session and its previous close)
EARNINGS_READ_DAYS = SESSION_LOOKBACK_DAYS + clusters.EARNINGS_LOOKBACK_DAYS
DEFAULT_USDKRW = 0.0  # no FX row: US moves get no won impact rather than a made-up rate


@dataclass
class MoverInputs:
    articles: list[dict[str, Any]]
    moves: list[CompanyMove]
    breadth: dict[tuple[str, str, date], dict[str, int]]
    usdkrw: float
    citations: list[StructuredCitation] = field(default_factory=list)


def story_tickers(articles: list[dict[str, Any]]) -> list[str]:
    """Tickers of articles about at most a few companies (market wraps name many)."""
    ids = [t for a in articles if 0 < len(a.get("tickers") or []) <= clusters.MAX_TICKERS_ABOUT
           for t in a["tickers"]]  # fmt: skip
    return sorted(set(ids))


def _sessions(rows: list[dict[str, Any]]) -> dict[str, list[Session]]:
    out: dict[str, list[Session]] = {}
    for r in rows:
        out.setdefault(r["security_id"], []).append(
            Session(r["security_id"], r["d"], float(r["close"]), float(r["prev_close"]))
        )
    return out


def _infos(rows: list[dict[str, Any]]) -> dict[str, StockInfo]:
    return {r["security_id"]: StockInfo(r["security_id"], r["name"], r["name_en"] or r["name"],
                                        r["country"], r["market"], r["currency"], r["sector"],
                                        int(r["shares_outstanding"] or 0),
                                        tuple(r["aliases_ko"] or ()))
            for r in rows}  # fmt: skip


def _earnings(rows: list[dict[str, Any]]) -> list[Earnings]:
    return [Earnings(r["security_id"], r["period"], r["event_date"], float(r["eps_estimate"]),
                     float(r["eps_actual"])) for r in rows]  # fmt: skip


def read_inputs(articles: list[dict[str, Any]], day: date,
                pool: ConnectionPool | None) -> MoverInputs:  # fmt: skip
    ids = story_tickers(articles)
    start = day - timedelta(days=SESSION_LOOKBACK_DAYS)
    fx = market_reads.usdkrw(day, pool)
    usdkrw = float(fx.rows[0]["value"]) if fx.rows else DEFAULT_USDKRW
    citations = [fx.citation]
    if not ids:
        return MoverInputs(articles, [], {}, usdkrw, citations)
    sessions = market_reads.stock_sessions(ids, start, day, pool)
    info = market_reads.stock_info(ids, pool)
    events = market_reads.earnings_between(ids, day - timedelta(days=EARNINGS_READ_DAYS), day,
                                           pool)  # fmt: skip
    citations += [sessions.citation, info.citation, events.citation]
    moves = clusters.company_moves(articles, _sessions(sessions.rows), _infos(info.rows), usdkrw,
                                   _earnings(events.rows))  # fmt: skip
    groups = clusters.sector_groups(moves)
    breadth: dict[tuple[str, str, date], dict[str, int]] = {}
    if groups:
        read = market_reads.sector_breadth(sorted({k[2] for k in groups}),
                                           sorted({k[1] for k in groups}), pool)  # fmt: skip
        citations.append(read.citation)
        breadth = {(r["country"], r["sector"], r["d"]): {"total": int(r["total"]),
                   "up": int(r["up"]), "down": int(r["down"])} for r in read.rows}  # fmt: skip
    return MoverInputs(articles, moves, breadth, usdkrw, citations)


def ranked(inputs: MoverInputs) -> list[Cluster]:
    return clusters.rank_clusters(inputs.moves, inputs.breadth, inputs.articles)
