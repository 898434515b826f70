"""계약 조항 screen (seed 002): pick or upload a contract, read its articles, ask about it, see the
cited clauses (matched terms highlighted), the clause next to its standard-contract counterpart
with the differences marked, the tool calls, citations and downloads.

Thin by design: `agents.contract.service` does ingestion, search and the agent run (and saves
each run to a conversation in the run store, so "지난 대화" can reopen it); the run goes on a
worker thread (`pages._live`: its steps as they finish, progress, 중지); `pages._answer`
renders the shared answer contract.
"""

from __future__ import annotations

from typing import Any, Literal

import streamlit as st

from agents.contract import store
from agents.contract.diffview import Segments, clause_lines, diff_segments, highlight_segments
from agents.contract.ingest import worker as upload_worker
from agents.contract.models import article_key
from agents.contract.service import (
    ContractStep,
    clause_comparison,
    contract_type,
    ensure_samples,
    ingest_file,
    list_conversations,
    load_conversation,
    set_contract_type,
    start_conversation,
    stream_ask,
    warm_start,
)
from agents.contract.service import (
    warm as warm_contract,
)
from agents.contract.types import example_questions, label_of, type_labels
from agents.inputs import check_text, preview, rejected_answer
from data_access.contracts import AgentAnswer
from data_access.errors import WorkbenchError
from data_access.seed.news_text import particles
from pages import _answer
from pages import _runtime as runtime
from pages import _ui as ui
from pages._chat import distinct_labels, is_live_pick, live_picker_key
from pages._live import LiveTurn, follow

STATE_CONTRACT = "contract_selected"
STATE_TURNS = "contract_turns"  # {contract_id: [{"question", "answer"}]}
STATE_PENDING = "contract_pending_question"
BOX_KEY = "contract_question_box"
STATE_PENDING_ERROR = "contract_pending_error"
STATE_UPLOADED = "contract_uploaded_names"
STATE_CONVERSATIONS = "contract_conversations"  # {contract_id: conversation_id}
PICKER_KEY = "contract_conversation_picker"
STATE_PICKER_OPTIONS = "contract_conversation_options"
NEW_CONVERSATION = ""  # picker value for a conversation not started yet
# the label holds the title ('제5조(비밀유지)'; an agreement's paragraph: '제3항'), so no title
# column; the score right after the label and narrow columns, so the table fits a 1440 px page
# without scrolling to the score; '번호' is '16의2' for a 조, '3항' for a paragraph
CITATION_HEADERS = {"label": "조항", "score": "점수", "branch_label": "번호", "part_title": "부분",
                    "retrievers": "찾은 검색기", "tool": "도구", "contract_id": "계약서"}  # fmt: skip
CITATION_WIDTHS: dict[str, Literal["small", "medium", "large"]] = {
    "label": "large", "score": "small", "branch_label": "small", "part_title": "small",
    "tool": "small"}  # fmt: skip
MAX_COMPARISONS = 3
LIVE_KEY = "contract_live_turn"
NODE_TITLES = {"planning": "계획", "execution": "도구 병렬 실행", "synthesis": "답변 작성"}


def _markup(segments: Segments, color: str) -> str:
    out = []
    for text, marked in segments:
        # '(29~20)' … '(19~10)': two tildes strike the text between them through in Markdown
        safe = text.replace("[", "［").replace("]", "］").replace("*", "∗").replace("~", r"\~")
        out.append(f":{color}-background[{safe}]" if marked and safe.strip() else safe)
    return "".join(out)


@st.cache_resource(show_spinner="표준계약서와 샘플을 준비하는 중…")
def _samples_ready(_pool: Any) -> bool:
    warm_start()  # Kiwi and the thesaurus's words load while the user picks a contract and types
    ensure_samples(_pool)
    upload_worker.warm()  # the upload reader's process, started before the first upload
    return True


def _turns(contract_id: str) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = st.session_state.setdefault(STATE_TURNS, {}).setdefault(
        contract_id, []
    )
    return turns


def _conversations() -> dict[str, str]:
    conversations: dict[str, str] = st.session_state.setdefault(STATE_CONVERSATIONS, {})
    return conversations


