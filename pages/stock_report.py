"""종목 리포트 screen (seed 001): research → analysis → recommendation → review for one stock.

Thin by design: `agents.stock.service.stream_report` runs the LangGraph workflow (and saves the
run and the report artifacts) on a worker thread (`pages._live`: progress, 중지), `agents.stock.charts` builds the figures, `pages._answer`
renders the shared parts of the answer contract (mode, trace, citations).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from agents.inputs import clean_text, preview
from agents.stock import sections as sec
from agents.stock import templates as t
from agents.stock.charts import charts_for, window_figure
from agents.stock.data import stock_choices
from agents.stock.question import answer_stock_question, is_question
from agents.stock.report import DISCLAIMER, HEADINGS
from agents.stock.report_window import question_window
from agents.stock.service import (
    MAX_SYMBOL_LENGTH,
    SCREEN,
    ProgressEvent,
    question_for,
    report_json,
    stream_report,
)
from agents.understanding.history import history_after
from data_access import runs
from data_access.contracts import AgentAnswer, answer_to_markdown
from data_access.errors import WorkbenchError
from pages import _answer
from pages import _runtime as runtime
from pages import _ui as ui
from pages._chat import distinct_labels
from pages._live import QUIET_S, LiveTurn, done_label, follow, inside
from pages._static_table import html_table, section, show_sections

EXAMPLES = ("삼성전자", "AAPL", "005930", "SK하이닉스", "엔비디아")
NODE_LABELS = {"research": "리서치", "analyze": "분석", "recommend": "추천", "review": "검토",
               "fail": "실패 보고"}  # fmt: skip
# the workflow's state after a node (agents/stock/state.py Status), as the node view says it
STATE_LABELS = {"researching": "리서치 중", "analyzing": "분석 중", "recommending": "추천 중",
                "reviewing": "검토 중", "done": "완료", "error": "오류"}  # fmt: skip
STATE_ANSWER = "stock_answer"
STATE_HISTORY = "stock_followup_history"  # the last figures turn, for a follow-up
LIVE_KEY = "stock_live_turn"
STATE_PENDING = "stock_pending_symbol"
SYMBOL_KEY = "stock_symbol_input"
LANG_LABELS = {"ko": "한국어", "en": "English"}
TOOL_LOG_HEADERS = {
    "timestamp": "시각", "level": "수준", "tool": "도구", "attempt": "시도", "status": "상태",
    "latency_ms": "지연(ms)", "result_summary": "결과 요약", "error": "오류", "retry_hint": "재시도 안내",
}  # fmt: skip
NEWS_HEADERS = {"published_date": "날짜", "title": "제목", "source": "출처"}  # the title links


def _choices() -> list[str]:
    """The picker's stocks; none while PostgreSQL is down (typing a symbol still works)."""
    pool = runtime.pg_pool()
    if pool is None:
        return []  # not cached: the list is back as soon as the store is
    try:
        return _cached_choices(pool)
    except WorkbenchError:
        return []


@st.cache_data(ttl=300, show_spinner=False)
def _cached_choices(_pool: Any) -> list[str]:
    return [f"{c['name']} · {c['code']}" for c in stock_choices(_pool)]  # the ticker, not the id


def _symbol_of(choice: str) -> str:
    """'삼성전자 · 005930' → '005930'; free text stays as typed."""
    return choice.rsplit(" · ", 1)[-1].strip() if " · " in choice else choice.strip()


# ---------------------------------------------------------------- running


def _step_lines(event: ProgressEvent) -> list[tuple[str, str]]:
    """A progress event's lines as (kind, Markdown): kind is 'step', 'detail' or 'error'."""
    d = event.data
    label = NODE_LABELS.get(str(d.get("node")), d.get("node"))
    if event.event == "node_start":
        return [("step", f"**▶ {d['step']}. {label}** 시작")]
    if event.event == "node_end":
        state = STATE_LABELS.get(str(d["status"]), d["status"])
        done = f"✔ {label} 완료 → 상태: {state} · {d['duration_ms']:,} ms"
        return [("step", done)] + [("error", str(e)) for e in d.get("errors", [])]
    if event.event == "tool_attempt":
        line = f"도구 `{d['tool']}` 시도 {d['attempt']} · {d['status']} · {d['latency_ms']:,.0f} ms"
        if d["status"] == "success":
            return [("detail", f"{line} · {d.get('result_summary', '')}")]
        return [("detail", f"{line} · 오류: {d.get('error')} — {d.get('retry_hint')}")]
    if event.event == "llm_start":
        return [("detail", f"{d['section']} 작성 중 ({d.get('model') or '오프라인 템플릿'})")]
    return []


