"""Rule-based router and query normalizer of the Macro Q&A screen (seed 004 §2.1, §2.2, §8.2).

    route("미국 금리 인상이 기술주에 준 영향 경로는?")
    # Route(intent="macro+relationship", target_agents=["macro", "ontology"],
    #       sql_need=False, graph_need=True, tool_mode="single", reasons=[...])

The rules (keywords, dataset codes, indicator aliases, regions) live in `routing_rules.json`, so
adding data changes routing without touching code (seed §10.3). The conditional-parallel matrix
is fixed here: SQL and graph → parallel, one of them → single, neither → LLM direct; a composite
question over two or more domains (금리+부동산) also runs in parallel (§2.1-4). A sector word
('기술주') is a theme, not a stock: the seed's "금리 이슈가 기술주에 준 영향 경로" is Graph single.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from psycopg_pool import ConnectionPool
from pydantic import BaseModel, Field

from agents.inputs import MAX_QUESTION_CHARS
from agents.macro.held_series import held_series, outside
from agents.macro.market_questions import asks_universe_changes, ranking_measure
from agents.understanding import QuestionFrame, understand
from agents.understanding.coverage import mark_read
from agents.understanding.frame import HOUSING_MEASURES
from agents.understanding.lexicon import MACRO_KINDS, cached_lexicon
from agents.understanding.morphemes import analyse
from agents.understanding.parse import asked_move
from agents.understanding.vocabulary import find_phrases, vocabulary
from data_access.errors import WorkbenchError
from data_access.ids import normalize_security_id
from data_access.postgres import fetch_all

AgentName = Literal["macro", "equity", "real_estate", "ontology", "general_knowledge"]
ToolMode = Literal["single", "parallel", "llm_direct"]
DOMAIN_AGENTS: tuple[AgentName, ...] = ("macro", "equity", "real_estate", "ontology")
RULES_FILE = Path(__file__).with_name("routing_rules.json")

_KR_CODE = re.compile(r"(?<!\d)(\d{6})(?!\d)")
_TICKER = re.compile(r"\b([A-Z]{1,5})\b")
_HANGUL = re.compile(r"[가-힣]")


class Route(BaseModel):
    """What the supervisor will run for one question, and why."""

    question: str
    language: Literal["ko", "en"]
    intent: str
    target_agents: list[AgentName]
    sql_need: bool
    graph_need: bool
    tool_mode: ToolMode
    matched_security_ids: list[str] = Field(default_factory=list)
    indicator_codes: list[str] = Field(default_factory=list)
    regions: list[str] = Field(default_factory=list)  # KR / US
    real_estate_regions: list[str] = Field(default_factory=list)
    themes: list[str] = Field(default_factory=list)
    period_months: int = 12
    requested_as_of_date: str | None = None
    reasons: list[str] = Field(default_factory=list)
    refined_by: str | None = None  # model id when an LLM refined the rules' route
    frame: QuestionFrame | None = None  # the shared reading of the question (offline planner)
    market_words: list[str] = Field(default_factory=list)  # indices / sector words (→ Equity)


@lru_cache(maxsize=1)
def load_rules() -> dict[str, Any]:
    return dict(json.loads(RULES_FILE.read_text(encoding="utf-8")))


def language_of(text: str) -> Literal["ko", "en"]:
    return "ko" if _HANGUL.search(text) else "en"


def has_keyword(text: str, keyword: str) -> bool:
    """Korean keywords match as substrings; ASCII ones as whole words (case-insensitive)."""
    kw = keyword.lower()
    if kw.isascii():
        return re.search(rf"(?<![a-z0-9]){re.escape(kw)}(?![a-z0-9])", text) is not None
    return kw in text


def _hits(text: str, keywords: list[str]) -> list[str]:
    return [k for k in keywords if has_keyword(text, k)]


def route(question: str, pool: ConnectionPool | None = None,
          frame: QuestionFrame | None = None) -> Route:  # fmt: skip
    """Classify a question with the rules and the question frame (read here when not given:
    definitions go to the glossary, indices and sector words to Equity, 'why did X move' to SQL
    *and* graph); never calls an LLM."""
    rules = load_rules()
    text = " ".join(question.split())[:MAX_QUESTION_CHARS]
    low = text.lower()
    frame = frame or understand(text, cached_lexicon(pool), kinds=MACRO_KINDS)
    if frame.operation.kind == "define":
        return _general_route(
            text, frame, "용어 정의 질문 → 내장 용어집 (GeneralKnowledge, DB 호출 없음)"
        )
    if any(n.startswith("out_of_scope:chit_chat") for n in frame.notes) and not frame.measures:
        return _general_route(
            text, frame, "데이터와 관계없는 질문 → GeneralKnowledge"
        )  # '부산 여행
    reasons: list[str] = []
    agents: list[AgentName] = []

    security_ids = match_security_ids(text, pool)
    indicators = match_indicators(low, rules)
    re_regions = [e.key for e in frame.of("re_region")]  # the lexicon's housing regions
    market_words: list[str] = []
    framed = [e.key for e in frame.of("series")]
    indicators = list(dict.fromkeys(framed + [c for c in indicators if not framed]))
    known = {spec["code"] for spec in (*rules["indicators"], *vocabulary()["series"])}
    held = held_series(text, pool, known)
    if held:  # an imported series named by its code or name ('부산 소비자물가지수')
        rest = outside(low, held)
        kept = set(match_indicators(rest, rules)) | {
            e.key for e in frame.of("series")
            if e.start < 0 or rest[e.start : e.end].strip()}  # fmt: skip
        indicators = list(
            dict.fromkeys([h.code for h in held] + [c for c in indicators if c in kept])
        )
        reasons.append("macro: 보유 시계열 " + ", ".join(h.code for h in held))
    security_ids = list(dict.fromkeys(
        security_ids + [sid for e in frame.of("stock") if (sid := _sid(e.key, pool))]))  # fmt: skip
    # a sector a macro driver's influence reaches ('금리 인상이 기술주에 준 영향 경로') is the
    # path's theme (Macro + Ontology), not a sector's prices to fetch (Equity); an event's path
    # ('관세 이벤트가 반도체주에 영향 준 경로') still reads the sector's stocks
    relationship = _hits(low, rules["relationship_keywords"])
    driver = indicators or _hits(low, rules["agents"]["macro"]["keywords"])
    theme_only = bool(driver and relationship)
    market_words = [e.name for e in frame.entities
                    if e.kind == "index" or (e.kind == "sector" and not theme_only)]  # fmt: skip
    housing = [m.name for m in frame.measures if m.name in HOUSING_MEASURES]
    if housing and "real_estate" not in agents:
        agents.append("real_estate")  # '부산은?' after '서울 전세가율': the frame's measure
        reasons.append(f"real_estate: 주택 지표 ({', '.join(housing)})")
    valuation = [m.name for m in frame.measures if m.name in ("per", "pbr", "eps", "market_cap")]
    if valuation and "equity" not in agents:
        agents.append("equity")
        reasons.append(f"equity: 밸류에이션 지표 ({', '.join(valuation)})")
    ranked = ranking_measure(frame) or ("universe" if asks_universe_changes(text) else None)
    if ranked and "equity" not in agents:  # '오늘 거래대금 상위 10개', 'Top50 편입' (issue 25)
        agents.append("equity")
        reasons.append(f"equity: 시장 순위·유니버스 ({ranked})")
    if market_words and "equity" not in agents:
        agents.append("equity")
        reasons.append(f"equity: 시장 지수/업종 ({', '.join(market_words[:3])})")
    for name in ("macro", "equity", "real_estate"):
        hits = _hits(low, rules["agents"][name]["keywords"])
        if name == "equity" and not (security_ids or market_words):
            # '수익률', '실적' alone do not make a stock question ('CPI 상승률', '인허가 실적')
            hits = [h for h in hits if h not in rules["equity_generic_keywords"]]
        if hits and name not in agents:
            agents.append(name)  # type: ignore[arg-type]
            reasons.append(f"{name}: 키워드 {', '.join(hits[:4])}")
    if indicators and "macro" not in agents:
        agents.append("macro")
        reasons.append(f"macro: 지표 {', '.join(indicators)}")
    if security_ids and "equity" not in agents:
        agents.append("equity")
        reasons.append(f"equity: 종목 {', '.join(security_ids)}")
    if frame.of("re_region") and not agents:
        agents.append("real_estate")  # '송파구 최근 3개월 거래량': a housing region, nothing else
        reasons.append(
            "real_estate: 부동산 지역 " + ", ".join(e.key for e in frame.of("re_region"))
        )
    if relationship:
        agents.append("ontology")
        reasons.append(f"ontology: 관계/경로 질의 ({', '.join(relationship[:3])}) → 항상 병행")

    sql_hits = _hits(low, rules["sql_need_keywords"])
    graph_hits = _hits(low, rules["graph_need_keywords"])
    # '이벤트 경로', '영향': words that chose the event graph and its path are read by it
    mark_read(frame, *(t.form.lower() for h in relationship + graph_hits for t in analyse(h)))
    domain_agents = [a for a in agents if a != "ontology"]
    sql_need = bool(sql_hits) or (bool(domain_agents) and not graph_hits)
    moved = _hits(low, rules["movement_keywords"]) or _hits(low, rules["explain_move_keywords"])
    if graph_hits and domain_agents and moved and (security_ids or market_words):
        # 'why did Samsung fall', '삼성전자 왜?': the price move (SQL) and its reasons (graph);
        # a macro series' 'why' stays evidence-first (the labelled sets agree)
        sql_need = True
        sql_hits = sql_hits or moved
    reaction = _hits(low, rules["reaction_keywords"])
    if reaction and domain_agents and not sql_need:
        # 'FOMC 발표 후 환율 반응': how the series moved around the event (SQL) beside the event
        sql_need = True
        sql_hits = reaction
    graph_hits = graph_hits or reaction
    graph_need = bool(graph_hits) or bool(relationship)
    said = (
        f" ({', '.join(sql_hits[:3])})" if sql_hits else " (도메인 수치 질의)" if sql_need else ""
    )
    reasons.append(f"SQL 필요={sql_need}{said}")
    said = f" ({', '.join(graph_hits[:3])})" if graph_hits else ""
    reasons.append(f"Graph 필요={graph_need}{said}")

    general = _hits(low, rules["general_hints"])
    if not agents and not graph_need or (general and not agents):
        agents, mode = ["general_knowledge"], "llm_direct"
        sql_need = graph_need = False
        reasons.append("금융 데이터·그래프가 필요 없는 일반 질의 → GeneralKnowledge LLM Direct")
    elif not agents:
        agents = ["ontology"]
        mode = "single"
        reasons.append("도메인 키워드 없이 뉴스/원인 설명 요청 → Ontology(GraphRAG) 단일")
    elif (sql_need and graph_need) or len(domain_agents) > 1:
        mode = "parallel"
        reasons.append("SQL과 Graph가 모두 필요하거나 복합 도메인 → 조건부 병렬")
    else:
        mode = "single"
        reasons.append("한쪽 도구로 충분 → 단일 실행 (근거 부족 시 보조 1회)")
    named = [a for a in agents if a != "ontology"] + (["relationship"] if relationship else [])
    return Route(
        question=text,
        language=language_of(text),
        intent="general" if mode == "llm_direct" else "+".join(named) or "evidence",
        target_agents=agents,
        sql_need=sql_need,
        graph_need=graph_need,
        tool_mode=mode,  # type: ignore[arg-type]
        matched_security_ids=security_ids,
        indicator_codes=indicators or _topic_defaults(low, rules, agents),
        regions=match_regions(low, rules),
        real_estate_regions=re_regions,
        themes=[theme for theme, words in rules["themes"].items() if _hits(low, words)],
        period_months=_period_months(rules, frame),
        requested_as_of_date=frame.as_of_date,
        reasons=reasons,
        frame=frame,
        market_words=market_words,
    )


def _general_route(text: str, frame: QuestionFrame, reason: str) -> Route:
    return Route(question=text, language=frame.language, intent="general",
                 target_agents=["general_knowledge"], sql_need=False, graph_need=False,
                 tool_mode="llm_direct", reasons=[reason], frame=frame)  # fmt: skip


def _period_months(rules: dict[str, Any], frame: QuestionFrame) -> int:
    """The frame's period ('미국 10년물' is not a 10-year window), in whole months."""
    if frame.period is None and _recent_move(frame):
        # '삼성전자 왜 떨어졌어?': the recent move, not the year (a monthly series: a quarter)
        return 3 if frame.of("series") and not (frame.of("stock") or frame.of("index")) else 1
    if frame.period is None:
        return int(rules["default_period_months"])
    return max(1, min(60, round(frame.period.months + 0.49)))