def _on_pick(key: str) -> None:
    if not is_live_pick(PICKER_KEY, key):
        return  # an old box's value sent by a browser that had not finished redrawing
    if st.session_state.get(key) not in st.session_state.get(STATE_PICKER_OPTIONS, ()):
        return  # a label this run no longer offers comes back as text: keep the open one
    conversation_id = st.session_state.get(key) or None
    contract_id = st.session_state.get(STATE_CONTRACT)
    if conversation_id is None:
        if contract_id:
            _conversations().pop(contract_id, None)
            st.session_state.setdefault(STATE_TURNS, {})[contract_id] = []
        return
    try:
        loaded_contract, turns = load_conversation(conversation_id, runtime.pg_pool())
    except WorkbenchError as e:
        st.session_state[STATE_PENDING_ERROR] = f"대화를 불러오지 못했습니다: {e}"
        return
    contract_id = loaded_contract or contract_id
    if contract_id:
        st.session_state[STATE_CONTRACT] = contract_id
        _conversations()[contract_id] = conversation_id
        st.session_state.setdefault(STATE_TURNS, {})[contract_id] = [
            {"question": t.question, "answer": t.answer} for t in turns
        ]


def _on_new() -> None:
    contract_id = st.session_state.get(STATE_CONTRACT)
    if contract_id:
        _conversations().pop(contract_id, None)
        st.session_state.setdefault(STATE_TURNS, {})[contract_id] = []


def _render_conversation_picker(pool: Any) -> None:
    try:
        conversations = list_conversations(pool=pool)
    except WorkbenchError as e:
        st.caption(f"지난 대화를 불러오지 못했습니다: {e}")
        conversations = []
    current = _conversations().get(st.session_state.get(STATE_CONTRACT) or "")
    options = [NEW_CONVERSATION] + [c.conversation_id for c in conversations]
    titles = distinct_labels({c.conversation_id: f"{c.title} ({c.updated_at:%m-%d %H:%M})"
                              for c in conversations})  # fmt: skip
    st.session_state[STATE_PICKER_OPTIONS] = options
    current = current if current in options else NEW_CONVERSATION
    key = live_picker_key(PICKER_KEY, current)  # a fresh box per open conversation (pages/_chat.py)
    left, right = st.columns([4, 1], vertical_alignment="bottom")
    left.selectbox("지난 대화", options, index=options.index(current), key=key, on_change=_on_pick,
                   args=(key,), format_func=lambda cid: titles.get(cid, cid) if cid else "새 대화")  # fmt: skip
    right.button("새 대화", icon=":material/add_comment:", key="contract_new_conversation",
                 on_click=_on_new)  # fmt: skip
    error = st.session_state.pop(STATE_PENDING_ERROR, None)
    if error:
        st.warning(error, icon=":material/history:")


def _render_upload(pool: Any) -> None:
    uploaded = st.file_uploader("계약서 올리기 (PDF, DOCX, HWPX, HWP, TXT, MD · 최대 5 MB)",
                                type=["pdf", "docx", "hwpx", "hwp", "txt", "md"],
                                key="contract_upload")  # fmt: skip
    done: dict[str, str] = st.session_state.setdefault(STATE_UPLOADED, {})
    if uploaded is None or uploaded.file_id in done:
        return
    try:
        info = ingest_file(uploaded.name, uploaded.getvalue(), pool=pool)
    except WorkbenchError as e:
        st.error(str(e), icon=":material/error:")
        return
    done[uploaded.file_id] = info.contract_id
    st.session_state[STATE_CONTRACT] = info.contract_id
    saved = particles(f"'{info.title}'을(를) 저장했습니다")  # the title's last sound picks 을/를
    st.success(f"{saved} ({info.article_count}개 조항, 유형: {label_of(info.contract_type)}).",
               icon=":material/check_circle:")  # fmt: skip


def _pick_contract(pool: Any) -> str | None:
    contracts = store.list_contracts(pool)
    ids = [c.contract_id for c in contracts]
    titles = distinct_labels({c.contract_id: ("[표준] " if c.is_standard else "") + c.title
                              for c in contracts})  # fmt: skip
    current = st.session_state.get(STATE_CONTRACT)
    index = ids.index(current) if current in ids else (ids.index("sample-user-provide")
                                                       if "sample-user-provide" in ids else 0)  # fmt: skip
    chosen = st.selectbox("계약서", ids, index=index, format_func=lambda cid: titles.get(cid, cid))
    if chosen not in ids:  # a label no longer offered comes back as text
        chosen = ids[index] if ids else None
    st.session_state[STATE_CONTRACT] = chosen
    return chosen


def _on_type(contract_id: str, key: str) -> None:
    try:
        set_contract_type(contract_id, st.session_state[key], pool=runtime.pg_pool())
    except WorkbenchError as e:
        st.session_state[STATE_PENDING_ERROR] = str(e)


