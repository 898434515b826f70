"""오프닝 스크립트 screen (seed 003): the day's themes, a nutshell and a two-host script.

Thin by design: `agents.opening.service` runs the LangGraph flow and saves every run, this page
picks the date, shows progress through the nodes (the run on a worker thread, `pages._live`:
elapsed time, 중지) and renders the answer's payload; the shared
trace, citations and downloads come from `pages._answer`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import date
from typing import Any

import streamlit as st

from agents.opening.service import (
    NodeEvent,
    news_days,
    past_runs,
    result_of,
    script_markdown,
    stream_opening,
)
from data_access.contracts import AgentAnswer, Citation
from data_access.errors import WorkbenchError
from pages import _answer
from pages import _charts as charts
from pages import _runtime as runtime
from pages import _ui as ui
from pages._chat import distinct_labels
from pages._live import LiveTurn, follow

STATE_ANSWER = "opening_answer"
LIVE_KEY = "opening_live_turn"
WEEKDAYS = "월화수목금토일"
AVATARS = {"진행자": ":material/mic:", "해설자": ":material/insights:"}
CONTEXT_GROUPS = (("indices", "지수"), ("rates", "금리"), ("fx", "환율"),
                  ("commodities", "원자재"), ("crypto", "가상자산"), ("volatility", "변동성"))  # fmt: skip
TOP_WORDS_SHOWN = 20
HANGUL = re.compile(r"[가-힣]")
ALL_DAYS = 100 * 366  # a window reaching before any data
SCRIPT_STATUSES = ("ok", "partial")  # partial: a valid script the offline planner finished


@st.cache_data(ttl=60, show_spinner=False)
def _news_days(_pool: Any) -> list[tuple[date, int]]:
    """Every trading day with news, newest first: the picker offers the whole data range (the
    window is bounded by the price table; 509 days of demo data list in ~40 ms)."""
    return news_days(_pool, days=ALL_DAYS)


def _day_label(item: tuple[date, int]) -> str:
    day, count = item
    return f"{day.isoformat()} ({WEEKDAYS[day.weekday()]}) · 기사 {count}건"


def _start(day: date) -> None:
    """Start the run on a worker thread and follow it (a rerun while it runs follows it again)."""
    pool = runtime.pg_pool()
    _follow(LiveTurn.begin(LIVE_KEY, day.isoformat(),
                           lambda stop: stream_opening(day, pool=pool, cancel=stop)),
            redraw=False)  # fmt: skip


def _render_step(event: object) -> str | None:
    if not isinstance(event, NodeEvent):
        return None
    tools = f" · 도구 {len(event.tool_calls)}개" if event.tool_calls else ""
    st.markdown(f":material/check: **{event.label}** — {event.summary}{tools} "
                f"({event.duration_ms:,} ms)")  # fmt: skip
    return f"{event.label} 완료"


def _follow(turn: LiveTurn, *, redraw: bool = True) -> None:
    """The run's nodes as they finish (with 중지); its answer becomes the one shown.

    The node view stays (folded) above the answer; `redraw` (a run that drew the form disabled,
    e.g. after a click on 중지) draws the screen again with the form usable."""
    answer = follow(turn, _render_step, title="오프닝 스크립트를 만드는 중…",
                    done=lambda a: "완료" if a.status in SCRIPT_STATUSES else "대본을 만들지 못했습니다")  # fmt: skip
    turn.end()
    if answer is not None:
        st.session_state[STATE_ANSWER] = answer
        if redraw:
            st.rerun()


def _render_themes(result: dict[str, Any], urls: dict[str, str | None]) -> None:
    st.subheader("핵심 테마")
    columns = st.columns(len(result["theme"]) or 1)
    for column, theme in zip(columns, result["theme"], strict=False):
        with column.container(border=True):
            st.markdown(f"#### {theme['headline']}")
            st.write(theme["description"])
            st.caption("관련 뉴스")
            for news in theme["related_news"]:
                url = urls.get(news["pk"])
                st.markdown(f"- [{news['title']}]({url})" if url else f"- {news['title']}")


MOVER_HEADERS = {"rank": "순위", "kind": "유형", "headline": "사건", "impact_trillion_krw":
                 "시총 변동(조원)", "surprise_pct": "EPS 서프라이즈(%)", "sources": "매체 수",
                 "articles": "기사 수"}  # fmt: skip


def _render_movers(rows: list[dict[str, Any]], key: str) -> None:
    """get_market_movers' ranking: why the themes come in this order."""
    if not rows:
        return
    with st.expander("시장 영향력 순위 (테마 선정 근거)", expanded=False):
        st.caption("기사가 다룬 종목의 등락률 × 원화 시가총액 순. 실적 발표·업종 동반 움직임·매체 수를 "
                   "더하고, 기사 수는 동점일 때만 씁니다.")  # fmt: skip
        ui.show_table(rows, MOVER_HEADERS, key=f"{key}-movers",
                      formats={"impact_trillion_krw": "%.2f", "surprise_pct": "%+.2f"})  # fmt: skip


