"""A follow-up question stays in its conversation even when the browser sends an old picker's value.

After a first question opens a conversation, the page draws a fresh "지난 대화" box for it. A
browser whose page had not finished redrawing still holds the old box and sends its value
("새 대화") with the next question (seen in Chromium under load: the contract screen then started
a new conversation and the first turn vanished from the screen). AppTest cannot make a browser
lag, so these tests send exactly what that browser sent: the current widget states plus the old
box's state, through AppTest's `_run(widget_state=...)` (the hook `run()` itself uses).
Real test stores, offline planner.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _open(page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _ask_contract(at: AppTest, question: str) -> None:
    next(t for t in at.text_input if t.label == "질문").input(question)
    next(b for b in at.button if "질문하기" in str(b.label)).click()


def _ask_chat(at: AppTest, question: str) -> None:
    at.chat_input[0].set_value(question)


def _contract_questions(at: AppTest) -> list[str]:
    return [t["question"] for t in at.session_state["contract_turns"]["sample-user-provide"]]


def _chat_questions(screen: str) -> Callable[[AppTest], list[str]]:
    return lambda at: [t["question"] for t in at.session_state[f"{screen}_turns"]]


CASES = {
    "contract": ("pages/contract_clauses.py", "contract_conversation_picker:new", _ask_contract,
                 _contract_questions, "제11조 비밀유지 기간은?"),
    "etf": ("pages/etf_chat.py", "etf_conversation_picker:new", _ask_chat, _chat_questions("etf"),
            "KODEX 200 정보 알려줘"),
}  # fmt: skip


@pytest.mark.parametrize("screen", list(CASES))
def test_an_old_pickers_value_does_not_close_the_conversation(
    screen: str, pg_pool: Any, demo_data: Any
) -> None:
    page, old_key, ask, questions, question = CASES[screen]
    at = _open(page)
    old_box = [w for w in at._tree.get_widget_states().widgets if w.id.endswith(old_key)]
    assert len(old_box) == 1, "the first view draws the '새 대화' box"

    ask(at, f"{question} (1)")
    at.run()
    assert questions(at) == [f"{question} (1)"]

    ask(at, f"{question} (2)")
    states = at._tree.get_widget_states()
    assert not any(w.id.endswith(old_key) for w in states.widgets)  # the page dropped that box
    states.widgets.extend(old_box)
    at._run(widget_state=states)

    assert not at.exception, [e.value for e in at.exception]
    assert questions(at) == [f"{question} (1)", f"{question} (2)"]
