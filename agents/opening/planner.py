"""The offline planner: a LangChain chat model that makes the seed's tool calls by rule.

It plugs in where the LLM would (`bind_tools` returns itself) and reads only what a model would
read — the context JSON in the user message and the tool results in the message history — to
decide the next step:

1. the news list, title keyword counts and the window's clusters ranked by market impact
   (`get_market_movers`: events and sector moves, |move| × won market cap, earnings surprise);
2. OHLCV of the market proxies and of the companies of the top three clusters, for the session
   each cluster reports on;
3. the themes: those clusters in the tool's order (no company twice); then at least 10 bodies
   (theme articles first, then the biggest movers);
4. body keyword counts and the list of downloaded bodies;
5. the final JSON, written from templates (script.py) with numbers taken from the OHLCV rows
   and the earnings figures the movers tool read.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, timedelta
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from agents.opening import script
from agents.opening.keywords import GENERIC_WORDS, MOVE_WORDS
from agents.opening.prompts import MIN_BODIES, context_from
from agents.opening.script import Mover, ThemePick

MODEL_NAME = "offline-planner"
CANDIDATES = 15  # title words whose frequency is counted
MOVERS_LIMIT = 8  # clusters asked of get_market_movers
MAX_THEMES = 3
TICKERS_PER_THEME = 3
EXTRA_TICKERS = 4
MAX_OHLCV_CALLS = 18
MAX_READ = 14
PRICE_LOOKBACK_DAYS = 10
MARKET_INDICES = ("^KS11", "^KQ11", "^GSPC", "^IXIC")  # index levels, not ETF stand-ins


class Observed:
    """The tool calls and results found in the message history, by tool name."""

    def __init__(self, messages: Sequence[BaseMessage]) -> None:
        args: dict[str, dict[str, Any]] = {}
        for m in messages:
            if isinstance(m, AIMessage):
                args.update({str(c["id"]): c["args"] for c in m.tool_calls if c.get("id")})
        self.calls: list[tuple[str, dict[str, Any], Any]] = []
        for m in messages:
            if isinstance(m, ToolMessage):
                try:
                    result = json.loads(str(m.content))
                except json.JSONDecodeError:
                    result = {"status": "error", "error": str(m.content)}
                self.calls.append((m.name or "", args.get(m.tool_call_id, {}), result))

    def results(self, tool: str) -> list[tuple[dict[str, Any], Any]]:
        return [(a, r) for n, a, r in self.calls if n == tool and not _failed(r)]

    def has(self, tool: str) -> bool:
        return any(n == tool for n, _, _ in self.calls)


def _failed(result: Any) -> bool:
    return isinstance(result, dict) and result.get("status") == "error"


def _call(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "args": args, "id": f"call_{uuid.uuid4().hex[:12]}", "type": "tool_call"}


class OfflineOpeningModel(BaseChatModel):
    """Deterministic stand-in for the chat model (no network, no cost)."""

    @property
    def _llm_type(self) -> str:
        return MODEL_NAME

    def bind_tools(self, tools: Any, **kwargs: Any) -> OfflineOpeningModel:  # type: ignore[override]
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = next_message(messages)
        return ChatResult(generations=[ChatGeneration(message=message)])


def next_message(messages: Sequence[BaseMessage]) -> AIMessage:
    """The next step of the plan, from the context and the tool results so far."""
    context = context_from(messages)
    day = date.fromisoformat(context["date"])
    seen = Observed(messages)
    if not all(seen.has(t) for t in ("get_news_list", "count_keyword_frequency",
                                     "get_market_movers")):  # fmt: skip
        return _step("뉴스 목록, 제목 키워드 빈도, 시장 영향력 순 클러스터부터 확인합니다.", [
            _call("get_news_list", {}),
            _call("count_keyword_frequency",
                  {"keywords": candidate_words(context), "source": "titles"}),
            _call("get_market_movers", {"limit": MOVERS_LIMIT}),
        ])  # fmt: skip
    articles = _all_articles(seen)
    if not articles:
        return AIMessage(content="오늘 창에 뉴스가 없어 대본을 쓸 수 없습니다.")
    clusters = chosen_clusters(seen)
    if not seen.has("get_ohlcv"):
        tickers, start = _tickers_to_check(clusters, articles, day)
        calls = [_call("get_ohlcv", {"ticker": t, "start_date": start, "end_date": day.isoformat(),
                                     "interval": "1d"}) for t in tickers]  # fmt: skip
        return _step("테마 종목과 주요 지수의 시세를 확인합니다.", calls)
    movers = movers_from(seen, day)
    picks = pick_themes(seen, clusters, articles, movers)
    read = set(_read_pks(seen))
    if not seen.has("get_news_content"):
        pks = bodies_to_read(picks, articles, movers)
        return _step(f"테마 관련 기사 본문 {len(pks)}건을 읽습니다.",
                     [_call("get_news_content", {"pks": pks})])  # fmt: skip
    if not seen.has("list_downloaded_bodies"):
        return _step("읽은 본문에서 테마 키워드를 셉니다.", [
            _call("count_keyword_frequency", {"keywords": [p.keyword for p in picks] or ["시장"],
                                              "source": "bodies", "news_pks": sorted(read)}),
            _call("list_downloaded_bodies", {}),
        ])  # fmt: skip
    bodies = _bodies(seen)
    result = script.compose(day, picks, movers, bodies, context)
    text = "```json\n" + json.dumps(result, ensure_ascii=False, indent=1) + "\n```"
    return AIMessage(content=text)


def _step(thought: str, calls: list[dict[str, Any]]) -> AIMessage:
    return AIMessage(content=thought, tool_calls=calls)


def candidate_words(context: dict[str, Any]) -> list[str]:
    skip = MOVE_WORDS | GENERIC_WORDS
    words = [
        w["word"]
        for w in context.get("title_top_words", [])
        if w["word"] not in skip and not (w["word"].isascii() and len(w["word"]) < 3)
    ]
    return words[:CANDIDATES] or ["시장"]


def _all_articles(seen: Observed) -> list[dict[str, Any]]:
    for args, result in seen.results("get_news_list"):
        if not args.get("keywords") and not args.get("tickers"):
            return list(result.get("articles", []))
    return []


def chosen_clusters(seen: Observed) -> list[dict[str, Any]]:
    """Up to three clusters in the tool's order, none repeating another's lead company."""
    ranked = [c for _, r in seen.results("get_market_movers") for c in r.get("clusters", [])]
    out: list[dict[str, Any]] = []
    leads: set[str] = set()
    for cluster in ranked:
        members = {m["security_id"] for m in cluster.get("members", [])}
        if members & leads or not cluster.get("article_pks"):
            continue
        out.append(cluster)
        leads |= members
        if len(out) == MAX_THEMES:
            break
    return out


def _members(cluster: dict[str, Any]) -> list[dict[str, Any]]:
    return list(cluster.get("members", []))[:TICKERS_PER_THEME]


def _tickers_to_check(clusters: list[dict[str, Any]], articles: list[dict[str, Any]],
                      day: date) -> tuple[list[str], str]:  # fmt: skip
    """Market indices, the themes' companies, then a few more article tickers; and the first
    date to read (the earliest session named, less a lookback for its previous close)."""
    tickers: list[str] = list(MARKET_INDICES)
    sessions = [day]
    for cluster in clusters:
        for m in _members(cluster):
            tickers.append(m["security_id"])
            sessions.append(date.fromisoformat(m["session"]))
    tickers += [a["tickers"][0] for a in articles if a.get("tickers")][:EXTRA_TICKERS]
    start = min(sessions) - timedelta(days=PRICE_LOOKBACK_DAYS)
    return list(dict.fromkeys(tickers))[:MAX_OHLCV_CALLS], start.isoformat()


def movers_from(seen: Observed, day: date) -> dict[str, list[Mover]]:
    """Per ticker asked, every session up to `day` with its close and day-over-day change."""
    out: dict[str, list[Mover]] = {}
    for args, result in seen.results("get_ohlcv"):
        rows = [r for r in result.get("rows", []) if r["ts"][:10] <= day.isoformat()]
        name = result.get("name", args["ticker"])
        out[args["ticker"]] = [
            Mover(args["ticker"], name, float(cur["close"]),
                  round((cur["close"] / prev["close"] - 1) * 100, 2) if prev["close"] else 0.0,
                  cur["ts"][:10])
            for prev, cur in zip(rows, rows[1:], strict=False)
        ]  # fmt: skip
    return out


def mover_on(movers: dict[str, list[Mover]], ticker: str, session: str | None) -> Mover | None:
    """The ticker's move in `session` (default: its last session)."""
    found = [m for m in movers.get(ticker, []) if session is None or m.date == session]
    return found[-1] if found else None


