"""Workbench settings: environment variables, then `.streamlit/secrets.toml`, then defaults.

One `Settings` object describes where the stores are and which LLM answers each role.
Nothing here starts a server; `data_access.services` reads these settings to do that.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SECRETS_FILE = PROJECT_ROOT / ".streamlit" / "secrets.toml"

AgentRole = Literal["etf", "macro", "opening", "contract", "stock", "router", "embedding"]
# The Macro Q&A's model roles (seed 004 §2.5): supervisor/router, ontology master, the three
# domain agents, general knowledge and the answer (citation/format) step.
MacroRole = Literal[
    "router", "ontology", "macro_economy", "equity", "real_estate", "general", "answer"
]
ModelRole = AgentRole | MacroRole
# The screen a role belongs to, whose model it falls back to before LLM_MODEL (seed 004 §2.5).
ROLE_SCREEN: dict[str, AgentRole] = {
    "router": "macro", "ontology": "macro", "macro_economy": "macro", "equity": "macro",
    "real_estate": "macro", "general": "macro", "answer": "macro",
}  # fmt: skip
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high")


def secrets_file() -> Path:
    """The TOML secrets file; `WORKBENCH_SECRETS_FILE` points tests at another one."""
    return Path(os.environ.get("WORKBENCH_SECRETS_FILE", DEFAULT_SECRETS_FILE))


class Settings(BaseSettings):
    """Everything configurable. Field names map to upper-case env vars (`database_url` → `DATABASE_URL`)."""

    model_config = SettingsConfigDict(extra="ignore", case_sensitive=False)

    workbench_home: Path = Field(default=PROJECT_ROOT / ".workbench")

    # Relational store: external PostgreSQL when set, otherwise the embedded server.
    database_url: str | None = None
    # A read-only login for agent and console SQL on an external server (see README, "Least
    # privilege"); unset: the embedded server's atlas_agent login, or SET ROLE atlas_reader.
    database_reader_url: SecretStr | None = None
    pg_pool_min: int = 1
    pg_pool_max: int = 8
    sql_statement_timeout_ms: int = 5000

    # Graph store: Neo4j when NEO4J_URI is set, otherwise embedded FalkorDB.
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr | None = None
    neo4j_database: str = "neo4j"
    falkordb_port: int = 0  # 0: pick a free loopback port on first start, then keep it
    graph_name: str = "atlas"
    graph_query_timeout_ms: int = 3000
    # How long the app reuses its probe of both stores (the sidebar's status, which store a
    # screen may use) before probing again; the fault tests set 1 s to see a change sooner.
    store_health_ttl_s: float = 15.0

    # LLM: one default model string for litellm, overridable per role. Unset → offline planner.
    llm_model: str | None = None
    llm_model_etf: str | None = None
    llm_model_macro: str | None = None
    llm_model_opening: str | None = None
    llm_model_contract: str | None = None
    llm_model_stock: str | None = None
    llm_model_router: str | None = None
    # the model that fills the question plan on the ETF and Macro screens (issue 31); opt-in,
    # no fallback: unset, their plan is the offline reading (the Stock box uses LLM_MODEL_STOCK)
    llm_model_plan: str | None = None
    llm_embedding_model: str | None = None
    # Macro Q&A per role (seed 004 §2.5); unset: LLM_MODEL_MACRO, then LLM_MODEL (model_for).
    llm_model_ontology: str | None = None
    llm_model_macro_economy: str | None = None
    llm_model_equity: str | None = None
    llm_model_real_estate: str | None = None
    llm_model_general: str | None = None
    llm_model_answer: str | None = None
    # reasoning_effort per model string ("*" for every model), sent only to models litellm says
    # support reasoning: LLM_REASONING_EFFORT="openai/o3-mini=high, *=low" or a TOML table.
    llm_reasoning_effort: Annotated[dict[str, str], NoDecode] = Field(default_factory=dict)
    llm_api_base: str | None = None
    llm_timeout_s: float = 30.0  # per request: a provider that does not answer in time fails
    llm_num_retries: int = 2  # retries after a transient failure (429, 5xx, timeout, bad reply)
    llm_retry_backoff_s: float = 1.0  # first wait between attempts, doubling each time
    llm_max_tokens_per_turn: int = 60_000
    llm_max_cost_per_turn_usd: float = 0.50

    # Provider keys (litellm reads the usual env names; we pass them explicitly too).
    openai_api_key: SecretStr | None = None
    anthropic_api_key: SecretStr | None = None
    gemini_api_key: SecretStr | None = None
    fred_api_key: SecretStr | None = None
    fred_base_url: str | None = None  # FRED API root; tests point it at a local replay server
    tavily_api_key: SecretStr | None = None
    tavily_base_url: str | None = None  # Tavily API root; tests point it at a local server

    # LangSmith tracing of the LangChain/LangGraph runs: off unless LANGCHAIN_TRACING_V2 is true.
    langchain_tracing_v2: bool = False
    langchain_api_key: SecretStr | None = None
    langchain_project: str | None = None
    langchain_endpoint: str | None = None  # default https://api.smith.langchain.com

    # Sign-in and roles (data_access/access.py). Sign-in itself is the `[auth]` section of
    # secrets.toml (Streamlit's OpenID Connect); these say who among the signed-in is an admin.
    admin_emails: Annotated[list[str], NoDecode] = Field(default_factory=list)
    admin_group: str | None = None  # a group name in the identity token's group claim
    admin_group_claim: str = "groups"

    # Gain/loss colours on every chart, tile and delta (agents/colors.py): "korean" is red up and
    # blue down; "international" is green up and red down.
    price_colors: Literal["korean", "international"] = "korean"

    # Demo data: the as-of date the deterministic dataset ends on.
    demo_as_of_date: str = "2026-11-20"
    demo_seed: int = 20261120

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Precedence: explicit arguments > environment > secrets.toml > defaults.
        toml = TomlConfigSettingsSource(settings_cls, toml_file=secrets_file())
        return (init_settings, env_settings, toml)

    @field_validator("admin_emails", mode="before")
    @classmethod
    def _split_admin_emails(cls, value: object) -> object:
        """ADMIN_EMAILS="a@x.kr, b@y.kr" in the environment; a TOML list works as is."""
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("llm_reasoning_effort", mode="before")
    @classmethod
    def _parse_reasoning_effort(cls, value: object) -> object:
        """'openai/o3-mini=high, *=low' (env) or a bare 'high' (every model); a TOML table as is."""
        if isinstance(value, str):
            pairs = [p.strip() for p in value.split(",") if p.strip()]
            value = {
                (p.rsplit("=", 1)[0] if "=" in p else "*"): p.rsplit("=", 1)[-1] for p in pairs
            }
        if isinstance(value, dict):
            efforts = {str(k).strip(): str(v).strip().lower() for k, v in value.items()}
            bad = {k: v for k, v in efforts.items() if v not in REASONING_EFFORTS}
            if bad:
                raise ValueError(f"reasoning_effort must be one of {REASONING_EFFORTS}: {bad}")
            return efforts
        return value

    def reasoning_effort_for(self, model: str) -> str | None:
        """The configured reasoning_effort of a model string (its own, else '*'), or None."""
        return self.llm_reasoning_effort.get(model) or self.llm_reasoning_effort.get("*")

    def model_for(self, role: ModelRole) -> str | None:
        """The litellm model string of a role; None means the offline planner answers.

        One chain for every role: the role's own setting, then its screen's (a Macro role such
        as the router or the answer step: LLM_MODEL_MACRO), then LLM_MODEL. The embedding model
        has its own key and no fallback (a chat model cannot embed)."""
        if role == "embedding":
            return self.llm_embedding_model
        for key in (role, ROLE_SCREEN.get(role)):
            value: str | None = getattr(self, f"llm_model_{key}", None) if key else None
            if value:
                return value
        return self.llm_model

    @property
    def graph_backend(self) -> Literal["falkordb", "neo4j"]:
        return "neo4j" if self.neo4j_uri else "falkordb"

    @property
    def home(self) -> Path:
        """`workbench_home` made absolute (relative paths are relative to the project root)."""
        path = self.workbench_home
        return path if path.is_absolute() else (PROJECT_ROOT / path).resolve()


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Process-wide settings; tests call `get_settings.cache_clear()` after changing env vars."""
    return Settings()
