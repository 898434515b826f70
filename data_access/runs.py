"""The run store: conversations, messages, agent runs and artifacts in PostgreSQL.

Every screen writes here so a restart or a second replica loses nothing and past work can be
reopened. Rows come back as the typed contract (`AgentAnswer`) or small dataclasses.

Each row carries the user id of the viewer it was written for (`data_access.access`), and every
read is limited to that viewer's rows unless the viewer is an admin. The `viewer` argument
defaults to `access.current_viewer()`: the signed-in user of the running app session, or the one
local user without sign-in (who sees everything, as before sign-in existed).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from data_access.access import AccessDenied, Viewer, current_viewer, owner_scope
from data_access.contracts import AgentAnswer
from data_access.postgres import connection, execute, fetch_all, fetch_one

_RUN_JSON_FIELDS = ("data_freshness", "trace", "citations", "structured_citations", "payload")
# Appended to a WHERE clause with one parameter, `owner_scope(viewer)`: NULL reads every row.
_OWNED = " AND (%(owner)s::text IS NULL OR user_id = %(owner)s)"
NOT_YOUR_CONVERSATION = "대화를 찾을 수 없습니다 (없는 대화이거나 다른 사용자의 대화입니다)"


@dataclass(frozen=True)
class Conversation:
    conversation_id: str
    screen: str
    title: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class Message:
    role: str
    content: str
    run_id: str | None
    created_at: datetime


@dataclass(frozen=True)
class StoredRun:
    run_id: str
    conversation_id: str | None
    screen: str
    question: str
    created_at: datetime
    answer: AgentAnswer


@dataclass(frozen=True)
class RunLabel:
    """What a list of past runs shows: the run without its answer (`get_run` reads that)."""

    run_id: str
    question: str
    created_at: datetime
    status: str


@dataclass(frozen=True)
class Artifact:
    artifact_id: str
    run_id: str | None
    kind: str
    name: str
    content_type: str
    content: str
    created_at: datetime


def _owner_id(viewer: Viewer | None) -> str:
    return (viewer or current_viewer()).user_id


def create_conversation(
    screen: str,
    title: str,
    session_key: str | None = None,
    pool: ConnectionPool | None = None,
    *,
    viewer: Viewer | None = None,
) -> str:
    conversation_id = str(uuid.uuid4())
    with connection(pool) as conn:
        conn.execute(
            "INSERT INTO conversations (conversation_id, screen, title, session_key, user_id)"
            " VALUES (%s, %s, %s, %s, %s)",
            (conversation_id, screen, title[:200], session_key, _owner_id(viewer)),
        )
    return conversation_id


def list_conversations(
    screen: str,
    session_key: str | None = None,
    limit: int = 20,
    pool: ConnectionPool | None = None,
    *,
    viewer: Viewer | None = None,
) -> list[Conversation]:
    rows = fetch_all(
        "SELECT conversation_id::text, screen, title, created_at, updated_at FROM conversations"
        " WHERE screen = %(screen)s AND (%(key)s::text IS NULL OR session_key = %(key)s)"
        + _OWNED
        + " ORDER BY updated_at DESC LIMIT %(limit)s",
        {"screen": screen, "key": session_key, "limit": limit, "owner": owner_scope(viewer)},
        pool,
    )
    return [Conversation(**r) for r in rows]


def get_conversation(
    conversation_id: str, pool: ConnectionPool | None = None, *, viewer: Viewer | None = None
) -> Conversation | None:
    """The conversation, or None when it does not exist or belongs to someone else."""
    row = fetch_one(
        "SELECT conversation_id::text, screen, title, created_at, updated_at FROM conversations"
        " WHERE conversation_id = %(cid)s" + _OWNED,
        {"cid": conversation_id, "owner": owner_scope(viewer)},
        pool,
    )
    return Conversation(**row) if row else None


def delete_conversation(
    conversation_id: str, pool: ConnectionPool | None = None, *, viewer: Viewer | None = None
) -> bool:
    """Delete a conversation with its messages and runs (the schema cascades); False when it
    does not exist or belongs to someone else."""
    deleted = execute(
        "DELETE FROM conversations WHERE conversation_id = %(cid)s" + _OWNED,
        {"cid": conversation_id, "owner": owner_scope(viewer)},
        pool,
    )
    return deleted > 0


def list_conversation_ids(
    conversation_ids: list[str], pool: ConnectionPool | None = None, *, viewer: Viewer | None = None
) -> list[str]:
    """Those of `conversation_ids` that exist and the viewer may read."""
    rows = fetch_all(
        "SELECT conversation_id::text FROM conversations"
        " WHERE conversation_id = ANY(%(ids)s::uuid[])" + _OWNED,
        {"ids": conversation_ids, "owner": owner_scope(viewer)},
        pool,
    )
    return [r["conversation_id"] for r in rows]


def add_message(
    conversation_id: str,
    role: str,
    content: str,
    run_id: str | None = None,
    pool: ConnectionPool | None = None,
    *,
    viewer: Viewer | None = None,
) -> None:
    """Append to a conversation of the viewer's own (an admin: anyone's), else `AccessDenied`."""
    with connection(pool) as conn:
        added = conn.execute(
            "INSERT INTO messages (conversation_id, role, content, run_id)"
            " SELECT %(cid)s::uuid, %(role)s, %(content)s, %(run_id)s::uuid WHERE EXISTS (SELECT 1 FROM"
            " conversations WHERE conversation_id = %(cid)s" + _OWNED + ")",
            {"cid": conversation_id, "role": role, "content": content, "run_id": run_id,
             "owner": owner_scope(viewer)},
        )  # fmt: skip
        if added.rowcount != 1:
            raise AccessDenied(NOT_YOUR_CONVERSATION)
        conn.execute(
            "UPDATE conversations SET updated_at = now() WHERE conversation_id = %s",
            (conversation_id,),
        )


def get_messages(
    conversation_id: str, pool: ConnectionPool | None = None, *, viewer: Viewer | None = None
) -> list[Message]:
    """A conversation's messages; none when it belongs to someone else (for a non-admin)."""
    rows = fetch_all(
        "SELECT role, content, run_id::text AS run_id, created_at FROM messages"
        " WHERE conversation_id = %(cid)s AND conversation_id IN (SELECT conversation_id"
        " FROM conversations WHERE conversation_id = %(cid)s" + _OWNED + ") ORDER BY message_id",
        {"cid": conversation_id, "owner": owner_scope(viewer)},
        pool,
    )
    return [Message(**r) for r in rows]


