"""매크로 Q&A screen (seed 004): chat, route panel, per-agent key points, charts, citations.

Thin: `agents.macro.service.stream_answer` runs the turn (on a worker thread, `pages._live`: live
steps, progress, 중지, and with a model the answer as it is written, a checked sentence at a
time), `agents.macro.charts` builds figures,
`pages._answer` renders the shared answer contract, `data_access.runs` keeps every turn.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from agents.inputs import clean_text, preview
from agents.macro.charts import comparison_figure, path_figure, period_figure, series_figures
from agents.macro.service import SCREEN, NodeEvent, stream_answer
from data_access.contracts import AgentAnswer
from pages import _answer
from pages import _runtime as runtime
from pages import _ui as ui
from pages._chat import ChatScreen, ChatSession
from pages._live import QUIET_S, LiveTurn, follow

EXAMPLES = (
    "한국 기준금리 최근 추이는?",
    "삼성전자 최근 3개월 수익률과 하락 원인은?",
    "서울 강남구 아파트 전세가율 추이",
    "원달러 환율에 영향을 준 이벤트 경로는?",
    "What is the latest US CPI?",
    "금리와 부동산 집값의 관계는?",
)
STATE_PENDING = "macro_pending_question"
LIVE_KEY = "macro_live_turn"
BOX_KEY = "macro_question_box"
CHAT = ChatSession(SCREEN)
AGENT_TITLES = {"macro": "거시경제", "equity": "주식", "real_estate": "부동산",
                "ontology": "관계·근거", "general_knowledge": "일반 지식"}  # fmt: skip
TOOL_MODES = {"single": "단일 에이전트", "parallel": "병렬 실행", "llm_direct": "모델 직접 답변"}
INTENT_WORDS = {**AGENT_TITLES, "relationship": "관계", "general": "일반", "stock": "주식"}
AGENT_STATUS = {"ok": "완료", "empty": "결과 없음", "error": "오류", "degraded": "일부만",
                "skipped": "건너뜀"}  # fmt: skip
DOMAIN_TITLES = {"macro": "거시", "equity": "주식", "real_estate": "부동산", "documents": "문서",
                 "news": "뉴스", "etf": "ETF"}  # fmt: skip


def _turns() -> list[dict[str, Any]]:
    return CHAT.turns()


def _yes(flag: object) -> str:
    return "필요" if flag else "불필요"


def _render_route(payload: dict[str, Any], key: str) -> None:
    """The router's decision, drawn once the panel is opened (one text block)."""
    r = payload.get("route")
    if not r:
        return
    agents = " + ".join(AGENT_TITLES.get(a, a) for a in r["target_agents"])
    mode = TOOL_MODES.get(r["tool_mode"], r["tool_mode"])
    box = st.expander(f"라우팅: {agents} · {mode}", icon=":material/alt_route:",
                      key=f"{key}-route", on_change="rerun")  # fmt: skip
    if not box.open:
        return
    intent = " + ".join(INTENT_WORDS.get(w, w) for w in str(r["intent"]).split("+"))
    lines = [
        f"- 의도: {intent} · 도구 모드: {mode} · SQL 조회 {_yes(r['sql_need'])} · "
        f"그래프 조회 {_yes(r['graph_need'])}",
        f"- 대상 에이전트: {', '.join(AGENT_TITLES.get(a, a) for a in r['target_agents'])}",
    ]
    if r.get("matched_security_ids"):
        lines.append(f"- 종목: {', '.join(r['matched_security_ids'])}")
    if r.get("indicator_codes"):
        lines.append(f"- 지표: {', '.join(r['indicator_codes'])}")
    if r.get("requested_as_of_date"):
        lines.append(f"- 요청 기준일: {r['requested_as_of_date']}")
    reasons = "\n".join(f"- {x}" for x in r.get("reasons", []))
    box.markdown("\n".join(lines) + "\n\n**판단 근거**\n" + reasons)


def _render_agents(payload: dict[str, Any]) -> None:
    responses = payload.get("agent_responses", {})
    if not responses:
        return
    columns = st.columns(len(responses))
    for col, (name, resp) in zip(columns, responses.items(), strict=False):
        with col.container(border=True):
            status = AGENT_STATUS.get(resp["status"], resp["status"])
            st.markdown(f"**{AGENT_TITLES.get(name, name)}** · {status} · "
                        f"{resp['duration_ms']:,} ms")  # fmt: skip
            # its key points are the answer's lines above: the card says what it added
            points, series = len(resp.get("key_points", [])), len(resp.get("series", []))
            st.caption(f"답변 항목 {points}개" + (f" · 시계열 {series}개" if series else ""))
            for u in resp.get("uncertainty", []):
                st.caption(f"⚠️ {_answer.literal_tildes(u)}")


