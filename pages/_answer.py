"""Rendering of the shared answer contract (`AgentAnswer`) for every agent screen.

    from pages import _answer
    _answer.render_answer(answer, question=q, key="run-42")

Shows the answer with its mode (offline planner or model, tokens and cost), the as-of date and
freshness, the trace as expanders, the document and structured citations as tables, and JSON /
Markdown downloads of the answer with its evidence. Screen-specific charts go between the
answer and the evidence (pass `charts=` a callable). All text is Korean.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from agents.colors import price_colors
from data_access.catalog import DOMAIN_TITLES_KO
from data_access.contracts import AgentAnswer, TraceStep, answer_to_markdown
from pages import _ui as ui

STATUS_LABELS = {"ok": "성공", "error": "오류", "rejected": "거부", "skipped": "건너뜀",
                 "partial": "부분 답변", "budget_exceeded": "한도 초과",
                 "cancelled": "중지됨"}  # fmt: skip
KIND_LABELS = {"tool": "도구", "code": "코드", "llm": "LLM", "node": "노드", "guard": "검사",
               "understanding": "이해"}  # fmt: skip
# No document or evidence ids ('20261120-019'): internal keys, not words for an analyst; the
# downloads keep them.
CITATION_HEADERS = {"title": "제목", "source": "출처", "url": "URL"}
STRUCTURED_HEADERS = {
    "dataset_code": "데이터셋", "source": "출처", "table": "테이블", "filters": "필터",
    "date_range": "기간", "as_of_date": "기준일", "row_count": "행 수", "query_fingerprint": "쿼리 지문",
}  # fmt: skip


# smolagents writes these English headings into every code step's observation (and its errors
# start with the English sentence below); the trace shows them in Korean, the stored run keeps them.
OBSERVATION_LABELS = (
    (re.compile(r"^Execution logs:$", re.M), "실행 로그:"),
    (re.compile(r"^Last output from code snippet:$", re.M), "코드 조각의 마지막 출력:"),
    (
        re.compile(r"^Code execution failed at line (.*) due to: ", re.M),
        r"코드 실행 실패 (줄 \1): ",
    ),
    (re.compile(r"^Reached max steps\.", re.M), "최대 단계 수에 도달했습니다."),
)


def trace_text(text: str) -> str:
    """An observation or step error as shown: the agent library's English headings in Korean."""
    for pattern, korean in OBSERVATION_LABELS:
        text = pattern.sub(korean, text)
    return text


def literal_tildes(text: str) -> str:
    """Streamlit's markdown strikes through text between single tildes, and answers use `~` for
    ranges ("2.75~3.00%"): every tilde is shown as itself."""
    return re.sub(r"(?<!\\)~", r"\\~", text)


HEADING = re.compile(r"^(#{1,3}) ", re.M)


def smaller_headings(text: str) -> str:
    """An answer's Markdown headings three levels down ('# …' → '#### …'): as written they were
    larger than the screen's own title (the stock report's; an ETF comparison's '# KODEX 200 vs
    TIGER 200 비교' over two lines at 420 px)."""
    return HEADING.sub(lambda m: "#" * (len(m.group(1)) + 3) + " ", text)


# a table cell that is a signed change: '-3.56%', '+2.84%', '-0.25%p', '-25bp'
SIGNED_CELL = re.compile(r"(?<=\|)(\s*)([+\-−]\d[\d,]*(?:\.\d+)?(?:%p|%|bp))(\s*)(?=\|)")


def signed_cells(text: str) -> str:
    """The signed changes in an answer's Markdown tables in the rise/fall colours of the charts
    and data grids (red up, blue down in the Korean convention): the ETF comparison's
    '1개월 수익률 | -3.56% | -3.50%' had been black beside the blue of the grid under it."""
    colors = price_colors()

    def paint(m: re.Match[str]) -> str:
        value = m.group(2)
        name = colors.tile_color(-1.0 if value[0] in "-−" else 1.0)
        return f"{m.group(1)}:{name}[{value}]{m.group(3)}"

    return "\n".join(
        SIGNED_CELL.sub(paint, line) if line.lstrip().startswith("|") else line
        for line in text.split("\n")
    )


def mode_caption(answer: AgentAnswer) -> str:
    """'오프라인 플래너 · 비용 없음' or 'LLM openai/x · 1,234 토큰 · $0.0012', plus timing."""
    if answer.mode == "offline":
        head = "답변 모드: 오프라인 플래너 (LLM 호출 없음, 비용 0)"
    else:
        head = f"답변 모드: LLM `{answer.model}` · {answer.tokens:,} 토큰 · ${answer.cost_usd:.4f}"
    parts = [head, f"기준일 {answer.as_of_date or '-'}", f"{answer.duration_ms:,} ms"]
    if answer.data_freshness:
        fresh = ", ".join(f"{DOMAIN_TITLES_KO.get(k, k)} {ui.freshness_label(v)}"
                          for k, v in answer.data_freshness.items())  # fmt: skip
        parts.append(f"신선도: {fresh}")
    return " · ".join(parts)


def partial_reason(answer: AgentAnswer) -> str:
    """What a partial answer left out, in general terms (the answer itself says exactly what)."""
    if answer.payload.get("declined"):
        return "이 질문은 데이터로 답하지 않았습니다. 이유와 대신 물을 수 있는 질문은 아래에 적었습니다."
    return "질문의 일부만 답했습니다. 답하지 못한 부분은 답변에 적었습니다."