def _sid(code: str, pool: ConnectionPool | None) -> str | None:
    try:
        return normalize_security_id(code, pool)
    except WorkbenchError:
        return None


def match_indicators(low: str, rules: dict[str, Any]) -> list[str]:
    """Indicator codes named by an alias; 'US'/'KR' words narrow generic ones ('금리')."""
    out: list[str] = []
    for spec in rules["indicators"]:
        if spec["code"].lower() in low or _hits(low, spec["aliases"]):
            out.append(spec["code"])
    regions = match_regions(low, rules)
    if regions and len(out) > 1:
        by_code = {s["code"]: s["region"] for s in rules["indicators"]}
        narrowed = [c for c in out if by_code[c] in regions]
        out = narrowed or out
    return out


def _topic_defaults(low: str, rules: dict[str, Any], agents: list[AgentName]) -> list[str]:
    if "macro" not in agents:
        return []
    regions = match_regions(low, rules)
    by_code = {s["code"]: s["region"] for s in rules["indicators"]}
    out: list[str] = []
    for topic in rules["topic_defaults"]:
        if _hits(low, topic["keywords"]):
            out += [c for c in topic["codes"] if not regions or by_code[c] in regions]
    return list(dict.fromkeys(out)) or ["KR_BASE_RATE", "FEDFUNDS"]


