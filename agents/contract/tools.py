"""The four clause tools of seed 002, with the seed's names, inputs and outputs.

Each tool is a small class: `name`, `description`, `parameters` (JSON schema), `execute()` that
does the work and `validate_result()` that says what is wrong with a result (empty, malformed)
so the registry can return it as an error the model can act on.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from psycopg_pool import ConnectionPool

from agents.contract import store
from agents.contract.answer import related, select
from agents.contract.coverage import missing_topic, uncovered
from agents.contract.glossary import concept_for_title
from agents.contract.index import ContractIndex, Hit, article_dict, get_index
from agents.contract.models import Article, article_key, article_ref, split_key, split_part
from agents.contract.references import parse_ref
from agents.contract.tokenize import tokens
from data_access.config import Settings
from data_access.errors import ToolInputError

TOP_K = 5
TITLE_MATCH_MIN = 0.5
MAX_QUERIES = 8
MAX_QUERY_CHARS = 300

Judge = Callable[[str, list[Hit]], list[int]]  # the article keys (models.article_key) to keep


@dataclass
class ToolContext:
    """What every tool of one run needs: the contract, the stores, the optional LLM judge."""

    contract_id: str
    pool: ConnectionPool | None
    settings: Settings
    judge: Judge | None = None  # LLM relevance filter; None → score-based (offline)


# Every article a tool returns carries these (the answer, citations and the screen read them).
REQUIRED_ARTICLE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "article_no": int, "key": int, "branch": int, "part": int, "title": str, "label": str,
    "content": list}  # fmt: skip


def article_problems(rows: Any, where: str) -> str | None:
    """What is wrong with a tool's list of articles (in Korean), per article: a missing or
    mistyped required field, content that is not a list of lines; None when every one is whole."""
    if not isinstance(rows, list):
        return f"{where}가 조항 목록이 아닙니다."
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            return f"{where}[{i}]가 조항 객체가 아닙니다."
        missing = [f for f in REQUIRED_ARTICLE_FIELDS if f not in row]
        wrong = [f for f, kind in REQUIRED_ARTICLE_FIELDS.items()
                 if f in row and (not isinstance(row[f], kind) or isinstance(row[f], bool))]  # fmt: skip
        if missing or wrong:
            name = row.get("label") or row.get("title") or f"{i}번째 조항"
            said = [f"필드 없음: {', '.join(missing)}"] if missing else []
            said += [f"형식이 틀림: {', '.join(wrong)}"] if wrong else []
            return f"{where}의 {name}: " + "; ".join(said)
        if not all(isinstance(line, str) for line in row["content"]):
            return f"{where}의 {row['label']}: content는 문자열 줄 목록이어야 합니다."
    return None


def results_problems(results: dict[str, Any]) -> str | None:
    """The first problem of a tool's articles per topic or query (`article_problems`)."""
    return next((problem for key, rows in results.items()
                 if (problem := article_problems(rows, f"results[{key!r}]")) is not None), None)  # fmt: skip


def relevance_filter(query: str, hits: list[Hit], judge: Judge | None,
                     articles: list[Article] | None = None) -> list[Hit]:  # fmt: skip
    """The hits that answer: the LLM's choice when configured, else the offline relevance cut
    (agents/contract/answer.py; `articles`: the contract's clauses), which may keep none."""
    if not hits:
        return []
    if judge is not None:
        keep = set(judge(query, hits))
        return [h for h in hits if h.article.key in keep][:TOP_K]
    return select(query, hits, articles=articles)


