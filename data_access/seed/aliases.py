"""`entity_aliases` rows: other names people use for a stock or an ETF."""

from __future__ import annotations

import pandas as pd

from data_access.seed import reference


def alias_rows(stocks: pd.DataFrame, etfs: pd.DataFrame) -> pd.DataFrame:
    rows: set[tuple[str, str, str]] = set()
    for sid, name, name_en, name_ko, aliases in zip(
        stocks["security_id"],
        stocks["name"],
        stocks["name_en"],
        stocks["name_ko"],
        stocks["aliases"],
        strict=True,
    ):
        for alias in [name_en, name_ko, *reference.split_list(aliases)]:
            if alias and alias != name and not str(alias).startswith("Synthetic "):
                rows.add(("stock", str(alias), sid))
    rows |= _etf_brand_aliases(etfs)
    frame = pd.DataFrame(sorted(rows), columns=["kind", "alias", "target"])
    return frame.reset_index(drop=True)


def _etf_brand_aliases(etfs: pd.DataFrame) -> set[tuple[str, str, str]]:
    """ETF names under a manager's former or current other brand (ARIRANG 200 = PLUS 200)."""
    managers = reference.managers()
    out: set[tuple[str, str, str]] = set()
    for row in managers.itertuples(index=False):
        for other in reference.split_list(row.former_brands):
            prefix = f"{row.brand} "
            for code, name in zip(etfs["code"], etfs["name"], strict=True):
                if name.startswith(prefix):
                    out.add(("etf", other + " " + name[len(prefix) :], code))
    return out