def _progress(event: object) -> str | None:
    """One progress event drawn; the status line for it (a node start) or None."""
    if not isinstance(event, ProgressEvent):
        return None
    for kind, text in _step_lines(event):
        if kind == "step":
            st.markdown(text)
        elif kind == "error":
            st.warning(text, icon=":material/error:")
        else:
            st.caption(text)
    if event.event == "node_start":
        label = NODE_LABELS.get(str(event.data.get("node")), event.data.get("node"))
        return f"{label} 노드 실행 중… (반복 {event.data.get('iteration', 0)})"
    return None


STEP_STYLE = {"step": "{}", "detail": "  · {}", "error": "⚠ {}"}


def _run(symbol: str, language: str) -> None:
    pool = runtime.pg_pool()
    if pool is None:
        ui.show_store_down("PostgreSQL", runtime.postgres_down_reason(),
                           failed="리포트를 만들지 못했습니다")  # fmt: skip
        return
    text, history = clean_text(symbol), st.session_state.get(STATE_HISTORY, [])
    figures = answer_stock_question(text, pool=pool, history=history) if is_question(
        text, follows=bool(history)) else None  # fmt: skip
    # the last figures turn is the next one's context ('삼성전자 PER' → 'SK하이닉스는?')
    st.session_state[STATE_HISTORY] = history_after([], text, figures) if figures else []
    if figures is not None:  # '삼성전자 PER이랑 PBR': just the figures asked for
        st.session_state[STATE_ANSWER] = figures
        return
    shown_symbol = preview(clean_text(symbol), MAX_SYMBOL_LENGTH) or "종목"
    _follow(LiveTurn.begin(LIVE_KEY, shown_symbol, lambda stop: stream_report(
        symbol, language=language, pool=pool, cancel=stop)), redraw=False)  # type: ignore[arg-type]  # fmt: skip


def _follow(turn: LiveTurn, *, redraw: bool = True) -> None:
    """The workflow's progress as it comes (with 중지); its answer becomes the report shown.

    The node view stays (folded) above the answer; `redraw` (a run that drew the form disabled,
    e.g. after a click on 중지) draws the screen again with the form usable."""
    answer = follow(turn, _progress, title=f"{turn.question} 리포트 작성 중…", done=_done,
                    quiet_s=QUIET_S)  # fmt: skip
    turn.end()
    if answer is not None and not turn.drawn:
        _render_steps(turn, answer)
    if answer is not None:
        st.session_state[STATE_ANSWER] = answer
        if redraw:
            st.rerun()


def _done(answer: AgentAnswer) -> str:
    return "완료" if answer.status != "error" else "리포트를 완성하지 못했습니다"


def _render_steps(turn: LiveTurn, answer: AgentAnswer) -> None:
    """The node view of a report answered within QUIET_S, drawn once and folded, as a longer
    run leaves it: drawn step by step it was ~150 updates the browser rendered one after the
    other before the report (whose own run took 50-100 ms)."""
    failed = answer.status in ("error", "cancelled")
    label = done_label(answer) if answer.status == "cancelled" else _done(answer)
    box = st.status(label, state="error" if failed else "complete", expanded=False)
    lines = [STEP_STYLE[kind].format(text) for event in turn.shown
             if isinstance(event, ProgressEvent) for kind, text in _step_lines(event)]  # fmt: skip
    with inside(box):  # one element; a line each was 16 elements the browser drew one by one
        st.markdown("  \n".join(lines))


# ---------------------------------------------------------------- rendering


def _render_suggestions(answer: AgentAnswer) -> None:
    suggestions = answer.payload.get("suggestions") or []
    if not suggestions:
        return
    st.markdown("**혹시 이 종목을 찾으셨나요?** — 눌러서 리포트를 만드세요.")
    columns = st.columns(min(len(suggestions), 5))
    for i, s in enumerate(suggestions[:5]):
        ticker = str(s["id"]).partition(":")[2] or s["id"]
        if columns[i].button(f"{s['name']} ({ticker})", key=f"stock_suggest_{i}"):
            st.session_state[STATE_PENDING] = s["id"]
            st.rerun()