def _charts(key: str) -> Any:
    def render(answer: AgentAnswer) -> None:
        payload = answer.payload
        if payload.get("degraded"):
            st.warning(payload["degraded"], icon=":material/cloud_off:")
        if answer.data_freshness:
            ui.freshness_badges(answer.data_freshness, DOMAIN_TITLES)
        _render_route(payload, key)
        _render_agents(payload)
        compared = comparison_figure(payload)  # one chart of the compared series, if any
        figures = [compared] if compared else series_figures(payload, answer.as_of_date)
        periods = period_figure(payload)  # each period's return, when the answer lists them
        figures = ([periods] if periods else []) + figures
        for i, fig in enumerate(figures):
            ui.show_chart(fig, key=f"{key}-series-{i}")
        fig = path_figure(payload)
        if fig is not None:
            ui.show_chart(fig, key=f"{key}-path")

    return render


def _start(question: str, screen: ChatScreen) -> None:
    """Start one turn on a worker thread and follow it (a rerun while it runs follows it again)."""
    history, store, pool = CHAT.history(), runtime.graph_store(), runtime.pg_pool()
    _follow(LiveTurn.begin(LIVE_KEY, question, lambda stop: stream_answer(
        question, history=history, store=store, pool=pool, cancel=stop)), screen)  # fmt: skip


def _render_step(event: object) -> str | None:
    if not isinstance(event, NodeEvent):
        return None
    st.markdown(f"- `{event.node}` {event.summary} ({event.duration_ms:,} ms)")
    return f"{event.node} 완료"


def _render_turn(turn: dict[str, Any], index: int) -> None:
    key = f"macro-turn-{turn.get('run_id') or index}"
    _answer.render_answer(turn["answer"], question=turn["question"], key=key,
                          charts=_charts(key))  # fmt: skip


def _follow(turn: LiveTurn, screen: ChatScreen | None = None) -> None:
    """The turn's nodes as they run, then its answer: in the run that started the turn
    (`screen`) drawn in place, without another run; refused input is put back in the box."""
    with st.chat_message("user"):
        st.markdown(preview(turn.question))
    with st.chat_message("assistant"):
        live = st.empty()  # the nodes while it runs; the answer in their place when it is in
        with live.container():
            answer = follow(turn, _render_step, title="라우팅과 에이전트를 실행하는 중…",
                            done=lambda _: "완료", quiet_s=QUIET_S)  # fmt: skip
        turn.end()
        if answer is None:
            return
        rejected = bool(answer.payload.get("input_rejected"))
        if rejected:
            ui.keep_refused(BOX_KEY, turn.question)
        CHAT.add_turn(turn.question, answer,
                      save=answer.status != "error" or bool(answer.trace))  # fmt: skip
        if screen is not None and not rejected:
            with live.container():  # as the next run shows it: the answer alone
                _render_turn(CHAT.turns()[-1], len(CHAT.turns()) - 1)
            screen.answered()
            return
    st.rerun()


def main() -> None:
    ui.ensure_shell()
    st.title("매크로 Q&A")
    st.caption("거시경제·주식·부동산·관계 질문을 라우터가 나눠 도메인 에이전트에 맡기고, 수치(정형 근거)와 "
               "문서 근거를 함께 보여 줍니다.")  # fmt: skip
    live = LiveTurn.current(LIVE_KEY)
    screen = ChatScreen(CHAT)
    screen.picker(disabled=live is not None)
    for i, turn in enumerate(_turns()):
        with st.chat_message("user"):
            st.markdown(preview(turn["question"]))
        with st.chat_message("assistant"):
            _render_turn(turn, i)
    if not _turns() and live is None and not ui.asked_now(BOX_KEY, STATE_PENDING):
        with screen.examples():
            st.markdown("**예시 질문**")
            cols = st.columns(3)
            for i, example in enumerate(EXAMPLES):
                if cols[i % 3].button(example, key=f"macro_example_{i}",
                                      use_container_width=True):  # fmt: skip
                    st.session_state[STATE_PENDING] = example
                    st.rerun()
    pending: str | None = st.session_state.pop(STATE_PENDING, None)
    ui.restore_refused(BOX_KEY)
    typed = st.chat_input("거시·주식·부동산 질문 (예: 한국 기준금리 추이)",
                          key=BOX_KEY, disabled=live is not None,
                          submit_mode="disable")  # fmt: skip
    if live is not None:
        _follow(live)
        return
    question = pending if pending is not None else typed
    if question is not None:
        screen.started()
        # what is stored is what the agent saw: no NUL, no escapes
        _start(clean_text(question), screen)


main()
