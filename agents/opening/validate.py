"""The prompt's rules checked on the agent's final output, in both modes.

A fixable slip is repaired and noted (sources that were not read are dropped, ids renumbered,
more than three themes cut to three); a broken output is rejected with the reasons and never
saved: missing required tool calls, fewer than 10 bodies read, no theme or nutshell, a script
that does not open with the host and the date, or a number that no get_ohlcv result (or, for EPS figures, no get_market_movers earnings
entry) backs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.evidence import ToolCallRecord
from agents.model_checks import OPENING, EvidencePool, unverified
from agents.opening.prompts import MIN_BODIES, date_ko, json_blocks
from agents.opening.source_checks import check_sources
from agents.opening.state import SPEAKERS, NewsSource, OpeningResult

MAX_THEMES = 3
MAX_NUTSHELL = 80


@dataclass
class Validation:
    ok: bool
    result: OpeningResult | None
    errors: list[str] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "errors": self.errors, "repairs": self.repairs}


@dataclass(frozen=True)
class Evidence:
    """What the run's tool calls established: articles read and the price figures seen."""

    read: dict[str, str]  # pk → title of bodies actually returned by get_news_content
    listed: bool
    counted: bool
    values: tuple[float, ...]  # every open/high/low/close seen
    changes: tuple[float, ...]  # day-over-day close changes in percent
    diffs: tuple[float, ...]  # day-over-day close differences (for bp of rates)

    def pool(self) -> EvidencePool:
        """The shared checker's pool: % against the changes (and values), bp against the
        differences, other units against the values; no derived forms."""
        return EvidencePool(values=list(self.values), percents=[abs(c) for c in self.changes],
                            bps=[abs(d) * 100 for d in self.diffs], derive=False)  # fmt: skip


def evidence_from(calls: Iterable[ToolCallRecord]) -> Evidence:
    read: dict[str, str] = {}
    values: list[float] = []
    changes: list[float] = []
    diffs: list[float] = []
    names: set[str] = set()
    for call in calls:
        if call.status != "ok" or not isinstance(call.result, dict):
            continue
        names.add(call.tool)
        if call.tool == "get_news_content":
            read.update({a["pk"]: a["title"] for a in call.result.get("articles", [])})
        elif call.tool == "get_ohlcv":
            rows = call.result.get("rows", [])
            values += [float(r[k]) for r in rows for k in ("open", "high", "low", "close")
                       if r.get(k) is not None]  # fmt: skip
            closes = [float(r["close"]) for r in rows if r.get("close") is not None]
            for prev, cur in zip(closes, closes[1:], strict=False):
                diffs.append(cur - prev)
                if prev:
                    changes.append((cur / prev - 1) * 100)
        elif call.tool == "get_market_movers":  # EPS actual/estimate read from earnings_events
            for e in (c["earnings"] for c in call.result.get("clusters", []) if c.get("earnings")):
                values += [float(e["eps_actual"]), float(e["eps_estimate"])]
                changes.append(float(e["surprise_pct"]))
    return Evidence(read, "get_news_list" in names, "count_keyword_frequency" in names,
                    tuple(values), tuple(changes), tuple(diffs))  # fmt: skip


def parse_output(text: str) -> dict[str, Any] | None:
    """The final JSON: the last ```json block, else the whole text."""
    for candidate in [*reversed(json_blocks(text)), text.strip()]:
        try:
            data = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict):
            return data
    return None


def unverified_numbers(text: str, ev: Evidence) -> list[str]:
    """Numbers with a unit (%, 원, 달러, $, bp, pt) that no OHLCV figure of the run matches
    (agents.model_checks with the opening's policy)."""
    return [c.text for c in unverified(text, ev.pool(), OPENING)]


def _sources(items: Any, ev: Evidence, where: str, repairs: list[str]) -> list[NewsSource]:
    out: list[NewsSource] = []
    for item in items if isinstance(items, list) else []:
        pk = str(item.get("pk", "")) if isinstance(item, dict) else ""
        if pk in ev.read:
            if pk not in {s["pk"] for s in out}:
                out.append({"pk": pk, "title": ev.read[pk]})
        else:
            repairs.append(f"{where}: 읽지 않은 기사 {pk or '(pk 없음)'}를 근거에서 뺐습니다.")
    return out


