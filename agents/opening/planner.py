"""The offline planner: a LangChain chat model that makes the seed's tool calls by rule.

It plugs in where the LLM would (`bind_tools` returns itself) and reads only what a model would
read — the context JSON in the user message and the tool results in the message history — to
decide the next step:

1. the news list and title keyword counts;
2. the articles behind each candidate keyword (`get_news_list(keywords=[kw])`);
3. OHLCV of the tickers those articles name, and of the market proxies;
4. 1–3 themes: candidate keywords ranked by article count × price moves, little overlap; then
   at least 10 bodies (theme articles first, then the biggest movers);
5. body keyword counts and the list of downloaded bodies;
6. the final JSON, written from templates (script.py) with numbers taken from the OHLCV rows.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
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
PROBED = 6  # candidate keywords whose articles are listed
TICKERS_PER_KEYWORD = 3
MAX_READ = 14
PRICE_LOOKBACK_DAYS = 10
MARKET_PROXIES = ("069500", "360750")


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
    if not seen.has("get_news_list") or not seen.has("count_keyword_frequency"):
        return _step("뉴스 목록과 제목 키워드 빈도부터 확인합니다.", [
            _call("get_news_list", {}),
            _call("count_keyword_frequency",
                  {"keywords": candidate_words(context), "source": "titles"}),
        ])  # fmt: skip
    articles = _all_articles(seen)
    if not articles:
        return AIMessage(content="오늘 창에 뉴스가 없어 대본을 쓸 수 없습니다.")
    probed = {tuple(a.get("keywords") or ()) for a, _ in seen.results("get_news_list")}
    keywords = ranked_keywords(seen)
    if not any(len(k) == 1 for k in probed) and keywords:
        calls = [_call("get_news_list", {"keywords": [k]}) for k in keywords[:PROBED]]
        return _step("상위 키워드별 관련 기사를 모읍니다.", calls)
    if not seen.has("get_ohlcv"):
        tickers = _tickers_to_check(seen, keywords, articles)
        start, end = (day - timedelta(days=PRICE_LOOKBACK_DAYS)).isoformat(), day.isoformat()
        calls = [_call("get_ohlcv", {"ticker": t, "start_date": start, "end_date": end,
                                     "interval": "1d"}) for t in tickers]  # fmt: skip
        return _step("관련 종목과 시장 대용 ETF의 시세를 확인합니다.", calls)
    movers = movers_from(seen, day)
    picks = pick_themes(seen, keywords, articles, movers)
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


def ranked_keywords(seen: Observed) -> list[str]:
    counts: dict[str, int] = {}
    for args, result in seen.results("count_keyword_frequency"):
        if args.get("source", "titles") == "titles":
            counts.update({k: int(v.get("count", 0)) for k, v in result.items()})
    ranked = sorted((k for k, c in counts.items() if c >= 2), key=lambda k: -counts[k])
    return ranked


def _all_articles(seen: Observed) -> list[dict[str, Any]]:
    for args, result in seen.results("get_news_list"):
        if not args.get("keywords") and not args.get("tickers"):
            return list(result.get("articles", []))
    return []


def keyword_articles(seen: Observed) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for args, result in seen.results("get_news_list"):
        keywords = args.get("keywords") or []
        if len(keywords) == 1:
            out[keywords[0]] = list(result.get("articles", []))
    return out


def _tickers_to_check(seen: Observed, keywords: list[str],
                      articles: list[dict[str, Any]]) -> list[str]:  # fmt: skip
    by_keyword = keyword_articles(seen)
    tickers: list[str] = list(MARKET_PROXIES)
    for keyword in keywords[:PROBED]:
        named = [t for a in by_keyword.get(keyword, []) for t in a.get("tickers", [])[:1]]
        tickers += list(dict.fromkeys(named))[:TICKERS_PER_KEYWORD]
    tickers += [a["tickers"][0] for a in articles if a.get("tickers")][:6]
    return list(dict.fromkeys(tickers))


def movers_from(seen: Observed, day: date) -> dict[str, Mover]:
    """Last close on or before `day` and its change from the previous close, per ticker asked."""
    out: dict[str, Mover] = {}
    for args, result in seen.results("get_ohlcv"):
        rows = [r for r in result.get("rows", []) if r["ts"][:10] <= day.isoformat()]
        if len(rows) < 2:
            continue
        last, prev = rows[-1], rows[-2]
        change = (last["close"] / prev["close"] - 1) * 100 if prev["close"] else 0.0
        out[args["ticker"]] = Mover(args["ticker"], result.get("name", args["ticker"]),
                                    float(last["close"]), round(change, 2), last["ts"][:10])  # fmt: skip
    return out


def _move_of(article: dict[str, Any], movers: dict[str, Mover]) -> Mover | None:
    found = [movers[t] for t in article.get("tickers", []) if t in movers]
    return max(found, key=lambda m: abs(m.change_pct)) if found else None


def _abs_move(article: dict[str, Any], movers: dict[str, Mover]) -> float:
    move = _move_of(article, movers)
    return abs(move.change_pct) if move else 0.0


def pick_themes(seen: Observed, keywords: list[str], articles: list[dict[str, Any]],
                movers: dict[str, Mover]) -> list[ThemePick]:  # fmt: skip
    """Up to three keywords: many articles and big moves, sharing at most half their articles."""
    by_keyword = keyword_articles(seen)
    scored = []
    for keyword in keywords:
        group = by_keyword.get(keyword, [])
        if len(group) < 2:
            continue
        moves = [abs(m.change_pct) for a in group if (m := _move_of(a, movers))]
        score = len(group) * (1 + (sum(moves) / len(moves) if moves else 0) / 5)
        scored.append((score, keyword, group))
    scored.sort(key=lambda s: -s[0])
    picks: list[ThemePick] = []
    for _, keyword, group in scored:
        pks, leaders = {a["pk"] for a in group}, _leaders(group, movers)
        lead = leaders[0].ticker if leaders else None
        if all(
            len(pks & p.pks) <= len(pks | p.pks) / 2 and (lead is None or p.lead != lead)
            for p in picks
        ):
            picks.append(ThemePick(keyword, group, leaders))
        if len(picks) == 3:
            break
    if not picks and articles:
        group = sorted(articles, key=lambda a: -_abs_move(a, movers))
        picks.append(ThemePick("", group[:5], _leaders(group[:5], movers)))
    return picks


def _leaders(group: list[dict[str, Any]], movers: dict[str, Mover]) -> list[Mover]:
    found = {m.ticker: m for a in group if (m := _move_of(a, movers))}
    return sorted(found.values(), key=lambda m: -abs(m.change_pct))[:2]


def bodies_to_read(picks: list[ThemePick], articles: list[dict[str, Any]],
                   movers: dict[str, Mover]) -> list[str]:  # fmt: skip
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
