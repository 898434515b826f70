"""Settings precedence: explicit > environment > .streamlit/secrets.toml > defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from data_access.config import Settings


@pytest.fixture()
def secrets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "secrets.toml"
    path.write_text(
        'database_url = "postgresql://from-secrets/db"\n'
        'LLM_MODEL = "openai/gpt-4.1-mini"\n'
        'llm_model_macro = "anthropic/claude-x"\n'
        'openai_api_key = "sk-secret"\n'
    )
    monkeypatch.setenv("WORKBENCH_SECRETS_FILE", str(path))
    for var in ("DATABASE_URL", "LLM_MODEL", "LLM_MODEL_MACRO", "NEO4J_URI", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    return path


def test_secrets_file_is_read(secrets: Path) -> None:
    s = Settings()
    assert s.database_url == "postgresql://from-secrets/db"
    assert s.llm_model == "openai/gpt-4.1-mini"
    assert s.openai_api_key is not None and s.openai_api_key.get_secret_value() == "sk-secret"


def test_environment_beats_secrets(secrets: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://from-env/db")
    assert Settings().database_url == "postgresql://from-env/db"


def test_explicit_argument_beats_environment(
    secrets: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://from-env/db")
    assert (
        Settings(database_url="postgresql://explicit/db").database_url == "postgresql://explicit/db"
    )


def test_model_per_role_falls_back_to_default(secrets: Path) -> None:
    s = Settings()
    assert s.model_for("macro") == "anthropic/claude-x"
    assert s.model_for("etf") == "openai/gpt-4.1-mini"
    assert s.model_for("embedding") is None


def test_no_model_means_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_SECRETS_FILE", str(tmp_path / "missing.toml"))
    monkeypatch.delenv("LLM_MODEL", raising=False)
    monkeypatch.delenv("LLM_MODEL_ETF", raising=False)
    assert Settings().model_for("etf") is None


def test_graph_backend_follows_neo4j_uri(secrets: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().graph_backend == "falkordb"
    monkeypatch.setenv("NEO4J_URI", "neo4j://db.example:7687")
    assert Settings().graph_backend == "neo4j"


def test_relative_home_is_under_project_root(
    secrets: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORKBENCH_HOME", "some/dir")
    home = Settings().home
    assert home.is_absolute() and home.parts[-2:] == ("some", "dir")
