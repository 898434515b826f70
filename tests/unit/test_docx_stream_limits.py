"""DOCX and HWPX decompression bombs are refused while they inflate: each runs in a fresh process whose
peak RSS is measured, and the refusal says why. Wall time is printed (bench/docx_bombs.py reports
it); the subprocess timeout only guards against a hang."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.contract.errors import ContractFileError
from agents.contract.ingest.docx_stream import read_docx
from agents.contract.ingest.readers import read_contract_file
from agents.contract.ingest.zip_stream import ZipLimits
from tests.fixtures.docx_bombs import BOMBS, huge_text_node, nested_zip, refuse_in_child

MAX_EXTRA_RSS_MB = 120  # over the process's own size after imports; python-docx took GBs
REASONS = {
    "huge text node": "배 넘게 풀립니다",
    "short paragraphs": "본문이 너무 깁니다",
    "empty paragraphs": "문단이 너무 많습니다",
}


@pytest.mark.parametrize("name", list(BOMBS))
def test_bomb_is_refused_with_bounded_memory(name: str, tmp_path: Path) -> None:
    file_name, build = BOMBS[name]
    data = build()
    assert len(data) < 200_000  # well under the 5 MB upload limit, ~38 MB inflated
    result = refuse_in_child(file_name, data, tmp_path)
    print(f"{name}: {result['seconds']:.2f} s, peak {result['peak_mb']:.0f} MB")
    reason = REASONS[name.split(": ", 1)[1]]
    assert result["refusal"] is not None and reason in result["refusal"]
    assert result["peak_mb"] - result["base_mb"] < MAX_EXTRA_RSS_MB


def test_each_wall_holds_alone() -> None:
    """Without the ratio check, a huge text node still stops at libxml2's text-node cap."""
    no_ratio = ZipLimits(max_ratio=10**9)
    with pytest.raises(ContractFileError, match="한 덩어리로 된 글자가 너무 깁니다"):
        read_docx(huge_text_node(), no_ratio)
    with pytest.raises(ContractFileError, match="압축을 풀면 너무 큽니다"):
        read_docx(huge_text_node(4 << 20), ZipLimits(max_inflated=2 << 20, max_ratio=10**9))
    with pytest.raises(ContractFileError, match="문단이 너무 많습니다"):
        read_docx(
            BOMBS["docx: empty paragraphs"][1](), ZipLimits(max_paragraphs=1000, max_ratio=10**9)
        )


def test_nested_zip_entry_is_never_inflated(tmp_path: Path) -> None:
    data = nested_zip()
    text, fmt = read_contract_file("c.docx", data)
    assert fmt == "docx" and text == "제1조(목적) 이 계약은 시험용이다."
    result = refuse_in_child("c.docx", data, tmp_path)
    assert result["refusal"] is None
    assert result["peak_mb"] - result["base_mb"] < MAX_EXTRA_RSS_MB
