"""With a model configured, the model fills the same plan the offline reading makes (issue 31):
a JSON object of this schema, validated against the schema and the lexicon before anything
runs, turned into a `QuestionFrame` the screen's own executor compiles. The offline frame is
read beside it; where the two disagree, the trace says so. An invalid plan is refused (said in
the trace) and the offline frame answers.

    filled = fill_plan(question, offline_frame, lexicon, settings, model, kinds)
    filled.frame          # the model's plan as a frame (None when refused or no model)
    filled.step           # the trace step: model, tokens, the plan, its problems or differences
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agents.llm import Usage
from agents.understanding.frame import MEASURE_UNITS, Entity, Measure, QuestionFrame
from agents.understanding.lexicon import Lexicon
from agents.understanding.windows import Stat, Unit, WindowRead
from data_access.config import Settings
from data_access.contracts import AgentAnswer, TraceStep


class WindowSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n: int = Field(ge=1, le=3650)
    unit: Unit


class BarSpec(BaseModel):
    """A figure held to a bar ('PBR이 1배보다 낮아?': '<', 1, '배')."""

    model_config = ConfigDict(extra="forbid")
    comparator: Literal[">", ">=", "<", "<=", "="]
    value: float
    unit: Literal["%", "배", "원", "억", "조"] | None = None


class ModelPlan(BaseModel):
    """What the model fills: who, which measures, and the steps over them."""

    model_config = ConfigDict(extra="forbid")
    subjects: list[str] = Field(default_factory=list, max_length=10)  # names as in the data
    measures: list[str] = Field(default_factory=list, max_length=5)  # ids of MEASURE_UNITS
    order_by: str | None = None
    direction: Literal["asc", "desc"] | None = None
    take: int | None = Field(default=None, ge=1, le=100)
    aggregate: Literal["avg", "sum", "max", "min", "count"] | None = None
    window: WindowSpec | None = None
    statistic: Stat | None = None
    as_of: date | None = None
    bar: BarSpec | None = None


PROMPT = (
    "Read the analyst's question into a plan. Answer with one JSON object and nothing else, "
    "with these keys (omit what the question does not say): subjects (list of the names of "
    "stocks, ETFs, series as written in the data), measures (list, from: {measures}), order_by "
    "and direction ('asc'|'desc') and take (int) when a set is ordered and cut, aggregate "
    "('avg'|'sum'|'max'|'min'|'count'), window ({{\"n\": int, \"unit\": 'session'|'day'|'week'|"
    "'month'|'quarter'|'year'}}), statistic ('avg'|'sum'|'max'|'min'|'range'|'moving_average'|"
    "'volatility'|'return'|'change'), as_of (YYYY-MM-DD) when a past day is named, bar "
    "({{\"comparator\": '>'|'>='|'<'|'<='|'=', \"value\": number, \"unit\": '%'|'배'|'원'|'억'|"
    "'조'|null}}) when the first measure is held to a bar ('PBR이 1배보다 낮아?')."
)


@dataclass
class FilledPlan:
    frame: QuestionFrame | None  # the model's plan as a frame; None: refused or no model
    step: TraceStep | None


def fill_plan(question: str, offline: QuestionFrame, lexicon: Lexicon, settings: Settings,
              model: str | None, kinds: frozenset[str]) -> FilledPlan:  # fmt: skip
    """Ask `model` for the plan, validate it, compare it with the offline frame."""
    from agents.llm import LlmCallFailed, completion, litellm_kwargs, usage_of

    if model is None:
        return FilledPlan(None, None)
    prompt = PROMPT.format(measures=", ".join(sorted(MEASURE_UNITS)))
    try:
        response = completion(settings, model=model, **litellm_kwargs(model, settings),
                              messages=[{"role": "system", "content": prompt},
                                        {"role": "user", "content": question}],
                              response_format={"type": "json_object"})  # fmt: skip
    except LlmCallFailed as e:
        return FilledPlan(None, _step(model, None, {}, f"모델 호출 실패: {e}", "error"))
    usage = usage_of(response, model)
    text = str(response.choices[0].message.content or "")
    plan, problems = validate_plan(text, lexicon, kinds)
    if plan is None:
        note = "계획 거부(오프라인 읽기로 답함): " + "; ".join(problems)
        return FilledPlan(None, _step(model, usage, {"raw": text[:2000]}, note, "rejected"))
    frame = to_frame(plan, offline, lexicon, kinds)
    differs = disagreements(frame, offline)
    note = ("오프라인 읽기와 다름: " + "; ".join(differs)) if differs else "오프라인 읽기와 같음"
    args: dict[str, object] = {"plan": plan.model_dump(mode="json"), "differences": differs}
    return FilledPlan(frame, _step(model, usage, args, note, "ok"))


def attach_plan(answer: AgentAnswer, filled: FilledPlan) -> AgentAnswer:
    """The model's plan beside the offline reading, after the first step (what was read); a
    plan that ran makes the answer the model's."""
    if filled.step is not None:
        answer.trace.insert(1 if answer.trace else 0, filled.step)
    if filled.frame is not None and filled.step is not None:
        answer.mode, answer.model = "llm", filled.step.model
    return answer


