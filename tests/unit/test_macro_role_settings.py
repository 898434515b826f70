"""One model per Macro role (seed 004 §2.5), configured in `.streamlit/secrets.toml`: each role
reads its own key, an unset role falls back to the Macro screen's model, then to LLM_MODEL."""

from __future__ import annotations

import os
from pathlib import Path
from typing import get_args

import pytest

from data_access.config import MacroRole, Settings

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
    models = {role: settings.macro_model_for(role) for role in get_args(MacroRole)}
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
    assert no_macro.macro_model_for("equity") == "openai/base"  # then LLM_MODEL
