"""Each user's own work in the real run store (PostgreSQL): rows carry the user id, a plain user
reads only their own conversations, runs, artifacts and uploaded contracts, the admin reads all,
and an id guessed or copied from someone else's row finds nothing."""

from __future__ import annotations

import uuid

import pytest
from psycopg_pool import ConnectionPool

from agents.contract import store as contract_store
from agents.contract.ingest.pipeline import ensure_samples
from agents.contract.service import ingest_file
from data_access import runs
from data_access.access import LOCAL_VIEWER, AccessDenied, Viewer, acting_as
from data_access.contracts import AgentAnswer

ALICE = Viewer("alice@corp.kr", "Alice", "alice@corp.kr", is_admin=False, signed_in=True)
BOB = Viewer("bob@corp.kr", "Bob", "bob@corp.kr", is_admin=False, signed_in=True)
ADMIN = Viewer("boss@corp.kr", "Boss", "boss@corp.kr", is_admin=True, signed_in=True)
SCREEN = f"test-access-{uuid.uuid4().hex[:8]}"  # a screen name of our own: other rows stay out


def _answer(text: str) -> AgentAnswer:
    return AgentAnswer(answer=text, mode="offline", as_of_date="2026-11-20")


def _turn(viewer: Viewer, question: str, pool: ConnectionPool) -> tuple[str, str]:
    with acting_as(viewer):  # the app's way: the session's viewer, no argument passed
        return runs.record_turn(SCREEN, question, _answer(f"{viewer.name}의 답"), pool=pool)


def test_conversations_and_runs_are_per_user(pg_pool: ConnectionPool) -> None:
    alice_conv, alice_run = _turn(ALICE, "앨리스의 질문", pg_pool)
    bob_conv, bob_run = _turn(BOB, "밥의 질문", pg_pool)
    artifact = runs.save_artifact(
        bob_run, "export", "bob.md", "밥의 보고서", pool=pg_pool, viewer=BOB
    )

    def titles(viewer: Viewer) -> set[str]:
        return {c.title for c in runs.list_conversations(SCREEN, pool=pg_pool, viewer=viewer)}

    assert titles(ALICE) == {"앨리스의 질문"}
    assert titles(BOB) == {"밥의 질문"}
    assert titles(ADMIN) == titles(LOCAL_VIEWER) == {"앨리스의 질문", "밥의 질문"}

    # Someone else's ids, however obtained, find nothing for a plain user.
    assert runs.load_turns(bob_conv, pool=pg_pool, viewer=ALICE) == []
    assert runs.get_messages(bob_conv, pool=pg_pool, viewer=ALICE) == []
    assert runs.get_run(bob_run, pool=pg_pool, viewer=ALICE) is None
    assert runs.list_artifacts(run_id=bob_run, pool=pg_pool, viewer=ALICE) == []
    with acting_as(ALICE):
        assert runs.get_run(bob_run, pool=pg_pool) is None
        assert [r.run_id for r in runs.list_runs(SCREEN, pool=pg_pool)] == [alice_run]

    # Their own, and the admin everything.
    assert [t.question for t in runs.load_turns(alice_conv, pool=pg_pool, viewer=ALICE)] == [
        "앨리스의 질문"
    ]
    assert [t.answer.answer for t in runs.load_turns(bob_conv, pool=pg_pool, viewer=ADMIN)] == [
        "Bob의 답"
    ]
    assert {r.run_id for r in runs.list_runs(SCREEN, pool=pg_pool, viewer=ADMIN)} == {
        alice_run,
        bob_run,
    }
    assert [
        a.artifact_id for a in runs.list_artifacts(run_id=bob_run, pool=pg_pool, viewer=BOB)
    ] == [artifact]
    with pg_pool.connection() as conn:
        rows = conn.execute("SELECT user_id FROM agent_runs WHERE screen = %s", (SCREEN,))
        owners = {r["user_id"] for r in rows}
    assert owners == {"alice@corp.kr", "bob@corp.kr"}


def test_nobody_writes_into_someone_elses_conversation(pg_pool: ConnectionPool) -> None:
    """Checked before anything is written: no stray run, no message."""
    alice_conv, _ = _turn(ALICE, "앨리스의 대화", pg_pool)
    with acting_as(BOB), pytest.raises(AccessDenied, match="다른 사용자의 대화"):
        runs.record_turn(SCREEN, "끼어들기", _answer("밥"), alice_conv, pool=pg_pool)
    with pytest.raises(AccessDenied):
        runs.add_message(alice_conv, "user", "끼어들기", pool=pg_pool, viewer=BOB)
    with pytest.raises(AccessDenied):
        runs.add_message(str(uuid.uuid4()), "user", "없는 대화", pool=pg_pool, viewer=ALICE)
    assert [m.content for m in runs.get_messages(alice_conv, pool=pg_pool, viewer=ADMIN)] == [
        "앨리스의 대화",
        "Alice의 답",
    ]
    assert all(r.question != "끼어들기" for r in runs.list_runs(SCREEN, pool=pg_pool, viewer=ADMIN))
    runs.add_message(alice_conv, "user", "관리자 메모", pool=pg_pool, viewer=ADMIN)
    with acting_as(ALICE):  # her own conversation goes on
        runs.record_turn(SCREEN, "이어서", _answer("계속"), alice_conv, pool=pg_pool)
    assert len(runs.load_turns(alice_conv, pool=pg_pool, viewer=ALICE)) == 2


def test_hostile_ids_are_answered_not_raised(pg_pool: ConnectionPool) -> None:
    """A crafted owner value cannot widen a read: it is a bound parameter, never SQL."""
    mallory = Viewer("x' OR '1'='1", "Mallory", None, is_admin=False, signed_in=True)
    _turn(ALICE, "앨리스만 보는 질문", pg_pool)
    assert runs.list_conversations(SCREEN, pool=pg_pool, viewer=mallory) == []
    assert runs.list_runs(SCREEN, pool=pg_pool, viewer=mallory) == []


def test_uploaded_contracts_are_per_user(pg_pool: ConnectionPool) -> None:
    """The same file uploaded by two users is two contracts; bundled samples are everyone's."""
    samples = ensure_samples(pg_pool)  # bundled: owned by no one, seen by everyone
    data = f"제1조(목적) 이 계약은 {uuid.uuid4().hex} 용역의 조건을 정한다.\n".encode()
    with acting_as(ALICE):
        alice = ingest_file("alice.txt", data, pool=pg_pool)
    with acting_as(BOB):
        bob = ingest_file("bob.txt", data, pool=pg_pool)
    assert alice.contract_id != bob.contract_id

    def visible(viewer: Viewer) -> set[str]:
        return {c.contract_id for c in contract_store.list_contracts(pg_pool, viewer=viewer)}

    assert alice.contract_id in visible(ALICE) and bob.contract_id not in visible(ALICE)
    assert bob.contract_id in visible(BOB) and alice.contract_id not in visible(BOB)
    assert {alice.contract_id, bob.contract_id} <= visible(ADMIN)
    bundled = {c.contract_id for c in samples}
    assert bundled and bundled <= visible(ALICE) & visible(BOB)
