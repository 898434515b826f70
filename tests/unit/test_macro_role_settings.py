"""One model per Macro role (seed 004 §2.5), configured in `.streamlit/secrets.toml`: each role
reads its own key, an unset role falls back to the Macro screen's model, then to LLM_MODEL —
one chain (`Settings.model_for`) for every role, the router included."""

from __future__ import annotations

import os
from pathlib import Path
from typing import get_args

import pytest

from data_access.config import AgentRole, MacroRole, Settings

SECRETS = """
LLM_MODEL = "openai/base"
LLM_MODEL_MACRO = "gemini/gemini-3-flash-preview"
LLM_MODEL_ROUTER = "gemini/gemini-2.5-flash"
LLM_MODEL_ONTOLOGY = "gemini/gemini-3-pro-preview"
LLM_MODEL_ANSWER = "gemini/gemini-2.5-flash-lite"
"""


def test_each_role_reads_its_key_from_secrets_and_falls_back_to_the_macro_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secrets = tmp_path / "secrets.toml"
    secrets.write_text(SECRETS)
    monkeypatch.setenv("WORKBENCH_SECRETS_FILE", str(secrets))
    for key in [k for k in os.environ if k.startswith("LLM_MODEL")]:
        monkeypatch.delenv(key)  # the environment would take precedence
    settings = Settings()
    models = {role: settings.model_for(role) for role in get_args(MacroRole)}
    assert models == {
        "router": "gemini/gemini-2.5-flash",
        "ontology": "gemini/gemini-3-pro-preview",
        "answer": "gemini/gemini-2.5-flash-lite",
        "macro_economy": "gemini/gemini-3-flash-preview",  # unset: the Macro screen's model
        "equity": "gemini/gemini-3-flash-preview",
        "real_estate": "gemini/gemini-3-flash-preview",
        "general": "gemini/gemini-3-flash-preview",
    }
    no_macro = settings.model_copy(update={"llm_model_macro": None})
    assert no_macro.model_for("equity") == "openai/base"  # then LLM_MODEL


def test_the_router_falls_back_to_the_macro_model_like_every_macro_role(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The router read LLM_MODEL_ROUTER, then LLM_MODEL: a Macro model set alone left routing on
    the default model (or offline). Now role → screen → default, whichever role is asked."""
    secrets = tmp_path / "secrets.toml"
    secrets.write_text('LLM_MODEL = "openai/base"\nLLM_MODEL_MACRO = "gemini/macro"\n')
    monkeypatch.setenv("WORKBENCH_SECRETS_FILE", str(secrets))
    for key in [k for k in os.environ if k.startswith("LLM_")]:
        monkeypatch.delenv(key)
    settings = Settings()
    assert {role: settings.model_for(role) for role in get_args(MacroRole)} == dict.fromkeys(
        get_args(MacroRole), "gemini/macro"
    )
    screens: tuple[AgentRole, ...] = ("etf", "opening", "contract", "stock")
    assert {s: settings.model_for(s) for s in screens} == dict.fromkeys(screens, "openai/base")
    assert settings.model_for("embedding") is None  # its own key only: no chat model fallback
    only_default = settings.model_copy(update={"llm_model_macro": None})
    assert only_default.model_for("router") == "openai/base"
    nothing = only_default.model_copy(update={"llm_model": None})
    assert nothing.model_for("router") is None and nothing.model_for("answer") is None
