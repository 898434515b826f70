"""Streamlit rendering helpers shared by every screen: tables, charts, errors, badges, sidebar.

Pages stay thin by calling these; all text shown to the analyst is Korean.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from agents.colors import arrow, price_colors
from data_access import access
from data_access.config import AgentRole, Settings
from data_access.errors import QueryFailed, QueryRejected, StoreUnavailable, WorkbenchError
from data_access.guard_reasons import korean_reason
from data_access.health import GraphHealth, PostgresHealth
from pages import _access as access_ui
from pages import _runtime as runtime
from pages._runtime import HEALTH_TTL_S

logger = logging.getLogger(__name__)

# Geometric symbols, not emoji: CJK fonts have them, so they render without a color-emoji font.
FRESHNESS_LABELS = {"healthy": "● 정상", "stale": "▲ 지연", "missing": "○ 없음"}
BadgeColor = Literal["red", "orange", "yellow", "blue", "green", "violet", "gray", "primary"]
FRESHNESS_COLORS: dict[str, BadgeColor] = {"healthy": "green", "stale": "orange", "missing": "gray"}
SOURCE_LABELS = {"demo": "데모"}
SCALE_LABELS = {"demo": "데모", "market": "시장 전체"}
ROLE_TITLES: dict[AgentRole, str] = {
    "etf": "ETF 챗봇",
    "macro": "거시 Q&A",
    "opening": "오프닝 스크립트",
    "contract": "계약 조항",
    "stock": "종목 리포트",
    "router": "라우터",
}
OFFLINE_LABEL = "오프라인 플래너 (API 키 없음)"
PLOTLY_CONFIG = {"displaylogo": False, "responsive": True}
STORE_NAMES = {"postgres": "PostgreSQL", "graph": "그래프 저장소"}  # StoreUnavailable.store


# ---------------------------------------------------------------- shell


def ensure_shell() -> None:
    """Call first in every page: make sure the run went through app.py (router and sidebar).

    Streamlit 1.67 starts each server process in its old multipage mode because a `pages/`
    folder exists, and only leaves it once a run has called `st.navigation`. If the first
    request of a process is a deep link (`/etf`), it runs that page file alone: no sidebar,
    no wide layout, every `pages/*.py` listed as a page. Switching the mode off and rerunning
    sends this and every later run through app.py.

    AppTest switches that mode back on before every run; a rerun there would drop the widget
    event under test, so under AppTest the page simply runs (without the sidebar after the
    first run).
    """
    from streamlit import config
    from streamlit.runtime.pages_manager import PagesManager

    if getattr(PagesManager, "uses_pages_directory", False) and not config.get_option(
        "global.appTest"
    ):
        PagesManager.uses_pages_directory = False
        st.rerun()


# ---------------------------------------------------------------- tables and charts


def show_table(
    rows: Sequence[Mapping[str, Any]] | pd.DataFrame,
    headers: Mapping[str, str] | None = None,
    *,
    key: str | None = None,
    height: int | None = None,
    formats: Mapping[str, str] | None = None,
    signed: Sequence[str] = (),
    widths: Mapping[str, Literal["small", "medium", "large"] | int] | None = None,
) -> None:
    """A dataframe with Korean column headers.

    `headers` picks, orders and renames columns; `formats` maps a source column to a number
    format ("localized" for thousands separators, or printf style like "%.1f"); the changes in
    the `signed` source columns are written in the rise/fall colours (red up, blue down);
    `widths` narrows or widens source columns so a wide table fits the page.
    """
    frame = rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(list(rows))
    if headers:
        frame = frame[[c for c in headers if c in frame.columns]].rename(columns=dict(headers))
    data: Any = frame
    if signed:
        data = signed_style(frame, [(headers or {}).get(c, c) for c in signed])
    config: dict[str, Any] = {
        (headers or {}).get(col, col): st.column_config.Column(width=width)
        for col, width in (widths or {}).items()
    }
    config |= {  # a number format keeps the column's width
        (headers or {}).get(col, col): st.column_config.NumberColumn(
            format=fmt, width=(widths or {}).get(col)
        )
        for col, fmt in (formats or {}).items()
    }
    st.dataframe(
        data,
        hide_index=True,
        key=key,
        height=height or "auto",
        placeholder="–",
        column_config=config or None,  # type: ignore[arg-type]
    )


SIGNED_TEXT = re.compile(r"^\s*([+\-−])\s*\d")


def signed_number(value: Any) -> float | None:
    """The sign of a change as a number: a float as it is, '+3.2%' / '-6.74%' / '−0.25%p' by
    their sign (tables show formatted text); anything else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return None if pd.isna(value) else float(value)
    if isinstance(value, str):
        match = SIGNED_TEXT.match(value)
        if match:
            return 1.0 if match.group(1) == "+" else -1.0
    return None


