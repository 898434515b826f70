"""The data-contract glossary applies to the contract types it was written for (glossary.json
'contract_types'), and to a contract whose type is unknown; never to another known type."""

from __future__ import annotations

import pytest

from agents.contract.glossary import applies_to, expand, written_for
from agents.contract.types import contract_types


def test_it_was_written_for_the_data_family_only() -> None:
    assert written_for() == {"provide", "create", "processing", "marketplace"}
    assert written_for() <= {t.id for t in contract_types()}


@pytest.mark.parametrize(
    ("contract_type", "applies"),
    [("provide", True), ("create", True), (None, True), ("other", True), ("lease", False),
     ("terms_of_service", False), ("travel", False), ("", False), ("PROVIDE", False),
     ("provide'; DROP TABLE contracts; --", False)],
)  # fmt: skip
def test_applies_to(contract_type: str | None, applies: bool) -> None:
    assert applies_to(contract_type) is applies


def test_the_expansion_itself_does_not_depend_on_the_type() -> None:
    """The gate is in the index's search (it knows the contract); `expand` stays a pure lookup."""
    expansion = expand("Can we resell the data?")
    assert [c.id for c in expansion.concepts] == ["third_party"]
    assert expansion.added_terms[:3] == ["제3자", "제공", "판매"]
