"""Chat-screen conversation state shared by the chat screens (ETF, Macro): the turns in the
session, reopening a saved conversation, saving a turn, and the "지난 대화" picker.

The storage itself is `data_access.runs` (record_turn / load_turns); this module only keeps
Streamlit's session state in step with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import streamlit as st

from agents.understanding.history import HistoryMessage, history_after
from data_access import runs
from data_access.contracts import AgentAnswer
from data_access.errors import WorkbenchError
from pages import _runtime as runtime

NEW_CONVERSATION = ""  # picker value for a conversation not started yet


def distinct_labels(labels: Mapping[str, str]) -> dict[str, str]:
    """Select-box labels that tell every item apart. Streamlit sends the picked option back as
    its label, so two equal labels (the same first question twice in one minute) would open the
    wrong item; each of them gets its place among them, in the order given ('… (2)'), not the
    start of its id ('· 6ebd6510' meant nothing to an analyst)."""
    counts, seen = Counter(labels.values()), Counter[str]()
    out = {}
    for key, label in labels.items():
        seen[label] += 1
        out[key] = label if counts[label] == 1 else f"{label} ({seen[label]})"
    return out


def live_picker_key(base: str, open_id: str | None) -> str:
    """The widget key of a conversation picker while `open_id` is open (see render_picker),
    recorded as the box the page draws now (see is_live_pick)."""
    key = f"{base}:{open_id or 'new'}"
    st.session_state[f"{base}:live"] = key
    return key


def is_live_pick(base: str, key: str) -> bool:
    """Whether a picker's change comes from the box the page draws now. A browser that had not
    finished redrawing after a first question opened a conversation still holds the old box
    and sends its value ("새 대화") with the next question: that is not a pick, and acting on it
    would close the conversation and drop its turns from the screen."""
    return st.session_state.get(f"{base}:live") == key


@dataclass(frozen=True)
class ChatSession:
    """Session-state keys and actions for one screen's chat (`screen` is the run-store screen)."""

    screen: str

    @property
    def conversation_key(self) -> str:
        return f"{self.screen}_conversation_id"

    @property
    def turns_key(self) -> str:
        return f"{self.screen}_turns"

    @property
    def picker_key(self) -> str:
        return f"{self.screen}_conversation_picker"

    @property
    def offered_key(self) -> str:
        return f"{self.screen}_conversation_options"

    def turns(self) -> list[dict[str, Any]]:
        """This session's turns: {"question", "answer": AgentAnswer, "run_id"}."""
        return st.session_state.setdefault(self.turns_key, [])

    def open(self, conversation_id: str | None) -> None:
        st.session_state[self.conversation_key] = conversation_id
        st.session_state[self.turns_key] = []
        if conversation_id is None:
            return
        try:
            turns = runs.load_turns(conversation_id, pool=runtime.pg_pool())
        except WorkbenchError as e:  # runs in a widget callback: an exception would be a traceback
            st.warning(f"대화를 불러오지 못했습니다: {e}", icon=":material/history:")
            return
        for turn in turns:
            self.turns().append(
                {"question": turn.question, "answer": turn.answer, "run_id": turn.run_id}
            )

    def history(self) -> list[HistoryMessage]:
        """The conversation so far for the agent: questions, answers and each answer's frame and
        listed codes (follow-ups such as '그 중 보수가 가장 낮은 건?' resolve against them)."""
        history: list[HistoryMessage] = []
        for turn in self.turns():
            history = history_after(history, turn["question"], turn["answer"])
        return history

    def add_turn(self, question: str, answer: AgentAnswer, *, save: bool = True) -> None:
        """Show the turn in this session and (when `save`) keep it in the run store."""
        run_id = self._save(question, answer) if save else None
        self.turns().append({"question": question, "answer": answer, "run_id": run_id})

    def _save(self, question: str, answer: AgentAnswer) -> str | None:
        try:
            conversation_id, run_id = runs.record_turn(
                self.screen, question, answer, st.session_state.get(self.conversation_key),
                runtime.pg_pool(),
            )  # fmt: skip
        except WorkbenchError as e:
            st.warning(f"대화를 저장하지 못했습니다: {e}", icon=":material/save:")
            return None
        st.session_state[self.conversation_key] = conversation_id
        return run_id

    def render_picker(self, *, new_button: bool = False, disabled: bool = False) -> None:
        """The "지난 대화" select box (and optionally a "새 대화" button); `disabled` while a turn
        runs, so its answer lands in the conversation it was asked in."""
        try:
            conversations = runs.list_conversations(self.screen, limit=30, pool=runtime.pg_pool())
        except WorkbenchError as e:
            st.caption(f"지난 대화를 불러오지 못했습니다: {e}")
            conversations = []
        options = [NEW_CONVERSATION] + [c.conversation_id for c in conversations]
        titles = distinct_labels(
            {c.conversation_id: f"{c.title} ({c.updated_at:%m-%d %H:%M})" for c in conversations}
        )
        st.session_state[self.offered_key] = options
        current = st.session_state.get(self.conversation_key)
        current = current if current in options else NEW_CONVERSATION
        # One widget per open conversation: when a first question creates one (or another is
        # picked) a fresh box starts on it, so the browser never sends back a selection made
        # against an older list of conversations.
        key = live_picker_key(self.picker_key, current)
        left, right = st.columns([4, 1]) if new_button else (st.container(), None)
        left.selectbox(
            "지난 대화", options, index=options.index(current), key=key, on_change=self._on_pick,
            args=(key,), disabled=disabled,
            format_func=lambda cid: "새 대화" if cid == NEW_CONVERSATION else titles.get(cid, cid),
        )  # fmt: skip
        if right is not None:
            right.button("새 대화", icon=":material/add_comment:",
                         key=f"{key}:new", on_click=self._on_new,
                         disabled=disabled)  # fmt: skip

    def _on_pick(self, key: str) -> None:
        if not is_live_pick(self.picker_key, key):
            return
        picked = st.session_state.get(key)
        if picked not in st.session_state.get(self.offered_key, ()):
            return  # a label this run no longer offers comes back as text: keep the open one
        self.open(picked or None)

    def _on_new(self) -> None:
        self.open(None)