def signed_style(frame: pd.DataFrame, columns: Sequence[str]) -> Any:
    """`frame` styled with the numbers of `columns` (returns, changes) in the rise/fall colours
    of the charts (agents/colors.py): red up, blue down in the Korean convention."""
    colors = price_colors()

    def color(value: Any) -> str:
        change = signed_number(value)
        return f"color: {colors.for_change(change)}" if change else ""

    present = [c for c in columns if c in frame.columns]
    return frame.style.map(color, subset=present) if present else frame.style


def show_chart(fig: go.Figure, *, key: str | None = None) -> None:
    st.plotly_chart(fig, key=key, config=PLOTLY_CONFIG)


def price_metric(
    target: Any, label: str, value: str, delta: str | None, change: float | None, **kwargs: Any
) -> None:
    """A tile in the gain/loss colour convention (agents/colors.py): the delta and its sparkline
    take the rise or fall colour of `change`, and the arrow follows its sign whatever the delta
    text starts with ('종합 점수 −2.00' points down)."""
    target.metric(label, value, delta, delta_color=price_colors().tile_color(change),
                  delta_arrow=arrow(change), **kwargs)  # fmt: skip


SPARK_WIDTH, SPARK_HEIGHT = 100, 28
TILE_CSS = (
    "<style>.st-key-{key} [data-testid='stMetricValue'] {{font-size: 1.45rem}}"
    " .st-key-{key} [data-testid='stMetricValue'] > div {{overflow: visible}}"
    " .st-key-{key} [data-testid='stMetricLabel'] * {{white-space: normal !important; word-break: keep-all;"
    " overflow: visible !important; text-overflow: clip !important}}</style>"
)


def sparkline_svg(values: Sequence[float | None], color: str) -> str:
    """A small inline line chart (SVG, no script): Streamlit's own metric sparkline logs two
    "Infinite extent" warnings per tile in the browser console."""
    points = [float(v) for v in values if v is not None]
    if len(points) < 2:
        return ""
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    step = SPARK_WIDTH / (len(points) - 1)
    path = " ".join(
        f"{i * step:.1f},{SPARK_HEIGHT - 2 - (v - low) / span * (SPARK_HEIGHT - 4):.1f}"
        for i, v in enumerate(points)
    )
    return (
        f'<svg viewBox="0 0 {SPARK_WIDTH} {SPARK_HEIGHT}" preserveAspectRatio="none" '
        f'width="100%" height="{SPARK_HEIGHT}" role="img" aria-label="최근 추이">'
        f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="1.5" '
        'vector-effect="non-scaling-stroke"/></svg>'
    )


def price_tiles(key: str) -> Any:
    """A container for price tiles whose values (e.g. '1,445.00원') fit a fifth of the page
    and whose labels wrap instead of ending in '…'."""
    st.html(TILE_CSS.format(key=key))
    return st.container(key=key)


def price_tile(
    target: Any,
    label: str,
    value: str,
    delta: str | None,
    change: float | None,
    *,
    spark: Sequence[float | None] = (),
    help: str | None = None,
) -> None:
    """A bordered tile: the metric in the gain/loss convention and its recent closes below."""
    with target.container(border=True):
        price_metric(st, label, value, delta, change, help=help)
        line = sparkline_svg(spark, price_colors().for_change(change))
        if line:  # st.html drops inline SVG; markdown keeps it
            st.markdown(line, unsafe_allow_html=True)


