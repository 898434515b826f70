"""The deterministic demo dataset (real Korean ETF and stock codes, generated prices and text).

    from data_access.seed import seed_database, seed_if_missing
    report = seed_if_missing("demo")   # what `make run` does
    python -m data_access.seed --scale demo|market [--if-missing] [--no-project]

Only the demo-scale reference lists (seed/data/*.csv) are real; market scale adds synthetic
stocks (codes 990001+, names '가상…') and ETFs (codes 980001+, names '…(가상)'). Every number
is generated from `settings.demo_seed`: the same seed gives identical tables (checksums in
seed_runs), another seed different ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from data_access.seed.runner import SeedReport, seed_database, seed_if_missing

__all__ = ["SeedReport", "seed_database", "seed_if_missing"]


def __getattr__(name: str) -> Any:
    """The runner (pandas, the builders) loads on first use: answering a question imports
    only the small text helpers of this package (news_text), not 130 MB of pandas/pyarrow."""
    if name in __all__:
        from data_access.seed import runner

        return getattr(runner, name)
    raise AttributeError(name)
