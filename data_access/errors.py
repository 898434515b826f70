"""One error tree for the workbench: every expected failure is a WorkbenchError.

Driver errors are wrapped with ``raise ... from e`` so callers (pages, agents, tools)
only need to know these classes, and each carries a message a user can read.
"""

from __future__ import annotations


class WorkbenchError(Exception):
    """Root of every error the workbench raises on purpose."""


class ConfigError(WorkbenchError):
    """Settings are missing or contradictory (bad env var, unreadable secrets file)."""


class ServiceStartError(WorkbenchError):
    """An embedded server could not be started (port taken, binary missing, crash on boot)."""


class StoreUnavailable(WorkbenchError):
    """A database (PostgreSQL or the graph store) cannot be reached right now.

    ``store`` says which one ("postgres" or "graph") when the raiser knows, so a screen can
    name it in its message.
    """

    def __init__(self, message: str, *, store: str | None = None) -> None:
        super().__init__(message)
        self.store = store


class QueryRejected(WorkbenchError):
    """A guard refused a query; ``reason`` says why in words a user can act on."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class QueryFailed(WorkbenchError):
    """A query reached the store and failed there (syntax error, timeout, ...)."""


class ToolInputError(WorkbenchError):
    """A tool was called with arguments it cannot use (unknown code, bad period, ...)."""


class ImportFailed(WorkbenchError):
    """An importer could not read or load its source (malformed file, HTTP error, ...)."""