def keep_refused(key: str, text: str) -> None:
    """Put refused input back into the widget `key` on the next run (a chat input and a form
    that clears on submit would otherwise wipe it): the user fixes the text, not retypes it."""
    if text.strip():
        st.session_state[f"{key}:refused"] = text


def asked_now(box_key: str, pending_key: str) -> bool:
    """A question was sent in this run (typed in the chat box `box_key`, whose value is in the
    session before the box is drawn, or an example kept under `pending_key`): the examples it
    replaces are not drawn only to be emptied (a dozen elements the browser drew and removed
    before the first answer of a conversation)."""
    return bool(st.session_state.get(box_key)) or st.session_state.get(pending_key) is not None


def restore_refused(key: str) -> None:
    """Call before drawing the widget `key`: refilled with the text `keep_refused` kept."""
    refused = st.session_state.pop(f"{key}:refused", None)
    if refused is not None:
        st.session_state[key] = refused


def freshness_label(status: str) -> str:
    return FRESHNESS_LABELS.get(status, status)


def source_label(source: str) -> str:
    return SOURCE_LABELS.get(source, source)


def freshness_badges(statuses: Mapping[str, str], titles: Mapping[str, str]) -> None:
    """One coloured badge per domain, e.g. '거시경제 · 정상'."""
    columns = st.columns(max(len(statuses), 1))
    for column, (domain, status) in zip(columns, statuses.items(), strict=False):
        with column:
            text = FRESHNESS_LABELS.get(status, status).split(" ", 1)[-1]
            color = FRESHNESS_COLORS.get(status, "gray")
            st.badge(f"{titles.get(domain, domain)} · {text}", color=color)


# ---------------------------------------------------------------- errors


def error_message(error: BaseException) -> str:
    """A Korean sentence for an expected failure (the reason from the store or guard kept)."""
    if isinstance(error, QueryRejected):
        reason = korean_reason(error.reason) or f"`{error.reason}`"  # the guards word it in English
        return f"쿼리가 거부되었습니다 (읽기 전용 검사): {reason}"
    if isinstance(error, StoreUnavailable):
        return f"{STORE_NAMES.get(error.store or '', '저장소')}에 연결할 수 없습니다: {error}"
    if isinstance(error, QueryFailed):
        return f"쿼리 실행 중 오류가 발생했습니다: {error}"
    if isinstance(error, WorkbenchError):
        return f"작업을 완료하지 못했습니다: {error}"
    return f"예상하지 못한 오류가 발생했습니다: {type(error).__name__}: {error}"


STORE_BACK_HINT = (
    "저장소가 다시 켜지면 앱을 다시 시작하지 않고 그대로 다시 시도하면 됩니다. 내장 서버는 "
    "사이드바의 '내장 서버 다시 켜기' 버튼, `make run` 또는 "
    "`python -m data_access.services start`로 다시 켤 수 있습니다."
)


def show_error(error: BaseException) -> None:
    if isinstance(error, StoreUnavailable):
        show_store_down(STORE_NAMES.get(error.store or "", "저장소"), str(error),
                        failed="작업을 마치지 못했습니다")  # fmt: skip
        return
    if not isinstance(error, WorkbenchError):
        logger.exception("unexpected error on a page", exc_info=error)
    st.error(error_message(error), icon=":material/error:")


def show_run_error(status: Any, error: BaseException) -> None:
    """A run that failed inside its `st.status` box: the box turns red and stays open on the
    reason (an update without `expanded` would fold it shut, hiding the message)."""
    status.update(label="실패", state="error", expanded=True)
    show_error(error)


def show_store_down(
    what: str, detail: str | None, *, failed: str = "이 영역을 표시하지 못했습니다"
) -> None:
    """The one way a screen says a store it needs is down: which store, why, and what to do.

    The health probe is forgotten too, so the sidebar shows the outage on the next run instead
    of a cached "정상".
    """
    runtime.forget_store_health()
    st.warning(
        f"{what}에 연결할 수 없어 {failed}. 다른 영역은 계속 사용할 수 있습니다."
        + (f"\n\n원인: {detail}" if detail else "")
        + f"\n\n{STORE_BACK_HINT}",
        icon=":material/cloud_off:",
    )


