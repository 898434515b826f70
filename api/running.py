"""The streamed turns under way, by turn id, so a client can stop one (issue 20).

    POST /api/chat/message/stream      → header X-Turn-Id: 3f0c…, then the events
    POST /api/turns/3f0c…/cancel       → {"turn_id": "3f0c…", "cancelled": true}

Stopping sets the turn's cancel flag (agents.cancel): the service ends within its poll interval
with a `cancelled` answer holding the steps (and streamed text) so far, the stream sends it as
its last event, and the run is stored as cancelled. A client that disconnects stops its turn the
same way (api.streaming). Turn ids are random UUIDs handed only to the client that started the
stream; a finished or unknown id is a 404.
"""

from __future__ import annotations

import threading

from api.turns import Turn

_running: dict[str, Turn] = {}
_lock = threading.Lock()


def started(turn: Turn) -> None:
    with _lock:
        _running[turn.turn_id] = turn


def ended(turn: Turn) -> None:
    with _lock:
        _running.pop(turn.turn_id, None)


def cancel(turn_id: str) -> bool:
    """Set the flag of a running turn; False when no turn with that id is running."""
    with _lock:
        turn = _running.get(turn_id)
    if turn is None:
        return False
    turn.cancel.set()
    return True