def match_regions(low: str, rules: dict[str, Any]) -> list[str]:
    return [r for r, words in rules["regions"].items() if _hits(low, words)]


def _recent_move(frame: QuestionFrame) -> bool:
    """A why-question about a move of a price ('왜 떨어졌어?', 'why did NVDA drop')."""
    priced = frame.of("stock") or frame.of("index") or frame.of("sector") or frame.of("series")
    why = find_phrases(frame.question.lower(), {"why": vocabulary()["why"]})
    named = frame.of("stock") or frame.of("sector")  # '삼성전자 왜?': its recent move, no direction
    return bool(priced and why and (asked_move(frame.question) or named))


_NAMES: dict[int, list[tuple[str, str]]] = {}


def stock_names(pool: ConnectionPool | None) -> list[tuple[str, str]]:
    """(lower-case name or alias, security_id), longest first (cached per pool)."""
    key = id(pool)
    if key not in _NAMES:
        rows = fetch_all(
            "SELECT lower(name) AS n, security_id FROM stocks WHERE NOT is_etf "
            "UNION SELECT lower(name_en), security_id FROM stocks WHERE name_en IS NOT NULL "
            "AND NOT is_etf UNION SELECT lower(alias), target FROM entity_aliases "
            "WHERE kind = 'stock'",
            pool=pool,
        )
        pairs = [(r["n"], r["security_id"]) for r in rows if r["n"] and len(r["n"]) >= 2]
        _NAMES[key] = sorted(pairs, key=lambda p: -len(p[0]))
    return _NAMES[key]


def match_security_ids(text: str, pool: ConnectionPool | None = None) -> list[str]:
    """security_ids written as 6-digit codes or upper-case tickers (names and aliases are the
    question frame's: its lexicon knows 'LG헬로비전' is not LG)."""
    found: list[str] = []
    rules = load_rules()
    indicator_words = {c.upper() for s in rules["indicators"] for c in [s["code"], *s["aliases"]]}
    candidates = _KR_CODE.findall(text) + [
        t for t in _TICKER.findall(text) if t not in indicator_words and len(t) >= 2
    ]
    for token in candidates:
        try:
            known = token.lower() in {sid.split(":", 1)[1].lower() for _, sid in stock_names(pool)}
            resolved = normalize_security_id(token, pool) if known else None
        except WorkbenchError:
            resolved = None
        if resolved:
            found.append(resolved)
    return list(dict.fromkeys(found))
