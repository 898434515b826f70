"""ETF 챗 screen (seed 000): chat with history, live agent steps, charts, citations, downloads.

Thin by design: `agents.etf.service.stream_answer` runs the turn, `agents.etf.charts` builds
the figures, `pages._answer` renders the shared answer contract, `data_access.runs` keeps every
turn so past conversations can be reopened.
"""

from __future__ import annotations

import logging
from typing import Any

import streamlit as st

from agents.etf.charts import ChartItem, charts_for
from agents.etf.prompts import HistoryMessage
from agents.etf.service import SCREEN, StepEvent, stream_answer
from data_access import runs
from data_access.contracts import AgentAnswer
from data_access.errors import WorkbenchError
from pages import _answer
from pages import _runtime as runtime
from pages import _ui as ui

logger = logging.getLogger(__name__)

EXAMPLES = (
    "삼성전자를 가장 많이 보유한 ETF는?",
    "KODEX 200과 TIGER 200 비교해줘",
    "반도체 관련 ETF 보수율 낮은 순으로",
    "KODEX 200 3개월 가격 추이",
    "KODEX 200과 비슷한 ETF는?",
    "삼성전자와 SK하이닉스를 동시에 보유한 ETF",
)
STATE_CONVERSATION = "etf_conversation_id"
STATE_TURNS = "etf_turns"  # list of {"question", "answer": AgentAnswer, "run_id"}
STATE_PENDING = "etf_pending_question"
PICKER_KEY = "etf_conversation_picker"
NEW_CONVERSATION = ""  # picker value for a conversation not started yet


# ---------------------------------------------------------------- charts


def _render_item(item: ChartItem, key: str) -> None:
    if item.figure is not None:
        ui.show_chart(item.figure, key=key)
    elif item.table is not None:
        st.markdown(f"**{item.title}**")
        table = item.table
        if item.row_colors:
            colors = item.row_colors
            styled = table.style.apply(
                lambda row: [f"background-color: {colors[row.name]}"] * len(row), axis=1
            )
            st.dataframe(styled, hide_index=True, key=key)
        else:
            st.dataframe(table, hide_index=True, key=key)


def _charts(key: str) -> Any:
    def render(answer: AgentAnswer) -> None:
        for i, item in enumerate(charts_for(answer.payload)):
            _render_item(item, f"{key}-chart-{i}")

    return render


# ---------------------------------------------------------------- conversation state


def _turns() -> list[dict[str, Any]]:
    return st.session_state.setdefault(STATE_TURNS, [])


def _history() -> list[HistoryMessage]:
    out: list[HistoryMessage] = []
    for turn in _turns():
        out += [HistoryMessage("user", turn["question"]),
                HistoryMessage("assistant", turn["answer"].answer)]  # fmt: skip
    return out


def _open_conversation(conversation_id: str | None) -> None:
    st.session_state[STATE_CONVERSATION] = conversation_id
    st.session_state[STATE_TURNS] = []
    if conversation_id is None:
        return
    for turn in runs.load_turns(conversation_id, pool=runtime.pg_pool()):
        _turns().append({"question": turn.question, "answer": turn.answer, "run_id": turn.run_id})


def _save_turn(question: str, answer: AgentAnswer) -> str | None:
    try:
        conversation_id, run_id = runs.record_turn(
            SCREEN, question, answer, st.session_state.get(STATE_CONVERSATION), runtime.pg_pool()
        )
        st.session_state[STATE_CONVERSATION] = conversation_id
        return run_id
    except WorkbenchError as e:
        st.warning(f"대화를 저장하지 못했습니다: {e}", icon=":material/save:")
        return None


# ---------------------------------------------------------------- widgets


def _on_pick() -> None:
    _open_conversation(st.session_state.get(PICKER_KEY) or None)


def _on_new() -> None:
    _open_conversation(None)
    st.session_state[PICKER_KEY] = NEW_CONVERSATION


def _render_conversation_picker() -> None:
    try:
        conversations = runs.list_conversations(SCREEN, limit=30, pool=runtime.pg_pool())
    except WorkbenchError as e:
        st.caption(f"지난 대화를 불러오지 못했습니다: {e}")
        conversations = []
    current = st.session_state.get(STATE_CONVERSATION)
    options = [NEW_CONVERSATION] + [c.conversation_id for c in conversations]
    titles = {c.conversation_id: f"{c.title} ({c.updated_at:%m-%d %H:%M})" for c in conversations}
    # The widget follows the open conversation (it changes when a first question creates one).
    st.session_state[PICKER_KEY] = current if current in options else NEW_CONVERSATION
    left, right = st.columns([4, 1])
    left.selectbox(
        "지난 대화", options, format_func=lambda cid: "새 대화" if cid == NEW_CONVERSATION else titles.get(cid, cid),
        key=PICKER_KEY, on_change=_on_pick,
    )  # fmt: skip
    right.button("새 대화", icon=":material/add_comment:", key="etf_new_conversation",
                 on_click=_on_new)  # fmt: skip


def _render_examples() -> None:
    st.markdown("**예시 질문** — 눌러서 바로 물어보세요.")
    columns = st.columns(3)
    for i, example in enumerate(EXAMPLES):
        if columns[i % 3].button(example, key=f"etf_example_{i}", use_container_width=True):
            st.session_state[STATE_PENDING] = example
            st.rerun()


def _render_turn(turn: dict[str, Any], index: int) -> None:
    with st.chat_message("user"):
        st.markdown(turn["question"])
    with st.chat_message("assistant"):
        key = f"etf-turn-{turn.get('run_id') or index}"
        _answer.render_answer(turn["answer"], question=turn["question"], key=key,
                              charts=_charts(key))  # fmt: skip


def _ask(question: str) -> None:
    """Run one turn with live steps, then keep and show it."""
    with st.chat_message("user"):
        st.markdown(question)
    with st.chat_message("assistant"):
        answer: AgentAnswer | None = None
        with st.status("에이전트가 도구를 호출하는 중…", expanded=True) as status:
            try:
                for event in stream_answer(question, _history(), store=runtime.graph_store(),
                                           pool=runtime.pg_pool()):  # fmt: skip
                    if isinstance(event, StepEvent):
                        _answer.render_live_step(
                            event.step, thought=event.thought, code=event.code,
                            observation=event.observation, tool_calls=event.tool_calls,
                            error=event.error, duration_ms=event.duration_ms,
                        )  # fmt: skip
                        status.update(label=f"단계 {event.step} 완료…")
                    else:
                        answer = event
            except WorkbenchError as e:
                status.update(label="실패", state="error")
                ui.show_error(e)
                return
            steps = len({t.step for t in answer.trace}) if answer else 0
            status.update(label=f"완료 · {steps}단계", state="complete", expanded=False)
    if answer is not None:
        run_id = _save_turn(question, answer)
        _turns().append({"question": question, "answer": answer, "run_id": run_id})
        st.rerun()


def main() -> None:
    ui.ensure_shell()
    st.title("ETF 챗")
    st.caption(
        "국내 ETF의 보유종목, 태그, 운용사, 가격을 묻는 챗봇입니다. 에이전트가 10개 도구를 호출하는 "
        "Python 코드를 쓰고 실행하며, 각 단계와 근거 데이터를 함께 보여 줍니다."
    )
    _render_conversation_picker()
    turns = _turns()
    for i, turn in enumerate(turns):
        _render_turn(turn, i)
    if not turns:
        _render_examples()
    pending: str | None = st.session_state.pop(STATE_PENDING, None)
    typed = st.chat_input("ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)")
    question = pending or typed
    if question:
        _ask(question)


main()