def _render_type(contract_id: str, pool: Any) -> None:
    """The contract's type (detected on upload, changeable) and the standard it is compared with."""
    view = contract_type(contract_id, pool=pool)
    labels = type_labels()
    options = list(labels)
    key = f"contract_type_{contract_id}"
    left, right = st.columns([1, 2])
    left.selectbox("계약서 유형", options, index=options.index(view.type_id) if view.type_id in
                   options else len(options) - 1, format_func=lambda t: labels.get(t, t), key=key,
                   disabled=view.is_standard, on_change=_on_type, args=(contract_id, key),
                   help="올릴 때 제목과 조 제목으로 판별합니다. 틀리면 바꿀 수 있습니다.")  # fmt: skip
    detected = f"자동 판별: {view.detected.label}"
    if view.detected.evidence:
        detected += " (" + ", ".join(view.detected.evidence[:6]) + ")"
    compared = (f"비교 표준계약서: {view.standard_title}" if view.standard_title else
                f"이 유형({view.label})에 맞는 표준계약서는 번들되어 있지 않아 표준과 비교하지 않습니다.")  # fmt: skip
    right.caption(f"{detected}  \n{compared}")


def _render_articles(contract_id: str, pool: Any) -> None:
    articles = store.load_articles(contract_id, pool)
    st.markdown(f"**조항 목록** ({sum(1 for a in articles if a.article.article_no != 0)}개)")
    for stored in articles:
        article = stored.article
        with st.expander(article.label):
            st.markdown(
                clause_lines([_markup([(line, False)], "gray") for line in article.content])
            )


def _render_related(answer: AgentAnswer) -> None:
    """A "no such clause" answer: said plainly, the nearest clauses only as related."""
    lacking = answer.payload.get("lacking")
    said = f"{lacking}에 관한 조항" if lacking else "질문에 답하는 조항"
    st.info(f"이 계약서에는 {said}이 없습니다.", icon=":material/search_off:")
    related: list[dict[str, Any]] = answer.payload.get("related", [])
    if related:
        st.markdown("**관련 조항(답이 아님)**")
        for c in related:
            with st.expander(c["label"]):
                st.markdown(
                    clause_lines([_markup([(line, False)], "gray") for line in c["content"]])
                )


def _render_clauses(answer: AgentAnswer, key: str) -> None:
    clauses: list[dict[str, Any]] = answer.payload.get("clauses", [])
    if answer.payload.get("no_clause"):
        _render_related(answer)
    if not clauses:
        return
    st.markdown("**찾은 조항** (일치한 단어 강조)")
    for c in clauses:
        with st.container(border=True):
            st.markdown(f"**{c['label']}**")
            st.markdown(clause_lines([
                _markup(highlight_segments(line, c.get("matched_terms", [])), "orange")
                for line in c["content"]]))  # fmt: skip
    rows = [{**c, "retrievers": ", ".join(c.get("retrievers") or []) or "-",
             "score": c.get("score")} for c in clauses + answer.payload.get("standard", [])]  # fmt: skip
    st.markdown("**인용 조항**")
    ui.show_table(
        rows,
        CITATION_HEADERS,
        key=f"{key}-clauses",
        formats={"score": "%.4f"},
        widths=CITATION_WIDTHS,
    )
    _render_comparisons(answer, clauses, key)


def _render_comparisons(answer: AgentAnswer, clauses: list[dict[str, Any]], key: str) -> None:
    pool = runtime.pg_pool()
    shown = 0
    for c in clauses:
        if shown >= MAX_COMPARISONS or c["article_no"] <= 0:
            continue
        try:
            key = article_key(c["article_no"], c.get("branch") or 0)  # 제3조의2 → 3002
            pair = clause_comparison(answer.payload["contract_id"], key, pool=pool)
        except WorkbenchError:
            pair = None
        if pair is None:
            continue
        shown += 1
        ours, theirs = diff_segments("\n".join(pair["clause"]["content"]),
                                     "\n".join(pair["standard"]["content"]))  # fmt: skip
        st.markdown(f"**표준계약서와 비교: {c['label']}** · 유사도 {pair['similarity']:.0%}")
        left, right = st.columns(2)
        with left.container(border=True):
            st.caption("이 계약서 (표준과 다른 부분 빨강)")
            st.markdown(_markup(ours, "red").replace("\n", "  \n"))
        with right.container(border=True):
            st.caption(f"{pair['standard_title']} {pair['standard']['label']} (다른 부분 초록)")
            st.markdown(_markup(theirs, "green").replace("\n", "  \n"))


def _ask(contract_id: str, question: str, pool: Any) -> None:
    """Start the turn on a worker thread and follow it (a rerun while it runs follows it again)."""
    checked = check_text(question)
    if checked.problem:  # shown as a turn; no conversation is started for it, nothing is saved
        _turns(contract_id).append({"question": checked.text,
                                    "answer": rejected_answer(checked.problem)})  # fmt: skip
        ui.keep_refused(BOX_KEY, question)
        st.rerun()
    question = checked.text
    try:
        conversation_id = _conversations().get(contract_id)
        if conversation_id is None:
            conversation_id = start_conversation(question, pool)
            _conversations()[contract_id] = conversation_id
    except WorkbenchError as e:
        ui.show_error(e)
        return
    _follow(LiveTurn.begin(LIVE_KEY, question, lambda stop: stream_ask(
        contract_id, question, pool=pool, conversation_id=conversation_id, cancel=stop),
        contract_id=contract_id))  # fmt: skip