def _step(model: str, usage: Usage | None, args: dict[str, object], note: str,
          status: str) -> TraceStep:  # fmt: skip
    return TraceStep(step=0, kind="llm", name="모델이 채운 계획", arguments=args, observation=note,
                     status=status, model=model, tokens=usage.tokens if usage else 0,  # type: ignore[arg-type]
                     cost_usd=usage.cost_usd if usage else 0.0)  # fmt: skip


def validate_plan(text: str, lexicon: Lexicon,
                  kinds: frozenset[str]) -> tuple[ModelPlan | None, list[str]]:  # fmt: skip
    """The plan, or the reasons it is refused: not JSON, not the schema, a measure we do not
    have, a subject that names nothing in the data."""
    try:
        plan = ModelPlan.model_validate(json.loads(text))
    except json.JSONDecodeError:
        return None, ["JSON이 아닙니다"]
    except ValidationError as e:
        return None, [f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors()[:5]]
    problems = [f"측정 '{m}'은 없는 항목입니다" for m in
                [*plan.measures, plan.order_by] if m and m not in MEASURE_UNITS]  # fmt: skip
    problems += [f"'{s}'은 데이터에 없는 이름입니다" for s in plan.subjects
                 if not lexicon.recognize(s, kinds)]  # fmt: skip
    return (None, problems) if problems else (plan, [])


def to_frame(plan: ModelPlan, offline: QuestionFrame, lexicon: Lexicon,
             kinds: frozenset[str]) -> QuestionFrame:  # fmt: skip
    """The offline frame with what the model read put in its place (the executor compiles it)."""
    entities = []
    for i, subject in enumerate(plan.subjects):
        m = lexicon.recognize(subject, kinds)[0]
        # the words the offline reading linked stay read: as the same name, or as the model's
        # reading of the name in that place
        same = [e for e in offline.entities if e.key == m.key] or offline.entities[i : i + 1]
        start, end = (same[0].start, same[0].end) if same else (-1, -1)
        entities.append(Entity(kind=m.kind, key=m.key, name=m.name, start=start, end=end))  # type: ignore[arg-type]
    measures = [Measure(name=m, unit=MEASURE_UNITS[m], surface="") for m in plan.measures]
    frame = offline.model_copy(deep=True)
    frame.entities = entities or frame.entities
    frame.measures = measures or frame.measures
    op = frame.operation
    op.top_n, op.direction = plan.take or op.top_n, plan.direction or op.direction
    op.aggregate = plan.aggregate or op.aggregate
    if plan.window is not None:
        w = plan.window
        at = offline.window or WindowRead(n=w.n, unit=w.unit, surface=f"{w.n} {w.unit}",
                                          start=-1, end=-1)  # fmt: skip
        frame.window = at.model_copy(update={"n": w.n, "unit": w.unit, "used": False})
    frame.statistic = plan.statistic or frame.statistic
    frame.as_of_date = plan.as_of.isoformat() if plan.as_of else frame.as_of_date
    if plan.bar is not None:  # the same filter the offline reading makes ('500조' is in 억)
        b = plan.bar
        op.kind, op.comparator, op.filter_measure = "filter", b.comparator, frame.measure()
        op.threshold = b.value * (10_000 if b.unit == "조" else 1)
        op.threshold_unit = "억" if b.unit in ("억", "조") else ("%" if b.unit == "%" else None)
    return frame


def disagreements(model: QuestionFrame, offline: QuestionFrame) -> list[str]:
    """Where the model's plan and the offline reading differ, in words."""
    said, read = _plan_of(model), _plan_of(offline)
    return [f"{label} 모델={_show(said[label])} 오프라인={_show(read[label])}" for label in said
            if said[label] != read[label]]  # fmt: skip


def _plan_of(frame: QuestionFrame) -> dict[str, object]:
    """The parts of a frame the two readings are compared on, by their trace labels."""
    op, w = frame.operation, frame.window
    return {"대상": {e.key for e in frame.entities}, "측정": {m.name for m in frame.measures},
            "구간": (w.n, w.unit) if w else None, "통계": frame.statistic, "상위 N": op.top_n,
            "집계": op.aggregate, "기준일": frame.as_of_date,
            "조건": f"{op.comparator} {op.threshold:g}" if op.comparator and op.threshold
            is not None else None}  # fmt: skip


def _show(value: object) -> str:
    if isinstance(value, set):
        return ",".join(sorted(map(str, value))) or "-"
    return "-" if value is None else str(value)