def validate(text: str, calls: Sequence[ToolCallRecord], day: str, window_count: int) -> Validation:
    ev = evidence_from(calls)
    errors: list[str] = []
    repairs: list[str] = []
    if not ev.listed:
        errors.append("get_news_list를 호출하지 않았습니다.")
    if not ev.counted:
        errors.append("count_keyword_frequency를 호출하지 않았습니다.")
    need = min(MIN_BODIES, window_count)
    if len(ev.read) < need:
        errors.append(f"기사 본문을 {len(ev.read)}건만 읽었습니다 (최소 {need}건).")
    data = parse_output(text)
    if data is None:
        return Validation(False, None, errors + ["최종 출력에서 JSON을 찾지 못했습니다."], repairs)
    themes = _themes(data.get("theme"), ev, errors, repairs)
    nutshell = _nutshell(data.get("nutshell"), errors, repairs)
    scripts = _scripts(data.get("scripts"), ev, day, errors, repairs)
    repairs += check_sources(themes, scripts, calls, ev.read)  # article day/direction vs figure
    texts = [nutshell] + [t["headline"] + " " + t["description"] for t in themes]
    texts += [s["text"] for s in scripts]
    bad = unverified_numbers("\n".join(texts), ev)
    if bad:
        errors.append("get_ohlcv로 확인되지 않은 숫자: " + ", ".join(dict.fromkeys(bad)))
    result: OpeningResult = {"theme": themes, "nutshell": nutshell, "scripts": scripts}
    return Validation(not errors, result if not errors else None, errors, repairs)


def _themes(raw: Any, ev: Evidence, errors: list[str], repairs: list[str]) -> list[Any]:
    themes = [t for t in raw if isinstance(t, dict)] if isinstance(raw, list) else []
    if len(themes) > MAX_THEMES:
        repairs.append(f"테마 {len(themes)}개 중 앞의 {MAX_THEMES}개만 남겼습니다.")
        themes = themes[:MAX_THEMES]
    if not themes:
        errors.append("테마가 없습니다 (1~3개 필요).")
    out = []
    for i, t in enumerate(themes, 1):
        headline, description = (
            str(t.get("headline") or "").strip(),
            str(t.get("description") or "").strip(),
        )
        related = _sources(t.get("related_news"), ev, f"테마 {i}", repairs)
        if not headline or not description:
            errors.append(f"테마 {i}에 headline 또는 description이 없습니다.")
        if not related:
            errors.append(f"테마 {i}에 실제로 읽은 관련 기사가 없습니다.")
        out.append({"headline": headline, "description": description, "related_news": related})
    return out


def _nutshell(raw: Any, errors: list[str], repairs: list[str]) -> str:
    text = str(raw or "").strip()
    if "\n" in text:
        text = text.splitlines()[0].strip()
        repairs.append("한마디를 첫 줄만 남겼습니다.")
    if not text:
        errors.append("오늘 장 한마디(nutshell)가 없습니다.")
    elif len(text) > MAX_NUTSHELL:
        errors.append(f"한마디가 {len(text)}자로 너무 깁니다 (최대 {MAX_NUTSHELL}자).")
    return text


def _scripts(raw: Any, ev: Evidence, day: str, errors: list[str], repairs: list[str]) -> list[Any]:
    turns = [t for t in raw if isinstance(t, dict)] if isinstance(raw, list) else []
    if len(turns) < 2:
        errors.append("대본이 2턴 미만입니다.")
        return []
    out: list[dict[str, Any]] = []
    for i, t in enumerate(turns, 1):
        speaker, text = str(t.get("speaker") or "").strip(), str(t.get("text") or "").strip()
        if speaker not in SPEAKERS:
            errors.append(f"대본 {i}번째 턴의 화자 '{speaker}'는 진행자/해설자가 아닙니다.")
        if not text:
            errors.append(f"대본 {i}번째 턴이 비어 있습니다.")
        if t.get("id") != i:
            repairs.append(f"대본 {i}번째 턴의 id를 {i}로 맞췄습니다.")
        sources = _sources(t.get("sources"), ev, f"대본 {i}번째 턴", repairs)
        out.append({"id": i, "speaker": speaker, "text": text, "sources": sources})
    if out[0]["speaker"] != "진행자" or date_ko(day) not in out[0]["text"]:
        errors.append(f"첫 턴은 진행자가 '{date_ko(day)}'로 여는 멘트여야 합니다.")
    if {s["speaker"] for s in out} != set(SPEAKERS):
        errors.append("진행자와 해설자가 모두 등장해야 합니다.")
    return out
