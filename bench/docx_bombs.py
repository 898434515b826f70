"""DOCX and HWPX decompression bombs (issue 22): how fast each is refused, the reader's peak memory.

    python bench/docx_bombs.py [--rounds 3] [--inflate-mb 38]

Each bomb (tests/fixtures/docx_bombs.py: one huge text node, ~1 M one-character paragraphs,
~6 M empty paragraphs, as DOCX and as HWPX; a nested zip entry that must never be inflated) is read by
`read_contract_file` in a fresh process per round; prints the file size, the refusal, p50/max wall
seconds and the peak RSS over the process's size after imports.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.docx_bombs import BOMBS, nested_zip, refuse_in_child  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--inflate-mb", type=int, default=38)
    args = parser.parse_args()
    inflated = args.inflate_mb << 20
    builders = {**BOMBS, "docx: nested zip entry": ("c.docx", nested_zip)}
    print(f"{'bomb':<24} {'file KB':>8} {'p50 s':>6} {'max s':>6} {'+RSS MB':>8}  refusal")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (file_name, build) in builders.items():
            data = build(inflated)
            runs = [refuse_in_child(file_name, data, Path(tmp)) for _ in range(args.rounds)]
            seconds = [r["seconds"] for r in runs]
            extra = max(r["peak_mb"] - r["base_mb"] for r in runs)
            refusal = runs[0]["refusal"] or "(accepted)"
            print(f"{name:<24} {len(data) / 1024:>8.0f} {statistics.median(seconds):>6.2f} "
                  f"{max(seconds):>6.2f} {extra:>8.1f}  {refusal[:70]}")  # fmt: skip


if __name__ == "__main__":
    main()
