"""The graph state of seed 003 (`OpeningState`) and the types of its result object."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal, TypedDict

from langchain_core.messages import BaseMessage
from langgraph.graph.message import add_messages

Speaker = Literal["진행자", "해설자"]
SPEAKERS: tuple[Speaker, ...] = ("진행자", "해설자")


class NewsSource(TypedDict):
    """An article behind a theme or a script turn (only articles read with get_news_content)."""

    pk: str
    title: str


class Theme(TypedDict):
    headline: str
    description: str
    related_news: list[NewsSource]


class ScriptTurn(TypedDict):
    id: int
    speaker: Speaker
    text: str
    sources: list[NewsSource]


class OpeningResult(TypedDict):
    """The seed's `opening_result.json`: themes, the one-line nutshell, the script."""

    theme: list[Theme]
    nutshell: str
    scripts: list[ScriptTurn]


class OpeningState(TypedDict, total=False):
    """Seed fields (messages … scripts) plus the run's bookkeeping (date … attempts)."""

    messages: Annotated[Sequence[BaseMessage], add_messages]
    context_json: dict[str, Any]
    news_meta: dict[str, Any]
    theme: list[Theme]
    nutshell: str
    scripts: list[ScriptTurn]
    date: str  # the trading day (ISO) the script is for
    validation: dict[str, Any]  # {"ok", "errors", "repairs"} of the last extract_script
    attempts: int  # extract_script rounds so far (a rejected output goes back to the agent once)
    stop_reason: str | None  # budget_exceeded | no_news | invalid_output
