"""ETF 챗 screen (seed 000): chat with history, live agent steps, charts, citations, downloads.

Thin by design: `agents.etf.service.stream_answer` runs the turn (on a worker thread,
`pages._live`: live steps, progress, 중지), `agents.etf.charts` builds
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
from agents.inputs import clean_text, preview
from data_access.contracts import AgentAnswer
from pages import _answer
from pages import _runtime as runtime
from pages import _ui as ui
from pages._chat import ChatScreen, ChatSession
from pages._live import QUIET_S, LiveTurn, follow

logger = logging.getLogger(__name__)

EXAMPLES = (
    "삼성전자를 가장 많이 보유한 ETF는?",
    "KODEX 200과 TIGER 200 비교해줘",
    "반도체 관련 ETF 보수율 낮은 순으로",
    "KODEX 200 3개월 가격 추이",
    "KODEX 200과 비슷한 ETF는?",
    "삼성전자와 SK하이닉스를 동시에 보유한 ETF",
)
STATE_PENDING = "etf_pending_question"
LIVE_KEY = "etf_live_turn"
BOX_KEY = "etf_question_box"
CHAT = ChatSession(SCREEN)


# ---------------------------------------------------------------- charts


def _render_item(item: ChartItem, key: str) -> None:
    if item.figure is not None:
        ui.show_chart(item.figure, key=key)
    elif item.table is not None:
        st.markdown(f"**{item.title}**")
        table = item.table
        # two decimals, as the answer writes them (a styled frame shows six: '0.450000'), and
        # thousands separated (순자산 '159,431' 억 원, not '159431')
        styled = ui.signed_style(table, item.signed_columns).format(precision=2, thousands=",")
        if item.row_colors:
            colors = item.row_colors
            styled = styled.apply(
                lambda row: [f"background-color: {colors[row.name]}"] * len(row), axis=1
            )
        st.dataframe(styled, hide_index=True, key=key)


def _charts(key: str) -> Any:
    def render(answer: AgentAnswer) -> None:
        for i, item in enumerate(charts_for(answer.payload, answer.answer)):
            _render_item(item, f"{key}-chart-{i}")

    return render


# ---------------------------------------------------------------- conversation state


def _turns() -> list[dict[str, Any]]:
    return CHAT.turns()


def _history() -> list[HistoryMessage]:
    return CHAT.history()


def _render_examples() -> None:
    st.markdown("**예시 질문** — 눌러서 바로 물어보세요.")
    columns = st.columns(3)
    for i, example in enumerate(EXAMPLES):
        if columns[i % 3].button(example, key=f"etf_example_{i}", use_container_width=True):
            st.session_state[STATE_PENDING] = example
            st.rerun()


def _render_turn(turn: dict[str, Any], index: int) -> None:
    with st.chat_message("user"):
        st.markdown(preview(turn["question"]))
    with st.chat_message("assistant"):
        key = f"etf-turn-{turn.get('run_id') or index}"
        _answer.render_answer(turn["answer"], question=turn["question"], key=key,
                              charts=_charts(key))  # fmt: skip


def _start(question: str, screen: ChatScreen) -> None:
    """Start one turn on a worker thread and follow it (a rerun while it runs follows it again)."""
    history, store, pool = _history(), runtime.graph_store(), runtime.pg_pool()
    _follow(LiveTurn.begin(LIVE_KEY, question, lambda stop: stream_answer(
        question, history, store=store, pool=pool, cancel=stop)), screen)  # fmt: skip


def _render_step(event: object) -> str | None:
    if not isinstance(event, StepEvent):
        return None
    _answer.render_live_step(
        event.step, thought=event.thought, code=event.code, observation=event.observation,
        tool_calls=event.tool_calls, error=event.error, duration_ms=event.duration_ms,
        key=f"{LIVE_KEY}-step-{event.step}",
    )  # fmt: skip
    return f"단계 {event.step} 완료"


def _follow(turn: LiveTurn, screen: ChatScreen | None = None) -> None:
    """The running turn's steps as they come (with 중지), then keep and show its answer: refused
    input is shown, not saved; a stopped turn is saved as cancelled with its steps. In the run
    that started the turn (`screen`) the answer is drawn in place, without another run."""
    with st.chat_message("user"):
        st.markdown(preview(turn.question))
    with st.chat_message("assistant"):
        live = st.empty()  # the steps while it runs; the answer in their place when it is in
        with live.container():
            answer = follow(turn, _render_step, title="에이전트가 도구를 호출하는 중…",
                            quiet_s=QUIET_S)  # fmt: skip
        turn.end()
        if answer is None:
            return
        rejected = bool(answer.payload.get("input_rejected"))
        if rejected:
            ui.keep_refused(BOX_KEY, turn.question)
        CHAT.add_turn(turn.question, answer, save=not rejected)
        if screen is not None and not rejected:
            key = f"etf-turn-{CHAT.turns()[-1].get('run_id') or len(CHAT.turns()) - 1}"
            with live.container():  # as the next run shows it: the answer alone
                _answer.render_answer(answer, question=turn.question, key=key, charts=_charts(key))
            screen.answered()
            return
    st.rerun()


def main() -> None:
    ui.ensure_shell()
    st.title("ETF 챗")
    st.caption(
        "국내 ETF의 보유종목, 태그, 운용사, 가격을 묻는 챗봇입니다. 에이전트가 10개 도구를 호출하는 "
        "Python 코드를 쓰고 실행하며, 각 단계와 근거 데이터를 함께 보여 줍니다."
    )
    live = LiveTurn.current(LIVE_KEY)
    screen = ChatScreen(CHAT, new_button=True)
    screen.picker(disabled=live is not None)
    turns = _turns()
    for i, turn in enumerate(turns):
        _render_turn(turn, i)
    if not turns and live is None and not ui.asked_now(BOX_KEY, STATE_PENDING):
        with screen.examples():
            _render_examples()
    pending: str | None = st.session_state.pop(STATE_PENDING, None)
    ui.restore_refused(BOX_KEY)
    typed = st.chat_input("ETF에 대해 물어보세요 (예: KODEX 200 정보 알려줘)", key=BOX_KEY,
                          disabled=live is not None, submit_mode="disable")  # fmt: skip
    if live is not None:
        _follow(live)
        return
    question = pending if pending is not None else typed
    if question is not None:
        screen.started()
        # what is stored is what the agent saw: no NUL, no escapes
        _start(clean_text(question), screen)


main()