def _render_charts(answer: AgentAnswer) -> None:
    figures = charts_for(answer.payload)
    if not figures:
        return
    ui.show_chart(figures[0], key="stock-price")
    if len(figures) < 3:
        ui.show_chart(figures[1], key="stock-drawdown-rsi")
        return
    left, right = st.columns(2)
    with left:
        ui.show_chart(figures[1], key="stock-drawdown-rsi")
    with right:
        ui.show_chart(figures[2], key="stock-pe")


def _render_question_chart(answer: AgentAnswer) -> None:
    """A question's answer charted from the prices it read, over the window it asked about
    (a valuation or earnings answer read no prices: no chart)."""
    try:
        rows, label = question_window(answer, runtime.pg_pool())
    except WorkbenchError:  # the answer stands without its chart
        return
    if len(rows) < 2:
        return
    frame = (answer.payload.get("understanding") or {}).get("frame") or {}
    stock = next((e for e in frame.get("entities", []) if e["kind"] == "stock"), None)
    if stock is None:
        return
    currency = "KRW" if str(stock["key"]).isdigit() else "USD"
    stat, field = frame.get("statistic"), frame.get("stat_field") or "close"
    figure = window_figure(rows, stock["name"], label, currency=currency,
                           volume=field == "volume",
                           extreme=(stat, field) if stat in ("max", "min") else None)  # fmt: skip
    ui.show_chart(figure, key="stock-question")


def news_rows(answer: AgentAnswer) -> list[dict[str, Any]]:
    """The report's documents, one row each: its news (date, linked title, publisher), then any
    cited document the news list lacks. The citations are those same articles: drawn as well in
    a grid (with internal document ids) they were the report's one dataframe and a repeat."""
    rows = list(answer.payload.get("news") or [])
    listed = {r.get("doc_id") for r in rows}
    rows += [c.model_dump() for c in answer.citations if c.doc_id not in listed]
    return rows


def _render_evidence(answer: AgentAnswer) -> None:
    payload = answer.payload
    rows = news_rows(answer)
    if rows:
        table = html_table(rows, NEWS_HEADERS, links={"title": "url"})
        show_sections([section(f"문서 근거 — 리포트에 사용한 뉴스 ({len(rows)}건)", table)])
    if answer.structured_citations:  # the figures' sources: the shared closed box
        _answer.render_citations(answer.model_copy(update={"citations": []}), key="stock")
    log = payload.get("tool_log") or []
    if log:  # its grid drawn once opened, as the trace: closed, it still cost the browser a grid
        box = st.expander(f"도구 호출 로그 ({len(log)})", icon=":material/receipt_long:",
                          key="stock-tool-log-box", on_change="rerun")  # fmt: skip
        if box.open:
            with box:
                ui.show_table(log, TOOL_LOG_HEADERS, key="stock-tool-log")
    _answer.render_trace(answer.trace, key="stock")


def _render_downloads(answer: AgentAnswer) -> None:
    name = answer.payload.get("security_id") or "report"
    question = question_for(
        str(answer.payload.get("symbol") or name), answer.payload.get("language", "ko")
    )
    kind = "리포트" if answer.payload.get("figure_rows") else "답변"  # a question's figures: 답변
    left, right = st.columns(2)
    left.download_button(f"{kind} Markdown 내려받기", answer_to_markdown(answer, question),
                         file_name=f"{name.replace(':', '_')}_report.md", mime="text/markdown",
                         key="stock-md", icon=":material/description:")  # fmt: skip
    right.download_button(f"{kind} JSON 내려받기", report_json(answer, question),
                          file_name=f"{name.replace(':', '_')}_report.json",
                          mime="application/json", key="stock-json", icon=":material/download:")  # fmt: skip


# The report's sections the screen shows otherwise: as tables (quote and figures in the tiles
# and the figures table, fundamentals, events), as the documents table (news) and the box of
# structured sources (sources, whose table names are no words for an analyst). The downloads
# keep the whole report.
SHOWN_ELSEWHERE = ("quote", "figures", "fundamentals", "events", "news", "sources")


