"""The ETF CodeAgent as seed 000 configures it: 10 tools, max 10 steps, `json` the only extra
import, observations cut at 2,000 characters, the tool-order rules in the system prompt."""

from __future__ import annotations

from typing import Any

from smolagents import CodeAgent, LogLevel, Model, Tool
from smolagents.memory import ActionStep

from agents.etf.prompts import INSTRUCTIONS

MAX_STEPS = 10
AUTHORIZED_IMPORTS = ["json"]
MAX_OBSERVATION_CHARS = 2000
CODE_TIMEOUT_S = 30


def cut(text: str | None, limit: int = MAX_OBSERVATION_CHARS) -> str | None:
    if text is None or len(text) <= limit:
        return text
    return text[:limit] + f"\n…(관찰 결과가 {limit:,}자를 넘어 잘렸습니다)"


def truncate_observation(step: ActionStep, **_: Any) -> None:
    """Step callback: keep what the model sees next (and the UI shows) under the limit."""
    step.observations = cut(step.observations)


def build_agent(model: Model, tools: list[Tool]) -> CodeAgent:
    return CodeAgent(
        tools=tools,
        model=model,
        additional_authorized_imports=AUTHORIZED_IMPORTS,
        max_steps=MAX_STEPS,
        instructions=INSTRUCTIONS,
        max_print_outputs_length=MAX_OBSERVATION_CHARS,
        step_callbacks={ActionStep: truncate_observation},
        verbosity_level=LogLevel.OFF,
        executor_kwargs={"timeout_seconds": CODE_TIMEOUT_S},
    )