def save_run(
    answer: AgentAnswer,
    *,
    screen: str,
    question: str,
    conversation_id: str | None = None,
    pool: ConnectionPool | None = None,
    viewer: Viewer | None = None,
) -> str:
    """Store one agent run (answer, trace, citations, timings); returns its run_id."""
    run_id = str(uuid.uuid4())
    data = answer.model_dump(mode="json")
    with connection(pool) as conn:
        conn.execute(
            "INSERT INTO agent_runs (run_id, conversation_id, screen, question, mode, model,"
            " status, answer, error, as_of_date, data_freshness, trace, citations,"
            " structured_citations, payload, tokens, cost_usd, duration_ms, user_id)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,"
            " %s)",
            (
                run_id,
                conversation_id,
                screen,
                question,
                answer.mode,
                answer.model,
                answer.status,
                answer.answer,
                answer.error,
                answer.as_of_date,
                *(Jsonb(data[f]) for f in _RUN_JSON_FIELDS),
                answer.tokens,
                answer.cost_usd,
                answer.duration_ms,
                _owner_id(viewer),
            ),
        )
    return run_id


def _run_from_row(row: dict[str, Any]) -> StoredRun:
    answer = AgentAnswer(
        answer=row["answer"] or "",
        mode=row["mode"],
        model=row["model"],
        status=row["status"],
        error=row["error"],
        as_of_date=row["as_of_date"].isoformat() if row["as_of_date"] else None,
        tokens=row["tokens"],
        cost_usd=row["cost_usd"],
        duration_ms=row["duration_ms"],
        **{f: row[f] for f in _RUN_JSON_FIELDS},
    )
    return StoredRun(
        run_id=row["run_id"],
        conversation_id=row["conversation_id"],
        screen=row["screen"],
        question=row["question"],
        created_at=row["created_at"],
        answer=answer,
    )


_RUN_COLUMNS = (
    "run_id::text AS run_id, conversation_id::text AS conversation_id, screen, question, mode,"
    " model, status, answer, error, as_of_date, data_freshness, trace, citations,"
    " structured_citations, payload, tokens, cost_usd, duration_ms, created_at"
)


def get_run(
    run_id: str, pool: ConnectionPool | None = None, *, viewer: Viewer | None = None
) -> StoredRun | None:
    """The run, or None when it does not exist or belongs to someone else (for a non-admin)."""
    row = fetch_one(
        f"SELECT {_RUN_COLUMNS} FROM agent_runs WHERE run_id = %(run_id)s" + _OWNED,
        {"run_id": run_id, "owner": owner_scope(viewer)},
        pool,
    )
    return _run_from_row(row) if row else None