def _cited(sources: list[dict[str, Any]], citations: dict[str, Citation]) -> str:
    """A script line's sources as the line cites them: a Korean title as it is; an English one
    is not read into the Korean script, so its outlet is named ('Demo Wire 영문 기사', numbered
    when one line cites two of the same outlet), linked to the article (the theme's 관련 뉴스
    and the citations list keep every title)."""
    texts = []
    for source in sources:
        cited = citations.get(source["pk"])
        outlet = (cited.source if cited else None) or "해외 매체"
        texts.append(
            str(source["title"]) if HANGUL.search(source["title"]) else f"{outlet} 영문 기사"
        )
    counts, seen = Counter(texts), Counter[str]()
    parts = []
    for source, text in zip(sources, texts, strict=True):
        if counts[text] > 1 and text.endswith("영문 기사"):
            seen[text] += 1
            text = f"{text} {seen[text]}"
        cited = citations.get(source["pk"])
        parts.append(f"[{text}]({cited.url})" if cited and cited.url else text)
    return " · ".join(parts)


def _render_script(result: dict[str, Any], citations: dict[str, Citation]) -> None:
    st.subheader("대본")
    for turn in result["scripts"]:
        with st.chat_message(turn["speaker"], avatar=AVATARS.get(turn["speaker"])):
            st.markdown(f"**{turn['speaker']}** {turn['text']}")
            if turn["sources"]:
                st.caption("출처: " + _cited(turn["sources"], citations))


def _value(close: float, unit: str) -> str:
    return f"{close:,.0f}{unit}" if unit == "원" and close >= 10_000 else f"{close:,.2f}{unit}"


def _delta(item: dict[str, Any]) -> str | None:
    """Rates move in basis points; everything else in percent of the previous value."""
    if item["change"] is None or item["change_pct"] is None:
        return None
    if item["group"] == "rates":
        return f"{item['change'] * 100:+.0f}bp"
    return f"{item['change_pct']:+.2f}%"


# One figure per quantity: where two series measure the same thing, the tile shows the first
# that has a value and the other is named in the notes (FRED's noon New York rate differs from
# the Seoul close, and two tiles that disagree read as an error).
SAME_QUANTITY = (("KR_USDKRW", "DEXKOUS"),)


def _one_per_quantity(
    items: list[tuple[str, dict[str, Any]]],
) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """The tiles without the duplicates of SAME_QUANTITY, and a note for each one left out."""
    by_ticker = {i["ticker"]: i for _, i in items}
    dropped: dict[str, str] = {}
    for tickers in SAME_QUANTITY:
        present = [
            by_ticker[t] for t in tickers if t in by_ticker and by_ticker[t]["close"] is not None
        ]
        for other in present[1:]:
            dropped[other["ticker"]] = (
                f"{present[0]['label']} 기준으로 표시 ({other['label']} "
                f"{_value(other['close'], other['unit'])}, {other['date']}는 기준 시각이 달라 생략)"
            )
    return [(g, i) for g, i in items if i["ticker"] not in dropped], list(dropped.values())


def _render_market(market: dict[str, Any]) -> None:
    st.subheader("시장 컨텍스트")
    items = [(title, i) for key, title in CONTEXT_GROUPS for i in market.get(key, [])]
    items, same = _one_per_quantity(items)
    columns = ui.price_tiles("market-tiles").columns(5)
    for n, (group, item) in enumerate(items):
        proxy = f"{item['proxy_for']} 대용 · " if item["proxy_for"] else ""
        value = "-" if item["close"] is None else _value(item["close"], item["unit"])
        ui.price_tile(columns[n % 5], item["label"], value, _delta(item), item["change"],
                      spark=item["spark"] or (), help=f"{proxy}{group} · 기준 {item['date']}")  # fmt: skip
    notes = [market.get("notes", ""), *same] + [f"없음: {m}" for m in market.get("missing", [])]
    st.caption("  \n".join(n for n in notes if n))


def _render_keywords(words: list[dict[str, Any]], key: str) -> None:
    """The Korean title words: the English ones are lower-cased words of English titles
    ('plunges', 'netflix'), not keywords for a Korean screen (the script names the companies)."""
    top = [w for w in words if HANGUL.search(w["word"])][:TOP_WORDS_SHOWN]
    if not top:
        return
    fig = charts.bar_chart([w["word"] for w in top], [w["count"] for w in top],
                           title=f"국문 제목 키워드 빈도 (상위 {len(top)}개, 불용어 제외)",
                           x_label="기사 제목 수", y_label="", across=True)  # fmt: skip
    ui.show_chart(fig, key=f"{key}-keywords")


def _render_downloads(answer: AgentAnswer, key: str) -> None:
    result, day = result_of(answer), answer.as_of_date or ""
    left, right = st.columns(2)
    left.download_button("오프닝 결과 JSON 내려받기",
                         json.dumps(result, ensure_ascii=False, indent=2),
                         file_name=f"opening_result_{day}.json", mime="application/json",
                         key=f"{key}-result", icon=":material/download:")  # fmt: skip
    right.download_button("대본 Markdown 내려받기", script_markdown(result, day),
                          file_name=f"opening_script_{day}.md", mime="text/markdown",
                          key=f"{key}-script", icon=":material/description:")  # fmt: skip