class ChatScreen:
    """What a chat screen draws above its turns that the run starting a turn redraws once the
    answer is in, so the answer is drawn in that same run instead of in one more (a whole page
    sent again and drawn again in the browser before the answer's text and charts appeared):
    the conversation picker (a first question opens a conversation) and the example questions
    (gone once one is asked).

        screen = ChatScreen(CHAT, new_button=True)  # where the picker goes
        screen.picker(disabled=live is not None)
        with screen.examples(): ...                 # the example buttons, when there are no turns
        screen.started()                            # a question was asked: examples go
        screen.answered()                           # the turn is kept: picker shows its conversation
    """

    def __init__(self, chat: ChatSession, *, new_button: bool = False) -> None:
        self.chat = chat
        self.new_button = new_button
        self._picker = st.empty()
        self._examples: Any = None
        self._opened: str | None = None

    def picker(self, *, disabled: bool = False) -> None:
        self._opened = st.session_state.get(self.chat.conversation_key)
        with self._picker.container():
            self.chat.render_picker(new_button=self.new_button, disabled=disabled)

    @contextmanager
    def examples(self) -> Iterator[None]:
        self._examples = st.empty()
        with self._examples.container():
            yield

    def started(self) -> None:
        if self._examples is not None:
            self._examples.empty()

    def answered(self) -> None:
        """Redraw the picker when the turn opened a conversation (its widgets' keys name the
        open conversation, so the redrawn ones do not clash with those drawn before)."""
        if st.session_state.get(self.chat.conversation_key) != self._opened:
            with self._picker.container():
                self.chat.render_picker(new_button=self.new_button)
