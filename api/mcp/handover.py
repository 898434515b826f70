"""The stdio front's hand-over to the SDK's server (api.mcp.front): what the front answered is
replayed to the SDK's session so its state is the one the client saw, and the SDK's answer to
the replayed `initialize` (or `server/discover`) is dropped (the client has its answer already).

    reader = ReplayedReadStream(read, replay_messages(front))
    writer = DropReplayedWriteStream(write)
"""

from __future__ import annotations

import logging
from types import TracebackType
from typing import Any

import mcp_types as types
from mcp.shared.message import SessionMessage

from api.mcp.front import REPLAYED_ID, Front

logger = logging.getLogger(__name__)


def _message(raw: dict[str, Any]) -> SessionMessage:
    return SessionMessage(types.jsonrpc_message_adapter.validate_python(raw, by_name=False))


def replay_messages(front: Front) -> list[SessionMessage | Exception]:
    """The client's opening request (under REPLAYED_ID) and initialized notification as the
    front took them, then the lines it left to the SDK, parsed as the SDK's stdio transport does."""
    replay: list[SessionMessage | Exception] = []
    if front.opening is not None:  # initialize, or server/discover
        replay.append(_message({"jsonrpc": "2.0", "id": REPLAYED_ID, **front.opening}))
    if front.initialized:
        replay.append(_message({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    for line in front.pending:
        text = line.decode("utf-8", errors="replace")
        try:
            message = types.jsonrpc_message_adapter.validate_json(text, by_name=False)
        except Exception as e:  # answered as a parse error (api.mcp.errors.ParseErrorReadStream)
            replay.append(e)
            continue
        replay.append(SessionMessage(message))
    return replay


class ReplayedReadStream:
    """The SDK's stdio read stream, with the front's replayed messages first."""

    def __init__(self, inner: Any, replay: list[SessionMessage | Exception]) -> None:
        self._inner = inner
        self._replay = list(replay)
        self._replaying = False

    @property
    def last_context(self) -> Any:  # the sender's context (none for a replayed message)
        return None if self._replaying else getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        if self._replay:
            self._replaying = True
            return self._replay.pop(0)
        self._replaying = False
        item: SessionMessage | Exception = await self._inner.receive()
        return item

    def __aiter__(self) -> ReplayedReadStream:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        if self._replay:
            self._replaying = True
            return self._replay.pop(0)
        self._replaying = False
        item: SessionMessage | Exception = await self._inner.__anext__()
        return item

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> ReplayedReadStream:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> bool | None:  # fmt: skip
        result: bool | None = await self._inner.__aexit__(exc_type, exc, tb)
        return result


class DropReplayedWriteStream:
    """The SDK's stdio write stream without its answer to the replayed opening request."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def send(self, item: SessionMessage, /) -> None:
        message = item.message
        if getattr(message, "id", None) == REPLAYED_ID:
            if isinstance(message, types.JSONRPCError):  # the SDK refused what the front took
                logger.error("MCP stdio: the replayed opening request failed: %s", message.error)
            return
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> DropReplayedWriteStream:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> bool | None:  # fmt: skip
        result: bool | None = await self._inner.__aexit__(exc_type, exc, tb)
        return result