def _render_step(event: object) -> str | None:
    if not isinstance(event, ContractStep):
        return None
    title = NODE_TITLES.get(event.node, event.node)
    tools = ", ".join(f"`{c['tool']}`" for c in event.tool_calls if c.get("tool"))
    st.markdown(f"- **{title}** 완료 ({event.duration_ms:,} ms)" + (f" · {tools}" if tools else ""))
    return f"{title} 완료"


def _follow(turn: LiveTurn) -> None:
    """The running question's steps (with 중지), then its answer as the newest turn."""
    with st.chat_message("user"):
        st.markdown(preview(turn.question))
    with st.chat_message("assistant"):
        answer = follow(turn, _render_step, title="계획 → 도구 병렬 실행 → 답변 작성 중…",
                        done=lambda a: f"완료 · 도구 {sum(1 for t in a.trace if t.kind == 'tool')}개")  # fmt: skip
    turn.end()
    if answer is None:
        return
    if "run_save_error" in answer.payload:
        st.warning(f"대화를 저장하지 못했습니다: {answer.payload['run_save_error']}",
                   icon=":material/save:")  # fmt: skip
    _turns(turn.extra["contract_id"]).append({"question": turn.question, "answer": answer})
    st.rerun()  # redraw the picker with the conversation this question started


def _render_chat(contract_id: str, pool: Any) -> None:
    turns = _turns(contract_id)
    if not turns and LiveTurn.current(LIVE_KEY) is None:
        info = store.get_contract(contract_id, pool)
        kind = info.contract_type if info else None
        st.markdown(f"**예시 질문** ({label_of(kind)} 계약서에 맞춘 질문)")
        columns = st.columns(2)
        for i, example in enumerate(example_questions(kind)):
            if columns[i % 2].button(
                example, key=f"contract_example_{i}", use_container_width=True
            ):
                st.session_state[STATE_PENDING] = example
    ui.restore_refused(BOX_KEY)
    live = LiveTurn.current(LIVE_KEY)
    with st.form("contract_ask", clear_on_submit=True):
        typed = st.text_input(
            "질문",
            placeholder="예: 손해배상 한도는? / What is the termination clause?",
            key=BOX_KEY,
        )
        submitted = st.form_submit_button("질문하기", icon=":material/send:",
                                          disabled=live is not None)  # fmt: skip
    if live is not None:
        _follow(live)
    question = st.session_state.pop(STATE_PENDING, None) or (typed if submitted else None)
    if question is not None and live is None:  # an empty submit is answered too (the reason)
        _ask(contract_id, question, pool)
    for i, turn in enumerate(reversed(turns)):
        key = f"contract-{turn['answer'].payload.get('run_id') or len(turns) - i}"
        with st.chat_message("user"):
            st.markdown(preview(turn["question"]))
        with st.chat_message("assistant"):
            _answer.render_answer(turn["answer"], question=turn["question"], key=key,
                                  charts=lambda a, k=key: _render_clauses(a, k))  # fmt: skip


def main() -> None:
    ui.ensure_shell()
    st.title("계약 조항")
    st.caption("계약서를 올리거나 샘플을 골라 조항을 찾고 표준계약서와 비교합니다. 조 번호·제목·내용(한국어/영어) "
               "질문 모두 됩니다. 계약서 본문은 데이터로만 다루며, 그 안의 지시문은 따르지 않습니다.")  # fmt: skip
    pool = runtime.pg_pool()
    if pool is None:
        ui.show_store_down("PostgreSQL", runtime.postgres_down_reason())
        return
    try:
        _samples_ready(pool)
        _render_upload(pool)
        _render_conversation_picker(pool)
        contract_id = _pick_contract(pool)
    except WorkbenchError as e:
        ui.show_error(e)
        return
    if contract_id is None:
        return
    try:
        _render_type(contract_id, pool)
    except WorkbenchError as e:
        ui.show_error(e)
    left, right = st.columns([1, 2])
    with left:
        _render_articles(contract_id, pool)
    with right:
        _render_chat(contract_id, pool)
    # its index loads while the user types (once per process), started only now: the warm-up's
    # Kiwi analyses and LSA fit held the GIL while the articles and the question box were drawn
    warm_contract(contract_id, pool)


main()
