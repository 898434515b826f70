"""Contradicting figures across the agents of a Macro turn (seed 004 §2.3: the supervisor judges
conflicting evidence instead of picking one silently).

    conflicts = find_conflicts(state["agent_responses"])
    conflicts[0].message
    # "한국은행 기준금리 (KR_BASE_RATE) 2026-09-15: 문서 '…25bp 인상 (연 3.00%)'는
    #  인상(상승), 수준 3.00%, 데이터는 2.25→2.25 (2026-09-01 관측, 변화 없음)"

Two kinds, both between what one agent read and what another (or a document) says:
- `value`: two series with the same key hold different values for the same date (e.g. the SQL
  observations and the graph projection of one indicator; a housing series read from SQL and
  the graph's monthly real-estate summary, agents/macro/summary_check.py);
- `direction`: an event about the series itself (its name, or its decider: 'FOMC' for the Fed
  funds rate — a rate decision says nothing of the won it affects) names a move (인상/인하/동결,
  rose/fell/held) or a level ('(연 2.50%)', '(4.25~4.50%)') that the series' observations around
  the event date contradict: the last observation before it against the first on or after it
  (a monthly series: the event's month and the month after, since a monthly average shows a
  late decision only the next month; a level is judged only when both are there).
An event outside the fetched window, or without an observation on both sides, is not judged.
The conflicts are shown, both sides named, at the top of the answer and as the trace's
`conflict_check` guard step, and the turn is `partial`.
"""

from __future__ import annotations

import bisect
import re
from typing import Any, Literal

from pydantic import BaseModel, Field

from agents.macro.state import AgentResponse, Series
from data_access.contracts import TraceStep

CHECK_STEP = "conflict_check"
ORDER = ("macro", "equity", "real_estate", "ontology", "general_knowledge")  # the answer's order
AGENT_KO = {"macro": "거시경제", "equity": "주식", "real_estate": "부동산", "ontology": "관계·근거",
            "general_knowledge": "일반 지식"}  # fmt: skip
_UP = re.compile(r"인상|상승|올랐|오른|급등|\b(?:rose|raised|hike[sd]?|increase[sd]?)\b", re.I)
_DOWN = re.compile(r"인하|하락|내렸|내린|급락|\b(?:fell|cut|lowered|decrease[sd]?)\b", re.I)
_FLAT = re.compile(r"동결|\b(?:held|holds?|unchanged)\b", re.I)
_LEVEL = re.compile(r"\((?:연\s*)?(\d+(?:\.\d+)?)\s*(?:~\s*(\d+(?:\.\d+)?))?\s*%\)")
MOVE_EPS = 0.01  # a move smaller than this is no move (monthly averages drift a little)
FLAT_MAX = 0.25  # '동결' contradicted only by a move of a full step or more
LEVEL_EPS = 0.05
# Words an event title uses for a series besides its name (the Fed's rate is decided by the FOMC).
SUBJECTS = {
    "FEDFUNDS": ("FOMC", "연준", "Fed "),
    "KR_BASE_RATE": ("한은 기준금리", "Bank of Korea"),
}
WORDS = {1: "인상(상승)", -1: "인하(하락)", 0: "동결(변화 없음)"}


class Conflict(BaseModel):
    """One contradiction, with every side as it was stated."""

    kind: Literal["value", "direction"]
    series: str  # series key (indicator code, security id …)
    date: str
    sides: dict[str, str] = Field(default_factory=dict)  # source → what it says
    message: str


def find_conflicts(responses: dict[str, AgentResponse]) -> list[Conflict]:
    """Every contradiction between the agents' series and the events on their paths."""
    by_key: dict[str, list[tuple[str, Series]]] = {}
    for name, resp in responses.items():
        for s in resp.series:
            by_key.setdefault(s.key, []).append((name, s))
    out = [c for entries in by_key.values()
           for c in value_conflicts([(AGENT_KO.get(a, a), s) for a, s in entries])]  # fmt: skip
    seen: set[tuple[str, str, str]] = set()
    for resp in responses.values():
        for path in resp.paths:
            target, day, event = (str(path.get(k) or "") for k in ("target", "event_date", "event"))
            if (target, day, event) in seen or target not in by_key or not day or not event:
                continue
            seen.add((target, day, event))
            agent, series = by_key[target][0]
            conflict = _claim_conflict(event, day[:10], agent, series)
            if conflict is not None:
                out.append(conflict)
    return out


def value_conflicts(entries: list[tuple[str, Series]]) -> list[Conflict]:
    """Series of one key that hold different values for the same date, each side named by its
    label (an agent, or a store: the graph's monthly summary against SQL, agents/macro/
    summary_check.py). One conflict per pair of series: the first date they disagree on."""
    out = []
    for i, (a, sa) in enumerate(entries):
        for b, sb in entries[i + 1 :]:
            values = dict(sb.points)
            for day, va in sa.points:
                vb = values.get(day)
                if vb is None or abs(va - vb) <= 1e-6 * max(1.0, abs(va), abs(vb)):
                    continue
                sides = {a: f"{va:,.6g}", b: f"{vb:,.6g}"}
                out.append(Conflict(kind="value", series=sa.key, date=day, sides=sides,
                                    message=f"{sa.title} {day}: " + " ↔ ".join(
                                        f"{k} {v}" for k, v in sides.items())))  # fmt: skip
                break  # one line per pair of series is enough to show the disagreement
    return out