def list_runs(
    screen: str,
    limit: int = 20,
    pool: ConnectionPool | None = None,
    *,
    viewer: Viewer | None = None,
) -> list[StoredRun]:
    rows = fetch_all(
        f"SELECT {_RUN_COLUMNS} FROM agent_runs WHERE screen = %(screen)s"
        + _OWNED
        + " ORDER BY created_at DESC LIMIT %(limit)s",
        {"screen": screen, "limit": limit, "owner": owner_scope(viewer)},
        pool,
    )
    return [_run_from_row(r) for r in rows]


def list_run_labels(
    screen: str,
    limit: int = 20,
    pool: ConnectionPool | None = None,
    *,
    viewer: Viewer | None = None,
) -> list[RunLabel]:
    """The latest runs of `screen`, newest first, without their answers: 15 whole stock reports
    (series, payload, trace) took 0.1-0.2 s of every report screen's run to read and parse."""
    rows = fetch_all(
        "SELECT run_id::text AS run_id, question, created_at, status FROM agent_runs"
        " WHERE screen = %(screen)s" + _OWNED + " ORDER BY created_at DESC LIMIT %(limit)s",
        {"screen": screen, "limit": limit, "owner": owner_scope(viewer)},
        pool,
    )
    return [RunLabel(**r) for r in rows]


def save_artifact(
    run_id: str | None,
    kind: str,
    name: str,
    content: str,
    content_type: str = "text/markdown",
    pool: ConnectionPool | None = None,
    viewer: Viewer | None = None,
) -> str:
    artifact_id = str(uuid.uuid4())
    with connection(pool) as conn:
        conn.execute(
            "INSERT INTO artifacts (artifact_id, run_id, kind, name, content_type, content, user_id)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (artifact_id, run_id, kind, name, content_type, content, _owner_id(viewer)),
        )
    return artifact_id


def list_artifacts(
    kind: str | None = None,
    run_id: str | None = None,
    limit: int = 50,
    pool: ConnectionPool | None = None,
    *,
    viewer: Viewer | None = None,
) -> list[Artifact]:
    rows = fetch_all(
        "SELECT artifact_id::text AS artifact_id, run_id::text AS run_id, kind, name, content_type,"
        " content, created_at FROM artifacts"
        " WHERE (%(kind)s::text IS NULL OR kind = %(kind)s)"
        " AND (%(run_id)s::uuid IS NULL OR run_id = %(run_id)s::uuid)"
        + _OWNED
        + " ORDER BY created_at DESC LIMIT %(limit)s",
        {"kind": kind, "run_id": run_id, "limit": limit, "owner": owner_scope(viewer)},
        pool,
    )
    return [Artifact(**r) for r in rows]


@dataclass(frozen=True)
class Turn:
    """One question and its stored answer, as a chat screen shows it."""

    question: str
    answer: AgentAnswer
    run_id: str


def record_turn(
    screen: str,
    question: str,
    answer: AgentAnswer,
    conversation_id: str | None = None,
    pool: ConnectionPool | None = None,
    *,
    viewer: Viewer | None = None,
) -> tuple[str, str]:
    """Save a chat turn: the conversation (created on the first turn), the run, both messages.

    Returns (conversation_id, run_id).
    """
    viewer = viewer or current_viewer()
    if conversation_id is None:
        title = question.strip()[:60] or "대화"
        conversation_id = create_conversation(screen, title, pool=pool, viewer=viewer)
    elif not list_conversation_ids([conversation_id], pool, viewer=viewer):
        raise AccessDenied(NOT_YOUR_CONVERSATION)  # before anything is written
    run_id = save_run(answer, screen=screen, question=question,
                      conversation_id=conversation_id, pool=pool, viewer=viewer)  # fmt: skip
    add_message(conversation_id, "user", question, pool=pool, viewer=viewer)
    add_message(
        conversation_id, "assistant", answer.answer, run_id=run_id, pool=pool, viewer=viewer
    )
    return conversation_id, run_id


def load_turns(
    conversation_id: str, pool: ConnectionPool | None = None, *, viewer: Viewer | None = None
) -> list[Turn]:
    """A conversation's turns, oldest first (each user message paired with the run answering it).

    Empty for someone else's conversation (a non-admin viewer).
    """
    viewer = viewer or current_viewer()
    turns: list[Turn] = []
    question: str | None = None
    for message in get_messages(conversation_id, pool=pool, viewer=viewer):
        if message.role == "user":
            question = message.content
        elif message.run_id and question is not None:
            stored = get_run(message.run_id, pool=pool, viewer=viewer)
            if stored is not None:
                turns.append(Turn(question, stored.answer, stored.run_id))
            question = None
    return turns