def _without_table_sections(report: str, lang: str = "ko") -> str:
    """The report minus the sections the screen shows beside it (its disclaimer kept)."""
    for key in SHOWN_ELSEWHERE:
        start = report.find(f"## {HEADINGS[lang][key]}\n")
        if start >= 0:
            end = report.find("\n## ", start + 3)
            report = report[:start] + (report[end + 1 :] if end >= 0 else "")
    disclaimer = f"> {DISCLAIMER[lang]}"
    return report if disclaimer in report else f"{report.rstrip()}\n\n{disclaimer}\n"


def _render_evidence_tables(answer: AgentAnswer) -> None:
    """Fundamentals and the last quarters' earnings side by side, then the news events: small
    fixed tables drawn as HTML (`pages._static_table`), not as grids, in one element."""
    payload = answer.payload
    lang = payload.get("language", "ko")
    fundamentals = html_table(payload.get("fundamental_rows") or [], sec.FUNDAMENTAL_HEADERS[lang])
    quarters = payload.get("earnings_rows") or []
    earnings = html_table(quarters, sec.EARNINGS_HEADERS[lang], signed=("surprise", "yoy"))
    events = payload.get("event_rows") or []
    show_sections(
        [section("실적·기본 지표", fundamentals, detail="(섹터·자기 과거 대비)"),
         section("최근 분기 실적", earnings if quarters else "", detail="(예상 대비 서프라이즈)",
                 note="" if quarters else "데이터에 이 종목의 실적 발표 기록이 없습니다.")],
        [section(f"주요 이벤트 (최근 30일, {len(events)}건)",
                 html_table(events, sec.EVENT_HEADERS[lang],
                            signed=("move_day", "move_next", "drift")) if events else "",
                 detail="— 가격 차트의 ▲▼ 표시와 같은 이벤트",
                 note="" if events else "최근 30일 동안 이벤트 뉴스와 5%를 넘는 급변이 없었습니다.")],
    )  # fmt: skip
    check = payload.get("review_check")
    if check and not check["passed"]:
        st.warning(f"검토 단계가 분석의 설명 누락({', '.join(check['missing'])})을 찾아 보완했습니다.",
                   icon=":material/fact_check:")  # fmt: skip


def _render_metrics(answer: AgentAnswer) -> None:
    figures, stock = answer.payload.get("figures") or {}, answer.payload.get("stock") or {}
    rec = answer.payload.get("recommendation") or {}
    cur = figures.get("currency", "KRW")
    columns = st.columns(5)
    score, change = rec.get("score", 0), stock.get("change_percent")
    ui.price_metric(
        columns[0], "의견", rec.get("stance_label", "-"), f"종합 점수 {score:+.2f}", score
    )
    ui.price_metric(columns[1], "현재가", t.price(figures.get("price"), cur), t.pct(change), change)
    columns[2].metric("1년 수익률", t.pct(figures.get("returns", {}).get("1y")))
    columns[3].metric("RSI(14)", t.number(figures.get("rsi14"), 1))
    premium = figures.get("pe_premium")
    ui.price_metric(columns[4], f"PER (섹터 중앙 {t.number(figures.get('sector_median_pe'))})",
                    t.number(figures.get("pe")), t.pct(premium), premium)  # fmt: skip


def _render_answer(answer: AgentAnswer) -> None:
    if answer.status == "error":
        st.error(answer.error or "리포트를 완성하지 못했습니다.", icon=":material/error:")
        _render_suggestions(answer)
    elif answer.status == "cancelled":  # its text says so; what ran is in the trace below
        st.info(answer.answer, icon=":material/stop_circle:")
    elif answer.status != "ok":
        label = _answer.STATUS_LABELS.get(answer.status, answer.status)
        st.warning(f"{label}: {answer.error or _answer.partial_reason(answer)}",
                   icon=":material/warning:")  # fmt: skip
    for note in answer.payload.get("notes") or []:  # how the input was read comes first
        st.info(note, icon=":material/spellcheck:")
    st.caption(_answer.mode_caption(answer))
    if answer.payload.get("save_error"):
        st.caption(f"실행 기록을 저장하지 못했습니다: {answer.payload['save_error']}")
    figure_rows = answer.payload.get("figure_rows") or []
    charts = None
    if answer.status == "cancelled":
        pass
    elif figure_rows:
        _render_metrics(answer)
        charts = st.container()  # filled last, see below
        _render_evidence_tables(answer)
        report, side = st.columns([3, 2])
        with report:
            lang = answer.payload.get("language", "ko")
            st.markdown(_answer.smaller_headings(_without_table_sections(answer.answer, lang)))
        with side:
            table = html_table(figure_rows, {"figure": "지표", "value": "값"}, signed=("value",))
            show_sections(
                [section("핵심 지표", table, note=answer.payload.get("return_basis", ""))]
            )
    elif answer.status != "error":
        st.markdown(_answer.smaller_headings(_answer.literal_tildes(answer.answer)))
        _render_question_chart(answer)
    _render_evidence(answer)
    _render_downloads(answer)
    if charts is not None:
        # The charts are sent after the report's text and tables (drawn where the slot is): sent
        # before them, plotly's drawing of the four charts held the whole update, and the text
        # appeared with the charts, up to 1.7 s after the click.
        with charts:
            _render_charts(answer)