def _move_of(article: dict[str, Any], movers: dict[str, list[Mover]]) -> Mover | None:
    found = [m for t in article.get("tickers", []) if (m := mover_on(movers, t, None))]
    return max(found, key=lambda m: abs(m.change_pct)) if found else None


def _abs_move(article: dict[str, Any], movers: dict[str, list[Mover]]) -> float:
    move = _move_of(article, movers)
    return abs(move.change_pct) if move else 0.0


def pick_themes(seen: Observed, clusters: list[dict[str, Any]], articles: list[dict[str, Any]],
                movers: dict[str, list[Mover]]) -> list[ThemePick]:  # fmt: skip
    """The chosen clusters as themes: their articles, and their companies' checked moves."""
    by_pk = {a["pk"]: a for a in articles}
    picks: list[ThemePick] = []
    for cluster in clusters:
        group = [by_pk[p] for p in cluster["article_pks"] if p in by_pk]
        leaders = [replace(m, name=c["name"]) for c in _members(cluster)
                   if (m := mover_on(movers, c["security_id"], c["session"]))]  # fmt: skip
        picks.append(ThemePick(cluster["subject"], group, leaders, cluster=cluster))
    if not picks and articles:
        group = sorted(articles, key=lambda a: -_abs_move(a, movers))
        leaders = [m for a in group[:5] if (m := _move_of(a, movers))][:2]
        picks.append(ThemePick("", group[:5], leaders))
    return picks


def bodies_to_read(picks: list[ThemePick], articles: list[dict[str, Any]],
                   movers: dict[str, list[Mover]]) -> list[str]:  # fmt: skip
    pks: list[str] = []
    for pick in picks:
        pks += [a["pk"] for a in pick.articles[:4]]
    rest = sorted(articles, key=lambda a: -_abs_move(a, movers))
    pks += [a["pk"] for a in rest]
    unique = list(dict.fromkeys(pks))
    return unique[: max(MIN_BODIES, min(MAX_READ, len(dict.fromkeys(pks[: 4 * len(picks)]))))]


def _read_pks(seen: Observed) -> list[str]:
    return [a["pk"] for _, r in seen.results("get_news_content") for a in r.get("articles", [])]


def _bodies(seen: Observed) -> dict[str, dict[str, str]]:
    return {a["pk"]: a for _, r in seen.results("get_news_content") for a in r.get("articles", [])}
