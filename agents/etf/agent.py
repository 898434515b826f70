"""The ETF CodeAgent as seed 000 configures it: 10 tools, max 10 steps, `json` the only extra
import, observations cut at 2,000 characters, the tool-order rules in the system prompt."""

from __future__ import annotations

import contextvars
import copy
import importlib.resources
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from functools import lru_cache
from typing import Any

import yaml
from jinja2 import StrictUndefined, Template
from smolagents import CodeAgent, LogLevel, Model, Tool
from smolagents.local_python_executor import (
    CodeOutput,
    ExecutionTimeoutError,
    LocalPythonExecutor,
    PythonExecutor,
)
from smolagents.memory import ActionStep
from smolagents.utils import AgentMaxStepsError

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


def reached_max_steps(agent: CodeAgent) -> bool:
    """The run ended at MAX_STEPS without a final_answer of its own: what smolagents then
    returns is the model's unchecked text, never an answer."""
    steps = agent.memory.steps
    return bool(steps) and isinstance(getattr(steps[-1], "error", None), AgentMaxStepsError)


@lru_cache(maxsize=1)
def _prompt_templates() -> Any:
    """smolagents' own CodeAgent prompts, parsed once per process: CodeAgent re-reads and parses
    the YAML on every construction otherwise, the larger part of a turn's time to its first
    step (issue 34)."""
    text = importlib.resources.files("smolagents.prompts").joinpath("code_agent.yaml").read_text()
    return yaml.safe_load(text)


@lru_cache(maxsize=4)
def _compiled(template: str) -> Template:
    """A prompt template compiled once per process: smolagents compiles the system prompt's
    Jinja text on every construction and again in run(), about 35 ms each (issue 34)."""
    return Template(template, undefined=StrictUndefined)


# Code steps run on a few long-lived threads. smolagents' own time limit starts and joins a new
# thread for every step: on a busy machine that start alone took 10+ ms of a turn's time to its
# first step (issue 34).
_CODE_THREADS = ThreadPoolExecutor(max_workers=16, thread_name_prefix="etf-code")


class _SharedThreadExecutor(LocalPythonExecutor):
    """smolagents' LocalPythonExecutor with the same time limit per code step, on shared threads
    (the caller's context variables go with the step)."""

    def __init__(self, *args: Any, timeout_seconds: int | None = CODE_TIMEOUT_S,
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(*args, timeout_seconds=None, **kwargs)
        self.limit_s = timeout_seconds

    def __call__(self, code_action: str) -> CodeOutput:
        run = contextvars.copy_context().run
        future = _CODE_THREADS.submit(run, LocalPythonExecutor.__call__, self, code_action)
        try:
            return future.result(timeout=self.limit_s)
        except FuturesTimeout:
            raise ExecutionTimeoutError(
                f"Code execution exceeded the maximum execution time of {self.limit_s} seconds"
            ) from None


class _CodeAgent(CodeAgent):
    """smolagents' CodeAgent with its system prompt rendered from the cached compiled template
    (the same variables as CodeAgent.initialize_system_prompt in smolagents 1.26) and its code
    steps run on shared threads."""

    def create_python_executor(self) -> PythonExecutor:
        return _SharedThreadExecutor(
            self.additional_authorized_imports,
            **{"max_print_outputs_length": self.max_print_outputs_length} | self.executor_kwargs,
        )

    def initialize_system_prompt(self) -> str:
        imports = ("You can import from any package you want." if "*" in self.authorized_imports
                   else str(self.authorized_imports))  # fmt: skip
        return _compiled(self.prompt_templates["system_prompt"]).render(
            tools=self.tools,
            managed_agents=self.managed_agents,
            authorized_imports=imports,
            custom_instructions=self.instructions,
            code_block_opening_tag=self.code_block_tags[0],
            code_block_closing_tag=self.code_block_tags[1],
        )


def build_agent(model: Model, tools: list[Tool],
                final_answer_checks: Sequence[Callable[..., bool]] = ()) -> CodeAgent:  # fmt: skip
    return _CodeAgent(
        tools=tools,
        model=model,
        prompt_templates=copy.deepcopy(_prompt_templates()),
        additional_authorized_imports=AUTHORIZED_IMPORTS,
        max_steps=MAX_STEPS,
        instructions=INSTRUCTIONS,
        max_print_outputs_length=MAX_OBSERVATION_CHARS,
        step_callbacks={ActionStep: truncate_observation},
        verbosity_level=LogLevel.OFF,
        executor_kwargs={"timeout_seconds": CODE_TIMEOUT_S},
        final_answer_checks=list(final_answer_checks),
    )