def render_answer(
    answer: AgentAnswer,
    *,
    question: str | None = None,
    key: str,
    charts: Callable[[AgentAnswer], None] | None = None,
) -> None:
    """The whole block under a question: answer, charts, trace, citations, downloads."""
    if answer.status == "cancelled":  # its text says so: shown once, as a notice
        st.info(answer.answer, icon=":material/stop_circle:")
    else:
        if answer.status != "ok":
            label = STATUS_LABELS.get(answer.status, answer.status)
            st.warning(f"{label}: {answer.error or partial_reason(answer)}",
                       icon=":material/warning:")  # fmt: skip
        st.markdown(signed_cells(smaller_headings(literal_tildes(answer.answer))))
    st.caption(mode_caption(answer))
    slot = st.container() if charts is not None else None  # the charts' place, filled last
    render_trace(answer.trace, key=key)
    render_citations(answer, key=key)
    render_downloads(answer, question=question, key=key)
    if charts is not None and slot is not None:
        # sent after the rest of the answer, drawn in their place above it: sent first, a
        # chart's drawing could hold the whole update and the text came with the charts
        with slot:
            charts(answer)


def render_live_step(
    step: int,
    *,
    thought: str | None,
    code: str | None,
    observation: str | None,
    tool_calls: Sequence[dict[str, Any]],
    error: str | None,
    duration_ms: int,
    key: str | None = None,
) -> None:
    """One agent step while the run is going on (inside an `st.status` block). With `key` its
    content (code, highlighted in the browser) is drawn only once the step is opened."""
    title = f"단계 {step} · {duration_ms:,} ms" + (" · 오류" if error else "")
    box = st.expander(title, expanded=False, icon=":material/error:" if error else None,
                      key=key, on_change="rerun" if key else "ignore")  # fmt: skip
    if key and not box.open:
        return
    with box:
        if thought:
            st.markdown(f"**생각:** {thought}")
        if code:
            st.code(code, language="python")
        for call in tool_calls:
            args = json.dumps(call.get("arguments", {}), ensure_ascii=False)
            status = STATUS_LABELS.get(call.get("status", "ok"), call.get("status"))
            st.markdown(
                f"- 도구 `{call['tool']}` {args} → {status} ({call.get('duration_ms', 0)} ms)"
            )
        if observation:
            st.text(trace_text(observation))
        if error:
            st.error(trace_text(error))


def render_trace(trace: Sequence[TraceStep], *, key: str) -> None:
    """The trace in an expander whose steps are drawn only once it is opened: the browser
    highlights every step's code and arguments, which took longer than the answer and its
    charts together (profiled in Chromium), for a panel most answers never open."""
    if not trace:
        return
    box = st.expander(f"실행 단계 ({len(trace)})", icon=":material/account_tree:",
                      key=f"{key}-trace", on_change="rerun")  # fmt: skip
    if not box.open:
        return
    with box:
        for t in trace:
            status = STATUS_LABELS.get(t.status, t.status)
            kind = KIND_LABELS.get(t.kind, t.kind)
            line = f"**{t.step}. {kind} `{t.name}`** · {status} · {t.duration_ms:,} ms"
            if t.tokens:
                line += f" · {t.tokens:,} 토큰 · ${t.cost_usd:.4f}"
            st.markdown(line)
            if t.arguments:
                st.code(json.dumps(t.arguments, ensure_ascii=False), language="json")
            if t.code:
                st.code(t.code, language="python")
            if t.observation and t.kind != "tool":
                st.text(trace_text(t.observation))
            if t.error:
                st.error(trace_text(t.error))


def structured_rows(answer: AgentAnswer) -> list[dict[str, Any]]:
    rows = []
    for c in answer.structured_citations:
        period = f"{c.date_range.start or ''} ~ {c.date_range.end or ''}".strip(" ~")
        rows.append({**c.model_dump(mode="json"), "filters": json.dumps(c.filters, ensure_ascii=False),
                     "date_range": period or "-"})  # fmt: skip
    return _with_source_column(rows)


def _with_source_column(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The 출처 column where a citation names its publisher ('-' for the others), none where no
    citation does (a screen that does not look its sources up yet)."""
    if not any(r.get("source") for r in rows):
        return [{k: v for k, v in r.items() if k != "source"} for r in rows]
    return [{**r, "source": r.get("source") or "-"} for r in rows]


def render_citations(answer: AgentAnswer, *, key: str) -> None:
    if answer.citations:
        st.markdown("**문서 근거**")
        ui.show_table(_with_source_column([c.model_dump() for c in answer.citations]),
                      CITATION_HEADERS, key=f"{key}-citations")  # fmt: skip
    if answer.structured_citations:
        # drawn once opened, as the trace: a closed table grid still cost the browser its
        # data and layout work under every answer
        box = st.expander(f"정형 데이터 근거 ({len(answer.structured_citations)})",
                          icon=":material/table:", key=f"{key}-structured-box",
                          on_change="rerun")  # fmt: skip
        if box.open:
            with box:
                ui.show_table(structured_rows(answer), STRUCTURED_HEADERS, key=f"{key}-structured")


def render_downloads(answer: AgentAnswer, *, question: str | None, key: str) -> None:
    left, right = st.columns(2)
    document = {"question": question, **answer.model_dump(mode="json")}
    left.download_button(
        "답변·근거 JSON 내려받기", json.dumps(document, ensure_ascii=False, indent=2),
        file_name="answer.json", mime="application/json", key=f"{key}-json",
        icon=":material/download:",
    )  # fmt: skip
    right.download_button(
        "답변·근거 Markdown 내려받기", answer_to_markdown(answer, question),
        file_name="answer.md", mime="text/markdown", key=f"{key}-md",
        icon=":material/description:",
    )  # fmt: skip
