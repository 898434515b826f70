"""Data screen (home): loaded datasets and their freshness, projection runs, graph schema, console.

Thin page: every query lives in `data_access`; this file only lays out widgets and results.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC
from typing import Any

import streamlit as st
from psycopg_pool import ConnectionPool

from data_access import access, catalog
from data_access.access import AccessDenied
from data_access.errors import WorkbenchError
from data_access.health import VectorIndexHealth, vector_index_health
from data_access.projection import latest_projection_runs
from data_access.projection.backlog import CatchUpResult, GraphLag, catch_up, graph_lag
from pages import _console as console
from pages import _operations as operations
from pages import _runtime as runtime
from pages import _ui as ui
from pages._charts import bar_chart, line_chart, network_chart
from pages._console import ConsoleResult, Language
from pages._result_shapes import detect_time_series, extract_graph, table_frame, time_series_frame

CACHE_TTL_S = 30
SCHEMA_TTL_S = 300  # about 1 s on the demo graph (a count per label and pattern); changes rarely
TAB_KEY = "data_tab"  # st.tabs state: the open tab
STATUS_HEADERS = {
    "freshness": "상태", "title_ko": "이름", "domain": "도메인", "rows": "행 수", "min_date": "시작일",
    "max_date": "최종일", "lag_days": "지연 / 허용", "source": "출처", "dataset_code": "데이터셋 코드",
    "table_name": "테이블",
}  # fmt: skip
# Column widths (px) so the whole catalogue fits the main area at 1440 px without scrolling
# sideways (980 px; auto-sized, the last columns were cut off). What a reader reads comes first
# and whole ('미국 기준금리(연방기금금리)' and '0일 (예정) / 120일' were cut); the identifiers the
# console is written with come last, the longest of them ('KR_REAL_ESTATE_TRANSACTIONS') cut.
STATUS_WIDTHS: dict[str, int] = {
    "freshness": 58, "title_ko": 196, "domain": 62, "rows": 66, "min_date": 80, "max_date": 80,
    "lag_days": 118, "source": 44, "dataset_code": 146, "table_name": 130,
}  # fmt: skip
# A projection step as the screen names it (the step's own name is the graph's: 'etf_tags')
STEP_TITLES_KO = {
    "tags": "태그", "managers": "운용사", "stocks": "종목", "etfs": "ETF", "etf_tags": "ETF–태그",
    "holds": "보유 관계", "holding_changes": "보유 변화", "issuers": "발행사", "daily_bars": "일봉",
    "universe": "유니버스", "earnings": "실적", "earnings_links": "실적–문서", "facts_claims": "사실·주장",
    "entities": "개체", "indicators": "지표", "indicator_observations": "지표 관측값",
    "re_monthly_summary": "부동산 월간 요약", "documents": "문서", "events": "이벤트",
    "evidence": "근거", "evidence_targets": "근거 대상", "document_themes": "문서 테마",
}  # fmt: skip
# A graph label as the chart names it; the tables keep the label itself (what Cypher is written with)
GRAPH_LABELS_KO = {
    "Claim": "주장", "Company": "운용사·회사", "Document": "문서", "ETF": "ETF", "EarningsEvent": "실적 발표",
    "EconomicIndicator": "경제 지표", "Entity": "개체", "EntityAlias": "개체 별칭", "EquityDailyBar": "주식 일봉",
    "EquityUniverseSnapshot": "유니버스 스냅샷", "Event": "이벤트", "Evidence": "근거", "Fact": "사실",
    "IndicatorObservation": "지표 관측값", "Market": "시장", "RealEstateMonthlySummary": "부동산 월간 요약",
    "Sector": "업종", "Stock": "종목", "Tag": "태그",
}  # fmt: skip
RUN_HEADERS = {
    "batch_id": "배치", "domain": "도메인", "step": "단계", "graph_backend": "그래프",
    "rows_fetched": "가져온 행", "upserted": "반영", "failed": "실패", "latest_as_of": "최신 기준일",
    "lag_minutes": "지연(분)", "duration_ms": "소요(ms)", "status": "상태", "error": "오류",
    "finished_at": "완료 시각",
}  # fmt: skip
RUN_STATUS_KO = {"ok": "정상", "partial": "부분 실패", "error": "오류"}
EXAMPLES: dict[Language, str] = {
    "SQL": (
        "SELECT series_code, obs_date, value\n"
        "FROM macro_observations\n"
        "WHERE series_code IN ('FEDFUNDS', 'KR_BASE_RATE')\n"
        "ORDER BY obs_date"
    ),
    "Cypher": "MATCH p = (e:ETF)-[:TAGGED]->(t:Tag)\nRETURN p\nLIMIT 40",
}
EMPTY_DATA_HINT = (
    "아직 적재된 데이터가 없습니다. `make run`을 실행하거나 "
    "`python -m data_access.seed --scale demo --if-missing`으로 데모 데이터를 생성하세요."
)


# ---------------------------------------------------------------- cached loads


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _dataset_statuses(_pool: ConnectionPool) -> list[dict[str, Any]]:
    return [s.to_dict() for s in catalog.dataset_statuses(pool=_pool)]


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _projection_runs(_pool: ConnectionPool, limit: int) -> list[dict[str, Any]]:
    steps = latest_projection_runs(_pool, limit)
    return [{**s.model_dump(), "duration_ms": s.duration_ms} for s in steps]


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def _vector_index(_pool: ConnectionPool, _store: Any) -> VectorIndexHealth:
    return vector_index_health(_pool, _store)


@st.cache_data(ttl=SCHEMA_TTL_S, show_spinner="그래프 스키마를 읽는 중…")
def _graph_schema(_store: Any) -> dict[str, Any]:
    return dict(_store.schema().model_dump())


# ---------------------------------------------------------------- 데이터셋


def _lag_text(status: dict[str, Any]) -> str | None:
    """Days, or hours for a dataset the catalogue judges in hours (news)."""
    if status.get("lag_hours") is not None:
        return f"{max(status['lag_hours'], 0)}시간"
    lag_days = status["lag_days"]
    # Scheduled rows (expected earnings dates) run past the as-of date: not a lag.
    if lag_days is None:
        return None
    return f"{lag_days}일" if lag_days >= 0 else "0일 (예정)"


def _render_datasets(pool: ConnectionPool | None) -> None:
    if pool is None:
        ui.show_store_down("PostgreSQL", runtime.postgres_down_reason())
        return
    try:
        statuses = _dataset_statuses(pool)
    except Exception as e:  # a page never shows a traceback; the reason is kept
        ui.show_error(e)
        return
    # Importer datasets can be slices of core ones (one ticker of US_TOP50): count core only.
    core_codes = {d.dataset_code for d in catalog.CORE_DATASETS}
    core = [s for s in statuses if s["dataset_code"] in core_codes]
    total_rows = sum(s["rows"] for s in core)
    counts = {k: sum(1 for s in statuses if s["freshness"] == k) for k in ui.FRESHNESS_LABELS}
    cols = st.columns(5)
    cols[0].metric("기준일", statuses[0]["as_of"] if statuses else "-")
    cols[1].metric("데이터셋", f"{len(statuses)}개")
    cols[2].metric("총 행 수", f"{total_rows:,}")
    cols[3].metric("정상", f"{counts['healthy']}개")
    cols[4].metric("지연 / 없음", f"{counts['stale']}개 / {counts['missing']}개")
    worst: dict[str, str] = {
        d: catalog.worst_freshness([s["freshness"] for s in statuses if s["domain"] == d])
        for d in catalog.DOMAINS
    }
    ui.freshness_badges(worst, catalog.DOMAIN_TITLES_KO)
    if total_rows == 0:
        st.info(EMPTY_DATA_HINT, icon=":material/inbox:")
    if any(s["source"] == "demo" and s["rows"] for s in statuses):
        st.caption(
            "출처가 '데모'인 데이터셋은 결정적 생성기로 만든 예시 데이터입니다 (실제 시세 아님)."
        )
    table = [
        {**s, "freshness": ui.freshness_label(s["freshness"]), "source": ui.source_label(s["source"]),
         "domain": catalog.DOMAIN_TITLES_KO.get(s["domain"], s["domain"]),
         "lag_days": " / ".join(t for t in (_lag_text(s), s.get("window")) if t)}
        for s in statuses
    ]  # fmt: skip
    ui.show_table(
        table, STATUS_HEADERS, key="dataset_table", formats={"rows": "localized"},
        widths=STATUS_WIDTHS,
        height=38 + 35 * min(len(table), 30),  # the whole catalogue without inner scrolling
    )  # fmt: skip
    if total_rows:
        by_domain = {d: sum(s["rows"] for s in core if s["domain"] == d) for d in catalog.DOMAINS}
        ui.show_chart(
            bar_chart(
                [catalog.DOMAIN_TITLES_KO[d] for d in by_domain],
                list(by_domain.values()),
                title="도메인별 적재 행 수",
                x_label="도메인",
                y_label="행 수 (로그 눈금)",
                log_y=True,
            ),
            key="rows_by_domain",
        )


# ---------------------------------------------------------------- 프로젝션 실행


def _render_projection_runs(pool: ConnectionPool | None) -> None:
    if pool is None:
        ui.show_store_down("PostgreSQL", runtime.postgres_down_reason())
        return
    try:
        runs = _projection_runs(pool, 100)
    except Exception as e:
        ui.show_error(e)
        return
    if not runs:
        st.info(
            "아직 그래프 프로젝션이 실행되지 않았습니다. 데모 데이터를 생성하면 함께 실행됩니다."
        )
        return
    latest_batch = runs[0]["batch_id"]
    batch = [r for r in runs if r["batch_id"] == latest_batch]
    failed = sum(int(r["failed"]) for r in batch)
    cols = st.columns(4)
    # when the batch ended, not its id ('20261129T142055Z-f45…' was cut at 420 px; the table
    # below names the batch of every step)
    ended = max((r["finished_at"] for r in batch if r.get("finished_at")), default=None)
    cols[0].metric("최근 배치 완료", f"{ended.astimezone(UTC):%m-%d %H:%M} UTC" if ended else "-")
    cols[1].metric("단계", f"{len(batch)}개")
    cols[2].metric("반영 행 수", f"{sum(int(r['upserted']) for r in batch):,}")
    cols[3].metric("실패 행 수", f"{failed:,}")
    steps = list(reversed(batch))
    ui.show_chart(
        bar_chart(
            [
                f"{catalog.DOMAIN_TITLES_KO.get(r['domain'], r['domain'])}·"
                f"{STEP_TITLES_KO.get(r['step'], r['step'])}"
                for r in steps
            ],  # fmt: skip
            [int(r["upserted"]) for r in steps],
            title="최근 배치의 단계별 반영 행 수",
            x_label="도메인·단계",
            y_label="반영 행 수",
        ),
        key="projection_steps",
    )
    table = [
        {**r, "status": RUN_STATUS_KO.get(r["status"], r["status"]),
         "domain": catalog.DOMAIN_TITLES_KO.get(r["domain"], r["domain"]),
         "step": STEP_TITLES_KO.get(r["step"], r["step"])}
        for r in runs
    ]  # fmt: skip
    ui.show_table(
        table, RUN_HEADERS, key="projection_table",
        formats={"rows_fetched": "localized", "upserted": "localized", "failed": "localized",
                 "lag_minutes": "%.1f", "duration_ms": "localized"},
    )  # fmt: skip


# ---------------------------------------------------------------- graph behind PostgreSQL


CATCH_UP_KEY = "graph_catch_up"


def _render_graph_lag(pool: ConnectionPool | None) -> None:
    """A warning while writes wait for the graph (projection_backlog), with the catch-up."""
    if pool is None:
        return
    try:
        lag = graph_lag(pool)
    except WorkbenchError:  # PostgreSQL went away: the tabs and the sidebar say so
        return
    result = st.session_state.pop(CATCH_UP_KEY, None)
    if isinstance(result, CatchUpResult):
        _show_catch_up(result)
    if not lag.behind:
        return
    st.warning(_lag_message(lag), icon=":material/sync_problem:")
    store = runtime.live_graph_store()
    if store is None:
        ui.show_store_down("그래프", runtime.graph_down_reason())
    elif not access.current_viewer().is_admin:
        st.caption("관리자가 그래프 따라잡기를 실행할 수 있습니다.")
    elif st.button("그래프 따라잡기", icon=":material/sync:", key="catch_up"):
        with st.spinner("대기 중인 변경을 그래프에 반영하는 중…"):
            st.session_state[CATCH_UP_KEY] = catch_up(pool, store)
        st.cache_data.clear()
        st.rerun()


def _lag_message(lag: GraphLag) -> str:
    scope = lag.scope
    text = (
        f"그래프가 PostgreSQL보다 뒤처져 있습니다: 반영 대기 {len(lag.pending)}건 "
        f"({scope.describe() if scope else '-'})"
    )
    if lag.oldest_at is not None:
        text += f", 가장 오래된 변경 {lag.oldest_at:%Y-%m-%d %H:%M} UTC"
    if lag.last_error:
        attempts = max(p.attempts for p in lag.pending)
        text += f". 반영 시도 {attempts}회 실패 — 마지막 오류: {lag.last_error[:300]}"
    return text + ". 그래프를 읽는 답변(ETF 보유종목, 관계 질문)은 반영 전 데이터 기준입니다."


def _show_catch_up(result: CatchUpResult) -> None:
    if result.status == "error":
        st.error(
            f"그래프 반영에 실패했습니다: {result.error}. 가져온 데이터는 PostgreSQL에 그대로 "
            "있으며, 다시 시도하거나 `python -m data_access.projection --retry-lagging`을 "
            "실행하세요.",
            icon=":material/error:",
        )
    elif result.report is not None:
        r = result.report
        st.success(
            f"그래프를 따라잡았습니다: 변경 {len(result.backlog_ids)}건, {len(r.steps)}단계, "
            f"{r.upserted:,}행 반영 ({r.duration_ms:,} ms, 배치 {r.batch_id})",
            icon=":material/check_circle:",
        )


# ---------------------------------------------------------------- document vector index


def _render_vector_index(pool: ConnectionPool | None, store: Any) -> None:
    """The macro GraphRAG's document vector index: ready or what happens next (the same
    indicator as the API's /admin/indicators). Drawn in the graph tab, which needs the graph
    store anyway: on the first view of "/" the connection (FalkorDB's client asks the server
    whether it is a sentinel or a cluster first) had held the page back."""
    if pool is None:
        return
    health = _vector_index(pool, store)
    text = f"문서 벡터 인덱스: **{health.label_ko}** — {health.detail}"
    if health.status in ("stale", "degraded", "unavailable"):
        st.warning(text, icon=":material/warning:")
    else:
        icon = ":material/check_circle:" if health.ready else ":material/info:"
        st.caption(f"{icon} {text}")


# ---------------------------------------------------------------- 그래프 스키마


def _render_graph(pool: ConnectionPool | None) -> None:
    store = runtime.live_graph_store()
    _render_vector_index(pool, store)
    _render_graph_schema(store)


def _render_graph_schema(store: Any) -> None:
    if store is None:
        ui.show_store_down("그래프 저장소", runtime.graph_down_reason())
        return
    try:
        schema = _graph_schema(store)
    except Exception as e:
        ui.show_error(e)
        return
    labels, rels = schema["labels"], schema["relationships"]
    if not labels:
        st.info("그래프가 비어 있습니다. 프로젝션이 실행되면 노드와 관계가 여기에 표시됩니다.")
        return
    cols = st.columns(4)
    cols[0].metric("라벨", f"{len(labels)}개")
    cols[1].metric("노드", f"{sum(x['count'] for x in labels):,}")
    cols[2].metric("관계 패턴", f"{len(rels)}개")
    cols[3].metric("관계", f"{sum(x['count'] for x in rels):,}")
    ui.show_chart(
        bar_chart(
            [GRAPH_LABELS_KO.get(x["label"], x["label"]) for x in labels], [x["count"] for x in labels],
            title="라벨별 노드 수", x_label="라벨", y_label="노드 수 (로그 눈금)", log_y=True,
        ),
        key="label_counts",
    )  # fmt: skip
    left, right = st.columns(2)
    with left:
        st.markdown("**노드 라벨**")
        rows = [{**x, "properties": ", ".join(x["properties"])} for x in labels]
        ui.show_table(
            rows, {"label": "라벨", "count": "노드 수", "properties": "속성"}, key="labels",
            formats={"count": "localized"}, height=38 + 35 * min(len(rows), 20),
        )  # fmt: skip
    with right:
        st.markdown("**관계 유형 (방향 포함)**")
        rows = [
            {"pattern": f"({x['from_label']})-[:{x['type']}]->({x['to_label']})",
             "count": x["count"], "properties": ", ".join(x["properties"])}
            for x in rels
        ]  # fmt: skip
        ui.show_table(
            rows, {"pattern": "패턴", "count": "관계 수", "properties": "속성"}, key="rels",
            formats={"count": "localized"}, height=38 + 35 * min(len(rows), 20),
        )  # fmt: skip


# ---------------------------------------------------------------- 쿼리 콘솔


def _run_console(language: Language, query: str, max_rows: int) -> ConsoleResult:
    try:  # checked here, before the query runs, not only by leaving the tab out
        access.require_admin(action="쿼리 콘솔")
    except AccessDenied as e:
        return console.result(language, [], 0.0, str(e))
    if language == "SQL":
        return console.run_sql(query, max_rows=max_rows, pool=runtime.pg_pool())
    return console.run_cypher(query, max_rows=max_rows, store=runtime.live_graph_store())


def _render_console_result(result: ConsoleResult) -> None:
    rows = result["rows"]
    if result["error"]:
        st.error(result["error"], icon=":material/block:")
        return
    st.caption(f"{len(rows):,}행 · {result['elapsed_ms']:,.0f} ms · 읽기 전용으로 실행됨")
    if not rows:
        st.info("조건에 맞는 결과가 없습니다.")
        return
    shape = detect_time_series(rows)
    frame = time_series_frame(rows, shape) if shape is not None else None
    if shape is not None and frame is not None and frame[shape.x].nunique() >= 2:  # valid dates
        ui.show_chart(
            line_chart(
                frame, x=shape.x, y_columns=shape.y_columns, group=shape.group,
                title="쿼리 결과 시계열", x_label=shape.x, y_label=", ".join(shape.y_columns),
            ),
            key="console_line",
        )  # fmt: skip
    picture = extract_graph(rows)
    if picture is not None:
        title = f"쿼리 결과 그래프 (노드 {len(picture.nodes)}개, 관계 {len(picture.edges)}개)"
        ui.show_chart(network_chart(picture, title=title), key="console_network")
    ui.show_table(table_frame(rows), key="console_table")


def _render_console() -> None:
    st.caption(
        "읽기 전용 검사를 통과한 SELECT / MATCH 쿼리만 실행됩니다. LIMIT이 없으면 자동으로 붙습니다."
    )
    left, right = st.columns([1, 3])
    language: Language = left.radio(
        "쿼리 언어", ["SQL", "Cypher"], horizontal=True, key="console_lang"
    )
    max_rows = left.number_input("최대 행 수", min_value=1, max_value=1000, value=200, step=50)
    query = right.text_area(
        "쿼리", value=EXAMPLES[language], height=150, key=f"console_query_{language}"
    )
    if st.button("실행", type="primary", icon=":material/play_arrow:", key="console_run"):
        st.session_state["console_result"] = _run_console(language, query, int(max_rows))
    result = st.session_state.get("console_result")
    if result is not None:
        _render_console_result(result)


# ---------------------------------------------------------------- admin only


ADMIN_TABS_NOTE = "쿼리 콘솔과 운영(평가 실행) 탭은 관리자만 볼 수 있습니다."


def _render_operations(pool: ConnectionPool | None) -> None:
    try:
        access.require_admin(action="운영 탭")
    except AccessDenied as e:
        st.error(str(e), icon=":material/lock:")
        return
    operations.render(pool)


# ---------------------------------------------------------------- page


def main() -> None:
    ui.ensure_shell()
    st.title("데이터")
    st.caption("적재된 데이터셋과 기준일, 최신성, 그래프 프로젝션, 읽기 전용 쿼리 콘솔, 운영 지표")
    if st.button("새로 고침", icon=":material/refresh:", key="refresh"):
        st.cache_data.clear()
    pool = runtime.pg_pool()
    _render_graph_lag(pool)
    # Only the open tab runs (a tab switch reruns): the first view of the home screen no longer
    # computes and draws the graph schema, the console and the operations charts.
    renderers: dict[str, Callable[[], None]] = {
        "데이터셋": lambda: _render_datasets(pool),
        "프로젝션 실행": lambda: _render_projection_runs(pool),
        "그래프 스키마": lambda: _render_graph(pool),
    }
    if access.current_viewer().is_admin:
        renderers |= {"쿼리 콘솔": _render_console, "운영": lambda: _render_operations(pool)}
    else:
        st.caption(ADMIN_TABS_NOTE)
    tabs = st.tabs(list(renderers), key=TAB_KEY, on_change="rerun")
    for tab, render in zip(tabs, renderers.values(), strict=True):
        if tab.open:
            with tab:
                render()


main()