# ---------------------------------------------------------------- sidebar


def _render_mode(settings: Settings) -> None:
    st.markdown("**답변 모드**")
    models = {role: settings.model_for(role) for role in ROLE_TITLES}
    if not any(models.values()):
        st.badge(OFFLINE_LABEL, color="gray", icon=":material/offline_bolt:")
        st.caption("LLM이 설정되지 않아 규칙 기반 플래너가 같은 도구와 데이터로 답합니다.")
        return
    st.badge("LLM (litellm)", color="violet", icon=":material/smart_toy:")
    lines = [f"- {ROLE_TITLES[role]}: `{model or OFFLINE_LABEL}`" for role, model in models.items()]
    st.markdown("\n".join(lines))


def _render_store(title: str, health: PostgresHealth | GraphHealth, detail: str) -> None:
    status: tuple[str, BadgeColor] = ("정상", "green") if health.ok else ("연결 안 됨", "red")
    st.markdown(f"{title} ", help=health.uri or None)
    st.badge(status[0], color=status[1])
    st.caption(detail if health.ok else f"{detail} · {health.error or '원인 불명'}")


def _render_stores() -> None:
    st.markdown("**저장소 상태**")
    health = runtime.cached_store_health()
    pg, graph = health.postgres, health.graph
    where_pg = "내장" if pg.embedded else "외부"
    _render_store("PostgreSQL", pg, f"{pg.version or '버전 미확인'} · {where_pg}")
    if pg.ok:
        for problem in _reader_problems():
            st.warning(problem, icon=":material/shield:")
        if _UNCHECKED.is_set():  # a miss: the next view checks again
            _reader_problems.clear()
    backend = "FalkorDB" if graph.backend == "falkordb" else "Neo4j"
    where_graph = "내장" if graph.embedded else "외부"
    version = graph.version or "버전 미확인"
    _render_store(
        f"그래프 ({backend})", graph, f"{version} · {where_graph} · 그래프 `{graph.graph_name}`"
    )
    down = (not pg.ok and pg.embedded) or (not graph.ok and graph.embedded)
    if down and access.current_viewer().is_admin:  # starting servers is the operator's call
        _render_start_button()


def _reader_check() -> Callable[[], tuple[str, ...]]:
    """What agent and console SQL could do beyond reading the data tables (issue 16)."""
    from data_access.reader import reader_access

    pool = runtime.pg_pool()
    if pool is None:
        return tuple
    return functools.partial(reader_findings, lambda: reader_access(pool).problems)


_UNCHECKED = threading.Event()  # the last check could not reach the reader


def reader_findings(audit: Callable[[], tuple[str, ...]]) -> tuple[str, ...]:
    """The audit's problems; a check that could not reach the reader is said when it fails twice
    running (the sidebar probes again on the next view after a miss). The first view of a new
    process now and then warned of a server down beside 'PostgreSQL 정상': the reader pool's
    first connection missed its 1.5 s wait under the first view's load, and that timeout was
    reported as an outage. data_access.postgres now waits longer while the server answers; one
    miss is still not said, as a blip is not an outage."""
    try:
        problems = audit()
    except WorkbenchError as e:
        if not _UNCHECKED.is_set():
            _UNCHECKED.set()
            logger.warning("reader check failed, checking again on the next view: %s", e)
            return ()
        return (f"에이전트 SQL의 읽기 전용 역할을 확인하지 못했습니다: {e}",)
    _UNCHECKED.clear()
    return problems


_reader_problems = runtime.Refreshed(_reader_check, HEALTH_TTL_S)


def _render_start_button() -> None:
    """An embedded server that went down stays down until someone starts it (see
    pages/_runtime.py); this is that someone, without a terminal."""
    if st.button("내장 서버 다시 켜기", key="start-embedded-stores", icon=":material/restart_alt:"):
        with st.spinner("내장 서버를 켜는 중…"):
            error = runtime.start_embedded_stores()
        if error:
            st.error(error)
        else:
            st.rerun()


