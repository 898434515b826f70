"""Contract-screen errors (subclasses of the workbench tree, with Korean messages)."""

from __future__ import annotations

from data_access.errors import ToolInputError, WorkbenchError


class ContractFileError(ToolInputError):
    """An uploaded file cannot become a contract (empty, too big, encrypted, malformed...)."""


class ContractNotFound(WorkbenchError):
    """No stored contract has that id."""