def render(answer: AgentAnswer) -> None:
    key = f"opening-{answer.payload.get('context', {}).get('run_id', 'current')}"
    context = answer.payload.get("context", {})
    st.caption(_answer.mode_caption(answer))
    if context.get("date_note"):  # a non-trading day was asked: the session it was read as
        st.info(context["date_note"], icon=":material/event_busy:")
    if answer.status == "cancelled":  # stopped with 중지: what ran is in the trace below
        st.info(answer.answer, icon=":material/stop_circle:")
    elif answer.status not in SCRIPT_STATUSES:
        st.error(answer.error or answer.answer, icon=":material/error:")
    else:
        if answer.status == "partial":  # the offline planner finished after a model failure
            st.warning(answer.error or "", icon=":material/warning:")
        result = result_of(answer)
        urls = {c.doc_id: c.url for c in answer.citations}
        st.info(f"**오늘 장 한마디** — {result['nutshell']}", icon=":material/campaign:")
        _render_themes(result, urls)
        _render_movers(context.get("market_movers", []), key)
        _render_script(result, {c.doc_id: c for c in answer.citations})
        repairs = context.get("validation", {}).get("repairs", [])
        if repairs:
            st.caption("자동 보정: " + " / ".join(repairs))
    if context.get("market"):
        _render_market(context["market"])
        _render_keywords(context["market"].get("title_top_words", []), key)
    _answer.render_trace(answer.trace, key=key)
    _answer.render_citations(answer, key=key)
    if answer.status in SCRIPT_STATUSES:
        _render_downloads(answer, key)
    _answer.render_downloads(answer, question=f"{answer.as_of_date} 오프닝 스크립트", key=key)


def _render_past() -> None:
    try:
        stored = past_runs(runtime.pg_pool(), limit=30)
    except WorkbenchError as e:
        st.caption(f"지난 스크립트를 불러오지 못했습니다: {e}")
        return
    if not stored:
        st.caption("아직 저장된 스크립트가 없습니다.")
        return
    labels = distinct_labels({r.run_id: f"{r.answer.as_of_date} · {r.created_at:%m-%d %H:%M} · "
                                        f"{_answer.STATUS_LABELS.get(r.answer.status, r.answer.status)}"
                              for r in stored})  # fmt: skip
    # Keyed by the newest run: a script made since the last rerun is listed first and picked.
    run_id = st.selectbox("지난 스크립트", list(labels), format_func=labels.get,
                          key=f"opening_past_pick:{stored[0].run_id}")  # fmt: skip
    if st.button("열기", key="opening_open_past", icon=":material/history:"):
        chosen = next((r for r in stored if r.run_id == run_id), None)
        if chosen is None:  # a label no longer listed comes back as text
            st.warning(
                "선택한 스크립트가 목록에 없습니다. 다시 골라 주세요.", icon=":material/history:"
            )
            return
        chosen.answer.payload.setdefault("context", {})["run_id"] = chosen.run_id
        st.session_state[STATE_ANSWER] = chosen.answer


def main() -> None:
    ui.ensure_shell()
    st.title("오프닝 스크립트")
    st.caption(
        "전일 16:00 ET부터 당일 18:00 ET까지의 뉴스를 모아 핵심 테마 1~3개, 오늘 장 한마디, "
        "진행자·해설자 대본을 만듭니다. 대본의 숫자는 모두 시세 도구로 확인하고, 근거 기사는 실제로 읽은 것만 씁니다."
    )
    pool = runtime.pg_pool()
    if pool is None:
        ui.show_store_down("PostgreSQL", runtime.postgres_down_reason())
        return
    try:
        days = _news_days(pool)
    except WorkbenchError as e:
        ui.show_error(e)
        return
    if not days:
        st.warning("뉴스가 있는 거래일이 없습니다. 데이터 화면에서 데이터를 적재하세요.")
        return
    left, right = st.columns([3, 2])
    with left:
        picked = st.selectbox("거래일 (뉴스가 있는 날)", days, format_func=_day_label,
                              key="opening_day", help=f"데이터의 {days[-1][0]} ~ {days[0][0]} 중 "
                              f"뉴스가 있는 거래일 {len(days):,}일. 날짜를 입력해 찾을 수 있습니다.")  # fmt: skip
        live = LiveTurn.current(LIVE_KEY)
        run = st.button("대본 만들기", type="primary", icon=":material/play_arrow:",
                        key="opening_run", disabled=live is not None)  # fmt: skip
    if live is not None:
        _follow(live)
    elif run and picked is not None:
        _start(picked[0])
    with right:  # drawn after the run, so the script just made is already in the list
        _render_past()
    answer: AgentAnswer | None = st.session_state.get(STATE_ANSWER)
    if answer is not None:
        st.divider()
        render(answer)


main()