def _strings(value: Any, field: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ToolInputError(f"{field}는 문자열 목록이어야 합니다.")
    cleaned = [v.strip()[:MAX_QUERY_CHARS] for v in value if v.strip()]
    if not cleaned:
        raise ToolInputError(f"{field}가 비어 있습니다.")
    return cleaned[:MAX_QUERIES]


def _ints(value: Any, field: str) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ToolInputError(f"{field}는 정수 목록이어야 합니다.")
    out = []
    for v in value:
        if (
            isinstance(v, bool)
            or not isinstance(v, int | str)
            or not str(v).strip().lstrip("-").isdigit()
        ):
            raise ToolInputError(f"{field}에 숫자가 아닌 값이 있습니다: {v!r}")
        out.append(abs(int(v)))
    return out


class BaseTool(ABC):
    name: str
    description: str
    parameters: dict[str, Any]

    def __init__(self, context: ToolContext) -> None:
        self.context = context

    def get_schema(self) -> dict[str, Any]:
        """The seed's schema: {name, description, parameters (JSON schema)}."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}

    @abstractmethod
    def execute(self, **arguments: Any) -> dict[str, Any]: ...

    @abstractmethod
    def validate_result(self, result: dict[str, Any]) -> str | None:
        """None when the result is usable, else what is wrong (in Korean)."""

    def _index(self, contract_id: str | None = None) -> ContractIndex:
        """The index of `contract_id` (the run's contract when not given)."""
        return get_index(contract_id or self.context.contract_id, self.context.pool,
                         self.context.settings)  # fmt: skip

    def _candidates(self, contract_id: str, query: str) -> list[Hit]:
        return self._index(contract_id).search(query, top=TOP_K * 2)

    def _articles(self, contract_id: str) -> list[Article]:
        return list(self._index(contract_id).articles.values())

    def _search(self, contract_id: str, query: str) -> list[Hit]:
        return relevance_filter(query, self._candidates(contract_id, query), self.context.judge,
                                self._articles(contract_id))  # fmt: skip


def _hit_dict(hit: Hit) -> dict[str, Any]:
    return article_dict(hit.article, score=round(hit.score, 6), retrievers=hit.retrievers,
                        matched_terms=hit.matched_terms, loose=hit.loose)  # fmt: skip


class HybridSearchTool(BaseTool):
    name = "hybrid_search"
    description = ("사용자 계약서에서 내용으로 관련 조항을 검색합니다 (BM25 형태소(조·항) + 벡터, 점수 융합). "
                   "조 번호나 제목이 없는 질문에 씁니다. 주제별로 여러 검색어를 줄 수 있습니다.")  # fmt: skip
    parameters = {
        "type": "object",
        "properties": {"topics": {"type": "array", "description": "검색할 주제 목록", "items": {
            "type": "object", "properties": {
                "topic_name": {"type": "string", "description": "주제 이름"},
                "queries": {"type": "array", "items": {"type": "string"},
                            "description": "그 주제의 검색어들"}},
            "required": ["topic_name", "queries"]}}},
        "required": ["topics"],
    }  # fmt: skip

    def execute(self, **arguments: Any) -> dict[str, Any]:
        topics = arguments.get("topics")
        if not isinstance(topics, list) or not topics:
            raise ToolInputError("topics는 비어 있지 않은 목록이어야 합니다.")
        parsed: list[tuple[str, list[str]]] = []
        for topic in topics[:MAX_QUERIES]:
            if not isinstance(topic, dict):
                raise ToolInputError("topics의 각 항목은 {topic_name, queries} 객체여야 합니다.")
            queries = _strings(topic.get("queries") or [topic.get("topic_name", "")], "queries")
            parsed.append((str(topic.get("topic_name") or queries[0])[:MAX_QUERY_CHARS], queries))
        if self.context.judge is None:
            if len({queries[0] for _, queries in parsed}) > 1:
                return self._per_topic(parsed)
            # one question (the topics share it): its candidates cut once, so the answer lists
            # what the relevance cut keeps, as bench/contract_search.py measures it; when it keeps
            # nothing, the nearest clauses (related, not an answer) and what the contract lacks
            question = parsed[0][1][0]
            merged, articles = self._merged([question]), self._articles(self.context.contract_id)
            found = relevance_filter(question, merged, None, articles)
            near = [] if found else related(question, merged)
            return {"results": {parsed[0][0]: [_hit_dict(h) for h in found]},
                    "related": [_hit_dict(h) for h in near],
                    "lacking": "" if found else missing_topic(question, articles)}  # fmt: skip
        results = {name: [_hit_dict(h) for h in relevance_filter(queries[0], self._merged(queries),
                                                                 self.context.judge)]
                   for name, queries in parsed}  # fmt: skip
        return {"results": results}

    def _per_topic(self, parsed: list[tuple[str, list[str]]]) -> dict[str, Any]:
        """Offline, topics asked apart ('데이터 제공 범위와 손해배상 조건은?'): each searched and
        cut on its own question, so the second is not drowned by the first; a topic nothing
        answers keeps its name with no clause (and its nearest as related)."""
        articles = self._articles(self.context.contract_id)
        results: dict[str, list[dict[str, Any]]] = {}
        near: list[dict[str, Any]] = []
        for name, queries in parsed:
            merged = self._merged(queries)
            found = relevance_filter(queries[0], merged, None, articles)
            results[name] = [_hit_dict(h) for h in found]
            if not found:
                near += [_hit_dict(h) for h in related(queries[0], merged)]
        return {"results": results, "related": near}

    def _merged(self, queries: list[str]) -> list[Hit]:
        """Candidates of every query of a topic, each article at its best score (filtered once)."""
        best: dict[int, Hit] = {}
        for query in queries:
            for hit in self._candidates(self.context.contract_id, query):
                no = hit.article.key
                if no not in best or hit.score > best[no].score:
                    best[no] = hit
        return sorted(best.values(), key=lambda h: -h.score)[: TOP_K * 2]

    def validate_result(self, result: dict[str, Any]) -> str | None:
        """An empty result is an answer (nothing cleared the relevance cut), not an error; an
        article without its required fields is."""
        results = result.get("results")
        if not isinstance(results, dict):
            return "results 필드가 없습니다."
        return results_problems(results) or article_problems(result.get("related", []), "related")


class ArticleIndexTool(BaseTool):
    name = "article_index"
    description = ("조 번호나 별지 번호로 조항을 직접 조회합니다 ('제5조', '2조', '별지1'). "
                   "가지 조문 제N조의M은 article_refs에 '제3조의2'처럼 줍니다. "
                   "별지는 article_no가 음수(-N)로 돌아옵니다.")  # fmt: skip
    parameters = {
        "type": "object",
        "properties": {
            "article_numbers": {"type": "array", "items": {"type": "integer"}, "description": "조 번호"},
            "exhibit_numbers": {"type": "array", "items": {"type": "integer"}, "description": "별지 번호"},
            "article_refs": {"type": "array", "items": {"type": "string"},
                             "description": "가지 조문 등 조 이름 ('제3조의2')"},
            "part": {"type": "integer",
                     "description": "별첨 계약(번호가 제1조부터 다시 시작하는 부분)의 번호; 본문은 0"},
        },
    }  # fmt: skip

    def execute(self, **arguments: Any) -> dict[str, Any]:
        numbers = _ints(arguments.get("article_numbers"), "article_numbers")
        exhibits = _ints(arguments.get("exhibit_numbers"), "exhibit_numbers")
        refs = _refs(arguments.get("article_refs"))
        if not numbers and not exhibits and not refs:
            raise ToolInputError(
                "article_numbers, exhibit_numbers, article_refs 중 하나는 있어야 합니다."
            )
        articles = self._index().articles
        part = _part(arguments.get("part"))  # an annexed part's own 제N조 (its numbering restarted)
        wanted = [_in_part(k, part) for k in dict.fromkeys(numbers + refs + [-n for n in exhibits])]
        found = [article_dict(articles[n]) for n in wanted if n in articles]
        missing = [_label(n) for n in wanted if n not in articles]
        return {"matched_articles": found, "missing": missing}

    def validate_result(self, result: dict[str, Any]) -> str | None:
        if not result.get("matched_articles"):
            return f"요청한 조항이 이 계약서에 없습니다: {', '.join(result.get('missing', []))}"
        return article_problems(result["matched_articles"], "matched_articles")


def _label(key: int) -> str:
    part = split_part(key)[0]
    return (f"별첨 {part} " if part else "") + article_ref(*split_key(key))


def _part(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not str(value).strip().isdigit():
        raise ToolInputError(f"part는 0 이상의 정수여야 합니다: {value!r}")
    return int(value)


def _in_part(key: int, part: int) -> int:
    """A key of the main body moved into annexed part `part`."""
    return article_key(*split_key(key), part=part) if part else key


def _refs(value: Any) -> list[int]:
    """Article keys of `article_refs` ('제3조의2', '3의2', '제5조'); anything else is refused."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        raise ToolInputError("article_refs는 '제3조의2' 같은 문자열 목록이어야 합니다.")
    keys = []
    for v in value[:MAX_QUERIES]:
        key = parse_ref(str(v)[:MAX_QUERY_CHARS])
        if key is None:
            raise ToolInputError(f"article_refs에 조 이름이 아닌 값이 있습니다: {str(v)[:40]!r}")
        keys.append(key)
    return keys


def title_score(query: str, title: str) -> float:
    """How well a title query names an article title (substring, morphemes, glossary concept)."""
    q, t = re.sub(r"\s+", "", query), re.sub(r"\s+", "", title)
    if q and (q in t or t in q):
        return 1.0
    q_tokens, t_tokens = set(tokens(query)), set(tokens(title))
    overlap = len(q_tokens & t_tokens) / max(1, len(t_tokens)) if t_tokens else 0.0
    concept = concept_for_title(query)
    if concept is not None and re.sub(r"\s+", "", concept.title) in t:
        overlap = max(overlap, 0.9)
    return overlap


class ArticleTitleTool(BaseTool):
    name = "article_title"
    description = ("조 제목으로 조항을 찾습니다 ('데이터 제공 조항', '손해배상 조항'). "
                   "영어 이름도 용어집으로 한국어 제목에 대응시킵니다.")  # fmt: skip
    parameters = {
        "type": "object",
        "properties": {"title_queries": {"type": "array", "items": {"type": "string"},
                                         "description": "찾을 조 제목들"}},
        "required": ["title_queries"],
    }  # fmt: skip

    def execute(self, **arguments: Any) -> dict[str, Any]:
        queries = _strings(arguments.get("title_queries"), "title_queries")
        articles = self._index().articles
        found: dict[int, dict[str, Any]] = {}
        near: dict[int, dict[str, Any]] = {}
        for query in queries:
            scored = sorted(((title_score(query, a.title), a) for a in articles.values()),
                            key=lambda pair: -pair[0])  # fmt: skip
            if scored and scored[0][0] >= TITLE_MATCH_MIN:
                score, article = scored[0]
                # '스카우트 금지' is not 제10조(금지청구): the title must cover what is named
                target = near if uncovered(query, article, every=True) else found
                target.setdefault(article.key, article_dict(article, query=query,
                                                                   score=round(score, 3)))  # fmt: skip
        return {"matched_articles": list(found.values()),
                "related": [] if found else list(near.values())}  # fmt: skip

    def validate_result(self, result: dict[str, Any]) -> str | None:
        if not result.get("matched_articles") and not result.get("related"):
            return "그 제목의 조항을 찾지 못했습니다."
        return (article_problems(result.get("matched_articles", []), "matched_articles")
                or article_problems(result.get("related", []), "related"))  # fmt: skip


class StandardContractTool(BaseTool):
    name = "standard_contract"
    description = ("표준계약서에서 관련 조항을 찾습니다 ('표준계약서에는?', '일반적으로는?'). "
                   "contract_type: provide(데이터 제공형), create(데이터 창출형).")  # fmt: skip
    parameters = {
        "type": "object",
        "properties": {
            "contract_type": {"type": "string", "description": "표준계약서 유형 (provide, create)"},
            "queries": {"type": "array", "items": {"type": "string"}, "description": "찾을 내용"},
        },
        "required": ["contract_type", "queries"],
    }  # fmt: skip

    def execute(self, **arguments: Any) -> dict[str, Any]:
        contract_type = str(arguments.get("contract_type") or "").strip().lower()
        queries = _strings(arguments.get("queries"), "queries")
        standard = store.standard_for(contract_type, self.context.pool) if contract_type else None
        if standard is None:
            raise ToolInputError(
                f"'{contract_type}' 유형의 표준계약서가 없습니다. provide 또는 create를 쓰세요."
            )
        results = {q: [_hit_dict(h) for h in self._search(standard.contract_id, q)]
                   for q in queries}  # fmt: skip
        return {"contract_type": contract_type, "standard_contract_id": standard.contract_id,
                "title": standard.title, "results": results}  # fmt: skip

    def validate_result(self, result: dict[str, Any]) -> str | None:
        if not any(result.get("results", {}).values()):
            return "표준계약서에서 관련 조항을 찾지 못했습니다."
        return results_problems(result["results"])


TOOL_CLASSES: tuple[type[BaseTool], ...] = (HybridSearchTool, ArticleIndexTool, ArticleTitleTool,
                                            StandardContractTool)  # fmt: skip


def make_tools(context: ToolContext) -> list[BaseTool]:
    return [cls(context) for cls in TOOL_CLASSES]
