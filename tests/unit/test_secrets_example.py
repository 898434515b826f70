"""`.streamlit/secrets.toml.example` documents real settings and parses once filled in."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from data_access.config import Settings

EXAMPLE = Path(__file__).resolve().parents[2] / ".streamlit" / "secrets.toml.example"
DOCUMENTED = (
    "DATABASE_URL", "NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE", "LLM_MODEL",
    "LLM_MODEL_ETF", "LLM_MODEL_MACRO", "LLM_MODEL_OPENING", "LLM_MODEL_CONTRACT",
    "LLM_MODEL_STOCK", "LLM_MODEL_ROUTER", "LLM_API_BASE", "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "FRED_API_KEY", "TAVILY_API_KEY",
)  # fmt: skip


def _uncommented() -> str:
    """The example with every `# KEY = value` line switched on (prose comments stay comments)."""
    return re.sub(r"^# ([A-Z0-9_]+ = )", r"\1", EXAMPLE.read_text(), flags=re.M)


def test_every_key_is_a_setting_and_the_required_ones_are_documented() -> None:
    values = tomllib.loads(_uncommented())
    assert set(DOCUMENTED) <= set(values)
    assert {k.lower() for k in values} <= set(Settings.model_fields)


def test_the_filled_in_example_loads_into_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secrets = tmp_path / "secrets.toml"
    secrets.write_text(_uncommented())
    monkeypatch.setenv("WORKBENCH_SECRETS_FILE", str(secrets))
    for key in DOCUMENTED:
        monkeypatch.delenv(key, raising=False)  # the environment would take precedence
    settings = Settings()
    values = tomllib.loads(secrets.read_text())
    assert settings.graph_backend == "neo4j"
    assert settings.database_url == values["DATABASE_URL"]
    assert settings.model_for("etf") == values["LLM_MODEL_ETF"]
    assert settings.model_for("contract") == values["LLM_MODEL_CONTRACT"]
    assert settings.neo4j_password is not None