def claimed(event: str) -> tuple[int | None, tuple[float, float] | None]:
    """The move (+1, -1, 0, None) and level range an event title states."""
    move = 1 if _UP.search(event) else -1 if _DOWN.search(event) else None
    if move is None and _FLAT.search(event):
        move = 0
    m = _LEVEL.search(event)
    level = (float(m.group(1)), float(m.group(2) or m.group(1))) if m else None
    return move, level


def around(points: list[tuple[str, float]], day: str
           ) -> tuple[float | None, list[float], str]:  # fmt: skip
    """The last value before the event and the values after it (the first and the next), with
    the first one's date. A monthly series (every date a 1st) dates a month's value at its
    start: the event's own month is already 'after' it."""
    ordered = sorted(points)
    dates = [d for d, _ in ordered]
    monthly = bool(dates) and all(d.endswith("-01") for d in dates)
    i = bisect.bisect_left(dates, day[:8] + "01" if monthly else day)
    if monthly and (i >= len(dates) or dates[i] != day[:8] + "01"):
        return None, [], ""  # the event's month is not in the window
    before = ordered[i - 1][1] if i > 0 else None
    after = [v for _, v in ordered[i : i + 2]] if monthly else [v for _, v in ordered[i : i + 1]]
    return before, after, dates[i] if i < len(dates) else ""


def is_subject(event: str, series: Series) -> bool:
    """Whether the event is about the series itself (a rate decision about the policy rate),
    not one it merely affects (the won, a bond yield): only then are its words claims about it."""
    name = series.title.split(" (")[0].strip()
    return bool(name) and name in event or any(w in event for w in SUBJECTS.get(series.key, ()))


def _claim_conflict(event: str, day: str, agent: str, series: Series) -> Conflict | None:
    move, level = claimed(event)
    if move is None and level is None or not is_subject(event, series):
        return None
    before, after, when = around(series.points, day)
    if before is None or not after:
        return None  # the window does not hold both sides of the event: nothing to judge
    problems = []
    data_move = after[0] - before
    moves = [v - before for v in after]  # a decision late in a month shows the month after
    if move == 1 and max(moves) <= MOVE_EPS or move == -1 and min(moves) >= -MOVE_EPS:
        problems.append(WORDS[move])
    elif move == 0 and abs(data_move) >= FLAT_MAX:
        problems.append(WORDS[0])
    # a monthly average reaches a late decision's level only the month after: judged with both
    if level is not None and len(after) == 2 and not any(level[0] - LEVEL_EPS <= v <= level[1] + LEVEL_EPS
                                     for v in after):  # fmt: skip
        lo, hi = level
        problems.append(f"수준 {lo:.2f}%" if lo == hi else f"수준 {lo:.2f}~{hi:.2f}%")
    if not problems:
        return None
    seen_move = "상승" if data_move > MOVE_EPS else "하락" if data_move < -MOVE_EPS else "변화 없음"
    data = f"{before:,.2f}→{after[0]:,.2f} ({when} 관측, {seen_move})"
    said = ", ".join(problems)
    sides = {f"문서 '{event}'": said, f"데이터({AGENT_KO.get(agent, agent)})": data}
    return Conflict(kind="direction", series=series.key, date=day, sides=sides,
                    message=f"{series.title} {day}: 문서 '{event}'는 {said}, "
                            f"데이터는 {data}")  # fmt: skip


def conflict_lines(conflicts: list[Conflict], lang: str = "ko") -> list[str]:
    """The block shown at the top of the answer (both sides, neither picked)."""
    if not conflicts:
        return []
    head = (f"> ⚠️ 근거 간 수치 충돌 {len(conflicts)}건: 어느 한쪽을 고르지 않고 모두 보여 드립니다."
            if lang == "ko" else
            f"> ⚠️ {len(conflicts)} conflicting figure(s) in the evidence: both sides are shown, "
            "neither is picked.")  # fmt: skip
    return [head, *[f"> - {c.message}" for c in conflicts]]


def trace_step(conflicts: list[Conflict], compared: int, agreed: list[str] | None = None
               ) -> TraceStep:  # fmt: skip
    """The `conflict_check` guard step: error (the turn is partial) when anything disagrees.
    `agreed`: the series the graph's summary confirmed ('서울 주택가격지수 7개월')."""
    checked = f"; SQL↔그래프 월간 요약 일치: {', '.join(agreed)}" if agreed else ""
    summary = (f"근거 간 수치 충돌 {len(conflicts)}건: " + " / ".join(c.message for c in conflicts)
               if conflicts else f"근거 간 수치·방향 충돌 없음 (에이전트 {compared}개 대조{checked}).")  # fmt: skip
    return TraceStep(step=0, kind="guard", name=CHECK_STEP, observation=summary[:1500],
                     arguments={"conflicts": [c.model_dump() for c in conflicts],
                                **({"summary_agreed": agreed} if agreed else {})},
                     status="error" if conflicts else "ok",
                     error=summary[:500] if conflicts else None)  # fmt: skip


def conflicts_of(state: dict[str, Any]) -> list[Conflict]:
    return [Conflict.model_validate(c) for c in state.get("conflicts", [])]