# ---------------------------------------------------------------- widgets


def _render_history() -> None:
    try:
        past = runs.list_run_labels(SCREEN, limit=15, pool=runtime.pg_pool())
    except WorkbenchError as e:
        st.caption(f"지난 리포트를 불러오지 못했습니다: {e}")
        return
    if not past:
        return
    labels = distinct_labels({
        r.run_id: f"{r.question} · {r.created_at:%m-%d %H:%M} · "
        f"{_answer.STATUS_LABELS.get(r.status, r.status)}" for r in past
    })  # fmt: skip
    chosen = st.selectbox("지난 리포트 열기", [""] + list(labels), key="stock_history",
                          format_func=lambda rid: labels.get(rid, "선택하세요"))  # fmt: skip
    if chosen and st.button("열기", key="stock_open_history", icon=":material/history:"):
        stored = _stored(chosen)
        if stored is None:  # a label no longer listed comes back as text
            st.warning(
                "선택한 리포트가 목록에 없습니다. 다시 골라 주세요.", icon=":material/history:"
            )
        else:
            st.session_state[STATE_ANSWER] = stored.answer


def _stored(run_id: str) -> runs.StoredRun | None:
    try:
        return runs.get_run(run_id, pool=runtime.pg_pool())
    except WorkbenchError:
        return None


def _render_form(*, running: bool = False) -> tuple[str | None, str]:
    choices = _choices()
    with st.form("stock_form", border=False):
        left, mid, right = st.columns([4, 1, 1], vertical_alignment="bottom")
        choice = left.selectbox(
            "종목 (이름, 코드, 티커) 또는 한 종목에 대한 질문", choices, index=None,
            placeholder="예: 삼성전자, 005930, AAPL · 질문: 삼성전자 PER이랑 PBR", accept_new_options=True,
            key=SYMBOL_KEY,
        )  # fmt: skip
        language = mid.radio(
            "언어", list(LANG_LABELS), format_func=LANG_LABELS.get, horizontal=True
        )
        submitted = right.form_submit_button(
            "리포트 생성", type="primary", icon=":material/play_arrow:", disabled=running
        )
    st.caption("예시 (눌러서 리포트를 만드세요)")  # the buttons below name them
    columns = st.columns(len(EXAMPLES))
    for i, example in enumerate(EXAMPLES):
        if columns[i].button(example, key=f"stock_example_{i}", use_container_width=True,
                             disabled=running):  # fmt: skip
            st.session_state[STATE_PENDING] = example
    if submitted:
        return _symbol_of(choice or ""), language or "ko"
    return None, language or "ko"


def main() -> None:
    ui.ensure_shell()
    st.title("종목 리포트")
    st.caption(
        "한 종목에 대해 리서치 → 분석 → 추천 → 검토 단계를 LangGraph 상태 머신으로 실행합니다. "
        "도구 호출은 실패 시 0.5·2ⁿ초 간격으로 재시도하고, 모든 시도를 구조화 로그로 남깁니다."
    )
    _screen()


@st.fragment
def _screen() -> None:
    """The form, the run and the report: a fragment, so that a report reruns only this and not
    the sidebar and the page's head, which the browser drew again for every report."""
    live = LiveTurn.current(LIVE_KEY)
    symbol, language = _render_form(running=live is not None)
    pending: str | None = st.session_state.pop(STATE_PENDING, None)
    target = pending or symbol
    if live is not None:
        _follow(live)
    elif target is not None:
        _run(target, language)
    _render_history()
    answer: AgentAnswer | None = st.session_state.get(STATE_ANSWER)
    if answer is not None:
        st.divider()
        _render_answer(answer)


main()