def _render_data_context() -> None:
    st.markdown("**기준일**")
    context = runtime.cached_data_context()
    if context.as_of is None:
        st.caption(f"기준일을 확인할 수 없습니다: {context.error}")
        return
    st.markdown(f"{context.as_of:%Y-%m-%d}")
    if context.seed_run is not None:
        scale = context.seed_run.scale
        st.badge("데모 데이터", color="orange", icon=":material/science:")
        st.caption(
            f"결정적 생성기로 만든 예시 데이터입니다 (규모 {SCALE_LABELS.get(scale, scale)}, "
            f"{context.seed_run.created_at:%Y-%m-%d %H:%M} 생성). 실제 시세가 아닙니다."
        )


PRELOAD_KEY = "chart-code-preload"
# Streamlit draws each kind of element from its own lazily imported chunk and shows a grey
# skeleton until the chunk is in: an answer's chart, its download buttons, its citation tables
# and its trace's code each waited for theirs after the answer arrived (in a fresh tab: 0.1-0.4 s
# each, plotly's 4.7 MB the most). Imported with the page, while the analyst types.
PRELOAD_CHUNKS = ("PlotlyChart", "DownloadButton", "DataFrame", "StreamlitSyntaxHighlighter",
                  "Metric", "Table", "Json")  # fmt: skip
# Evaluated in the page itself, once per tab: import the chunks as Streamlit's own lazy imports
# would, from the folder of the page's main script.
PRELOAD_SCRIPT = """<script>
(() => {
  const top = window.parent;
  if (top.__atlasChartCode) return;
  top.__atlasChartCode = true;
  const doc = top.document;
  const main = doc.querySelector('script[src*="/static/js/index."]');
  if (!main) return;
  const urls = CHUNKS_JSON.map((chunk) => new URL(chunk, main.src).href);
  const s = doc.createElement("script");
  s.type = "module";
  s.textContent = urls.map((url) => `import(${JSON.stringify(url)}).catch(() => {});`).join("\\n");
  doc.head.appendChild(s);
})();
</script>"""


@functools.cache
def _element_chunks() -> tuple[str, ...]:
    """The file names of Streamlit's chunks for PRELOAD_CHUNKS (hashed per release)."""
    folder = Path(st.__file__).parent / "static" / "static" / "js"
    found = []
    for name in PRELOAD_CHUNKS:
        files = sorted(folder.glob(f"{name}.*.js"))
        if files:
            found.append(files[0].name)
    return tuple(found)


def preload_chart_code() -> None:
    """The browser loads the code of the elements an answer draws (plotly's 4.7 MB script, the
    download buttons, tables, code) with the page, while the analyst types, instead of after
    the answer: that made an answer's charts appear seconds after its text, and its buttons
    and tables stand grey for a moment. Nothing visible is drawn."""
    chunks = _element_chunks()
    if not chunks:
        return
    with st.container(key=PRELOAD_KEY):
        st.html(
            PRELOAD_SCRIPT.replace("CHUNKS_JSON", json.dumps(list(chunks))),
            unsafe_allow_javascript=True,
        )
        # An element kind's first drawing in a tab waits for its lazy component even with its
        # code loaded (a grey skeleton under every first answer): draw the kinds each answer
        # has once, hidden. Not charts or grids: tests and readers look for the first of those.
        st.download_button("내려받기 준비", b"", key=f"{PRELOAD_KEY}-download", on_click="ignore")
        st.metric("준비", "-")
    hidden = f'[data-testid="stLayoutWrapper"]:has(> .st-key-{PRELOAD_KEY})'
    st.html(f"<style>{hidden}, .st-key-{PRELOAD_KEY} {{display: none}}</style>")


def render_sidebar() -> None:
    """Who is signed in, mode, store health and as-of date; shown on every page."""
    with st.sidebar:
        preload_chart_code()
        st.markdown("### Atlas Workbench")
        access_ui.render_account()
        st.divider()
        _render_mode(runtime.settings())
        st.divider()
        _render_stores()
        st.divider()
        _render_data_context()
