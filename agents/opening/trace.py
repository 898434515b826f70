"""Graph updates → the screen's live progress (NodeEvent) and the answer's trace (TraceStep)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage

from agents.evidence import EvidenceCollector, ToolCallRecord
from agents.opening.graph import NODE_LABELS, RunDeps
from data_access.contracts import TraceStep

MAX_TOOL_RESULTS = 40


@dataclass
class NodeEvent:
    """One finished graph node, as the screen shows it while the run goes on."""

    node: str
    label: str
    duration_ms: int
    summary: str
    tool_calls: list[dict[str, Any]] = field(default_factory=list)


class TraceBuilder:
    def __init__(self, deps: RunDeps) -> None:
        self.deps = deps
        self.steps: list[TraceStep] = []
        self.urls: dict[str, str] = {}
        self.outlets: dict[str, str | None] = {}  # who published each article of the window
        self._seen_calls = 0
        self._llm_seen = 0
        # (tool, arguments) of each call the last agent turn planned
        self._planned: list[tuple[str, dict[str, Any]]] = []

    def node(self, node: str, ms: int, values: dict[str, Any]) -> NodeEvent:
        step = len({t.step for t in self.steps}) + 1
        summary, calls = self._summary(node, values), self._new_calls()
        self.steps.append(TraceStep(step=step, kind="node", name=node, duration_ms=ms,
                                    observation=summary))  # fmt: skip
        if node == "agent":
            for call in self.deps.llm_calls[self._llm_seen :]:
                self.steps.append(TraceStep(step=step, kind="llm", name=call.model,
                                            model=call.model, tokens=call.tokens,
                                            cost_usd=call.cost_usd, duration_ms=call.duration_ms,
                                            arguments=_planned(values), error=call.error,
                                            status="error" if call.status == "error" else "ok"))  # fmt: skip
            self._llm_seen = len(self.deps.llm_calls)
            self._planned = _planned_calls(values)
        for c in calls:
            self.steps.append(TraceStep(
                step=step, kind="tool", name=c.tool, arguments=c.arguments,
                observation=c.preview[:500], duration_ms=c.duration_ms,
                status="error" if c.status == "error" else "ok", error=c.error,
            ))  # fmt: skip
        return NodeEvent(node, NODE_LABELS.get(node, node), ms, summary,
                         [_call_dict(c) for c in calls])  # fmt: skip

    def _new_calls(self) -> list[ToolCallRecord]:
        """Calls made since the last node, in the order the agent planned them.

        The tool node runs parallel calls concurrently, so the collector holds them in completion
        order; the trace (and screenshots of it) must not depend on which one finished first.
        """
        calls = self.deps.collector.calls_since(self._seen_calls)
        self._seen_calls = self.deps.collector.last_seq
        return _in_planned_order(calls, self._planned)

    def _summary(self, node: str, values: dict[str, Any]) -> str:
        if node == "prefetch_news":
            meta = values.get("news_meta", {})
            listed = self.deps.cache.read_news_list()
            self.urls = {a["pk"]: a["url"] for a in listed}
            self.outlets = {a["pk"]: a.get("source") for a in listed}
            return f"기사 {meta.get('count', 0)}건 ({meta.get('window_start', '')[:16]} ~ " \
                   f"{meta.get('window_end', '')[:16]} ET 기준 창)"  # fmt: skip
        if node == "load_context":
            ctx = values.get("context_json", {})
            return f"제목 상위 단어 {len(ctx.get('title_top_words', []))}개, 지표 대용치·거시 시리즈 반영"
        if node == "agent":
            last = (values.get("messages") or [None])[-1]
            if isinstance(last, AIMessage) and last.tool_calls:
                names = ", ".join(c["name"] for c in last.tool_calls)
                return f"도구 호출 {len(last.tool_calls)}개: {names}"
            return "최종 답변 작성"
        if node == "extract_script":
            v = values.get("validation") or {}
            if v.get("ok"):
                return "규칙 검증 통과, 결과 파일 저장" + (  # each repair with its reason
                    f" (보정 {len(v['repairs'])}건: {' / '.join(v['repairs'])})"
                    if v.get("repairs")
                    else ""
                )
            return "규칙 위반: " + "; ".join(v.get("errors", [])[:3]) if v else "건너뜀"
        if node == "cleanup":
            return "뉴스 캐시 삭제"
        if node == "prepare_messages":
            return "시스템·사용자 메시지 준비"
        return ""

    def read_articles(self) -> list[dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for c in self.deps.collector.calls:
            if c.tool == "get_news_content" and c.status == "ok" and isinstance(c.result, dict):
                for a in c.result.get("articles", []):
                    out[a["pk"]] = {
                        "pk": a["pk"],
                        "title": a["title"],
                        "url": self.urls.get(a["pk"]),
                        "source": self.outlets.get(a["pk"]),
                    }
        return list(out.values())

    def keyword_counts(self) -> list[dict[str, Any]]:
        """Title keyword counts the agent asked for (the keyword-frequency chart)."""
        counts: dict[str, int] = {}
        for c in self.deps.collector.calls:
            if c.tool == "count_keyword_frequency" and c.status == "ok" and \
                    c.arguments.get("source", "titles") == "titles":  # fmt: skip
                counts.update({k: int(v["count"]) for k, v in c.result.items()})
        return [{"word": k, "count": v} for k, v in sorted(counts.items(), key=lambda kv: -kv[1])]


KIND_LABELS = {"earnings": "실적", "company": "기업", "sector": "업종", "policy": "정책",
               "macro": "지표"}  # fmt: skip


def _planned(values: dict[str, Any]) -> dict[str, Any]:
    last = (values.get("messages") or [None])[-1]
    if isinstance(last, AIMessage) and last.tool_calls:
        return {"tool_calls": [c["name"] for c in last.tool_calls]}
    return {}


def _planned_calls(values: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    last = (values.get("messages") or [None])[-1]
    if isinstance(last, AIMessage) and last.tool_calls:
        return [(c["name"], c.get("args") or {}) for c in last.tool_calls]
    return []


def _in_planned_order(calls: list[ToolCallRecord],
                      planned: list[tuple[str, dict[str, Any]]]) -> list[ToolCallRecord]:  # fmt: skip
    """Sort calls by the planned call each one carries out (same tool; the recorded arguments
    add the tool's defaults to the planned ones). Unmatched calls keep their order at the end."""
    free = list(range(len(planned)))
    rank: dict[int, int] = {}
    for c in sorted(calls, key=lambda c: c.seq):
        for i in free:
            tool, args = planned[i]
            if tool == c.tool and all(c.arguments.get(k) == v for k, v in args.items()):
                rank[c.seq] = i
                free.remove(i)
                break
    return sorted(calls, key=lambda c: (rank.get(c.seq, len(planned)), c.seq))


def _call_dict(call: ToolCallRecord) -> dict[str, Any]:
    return {"tool": call.tool, "arguments": call.arguments, "duration_ms": call.duration_ms,
            "status": call.status, "error": call.error}  # fmt: skip


def movers_table(collector: EvidenceCollector) -> list[dict[str, Any]]:
    """The last get_market_movers ranking as table rows (the screen's 시장 영향력 순위)."""
    done = [c for c in collector.calls if c.status == "ok" and c.tool == "get_market_movers"]
    if not done:
        return []
    return [{"rank": c["rank"], "kind": KIND_LABELS.get(c["kind"], c["kind"]),
             "headline": c["headline"], "impact_trillion_krw": round(c["impact_krw"] / 1e12, 2),
             "surprise_pct": (c.get("earnings") or {}).get("surprise_pct"),
             "sources": len(c["sources"]), "articles": c["article_count"]}
            for c in done[-1].result.get("clusters", [])]  # fmt: skip


def tool_results(collector: EvidenceCollector) -> list[dict[str, Any]]:
    """get_ohlcv results (the numbers the script rests on), for the page and downloads."""
    ok = [c for c in collector.calls if c.status == "ok" and c.tool == "get_ohlcv"]
    return [{"tool": c.tool, "arguments": c.arguments, "result": c.result}
            for c in ok[:MAX_TOOL_RESULTS]]  # fmt: skip
