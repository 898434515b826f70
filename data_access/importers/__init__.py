"""Importers that load real data into the tables the demo dataset uses.

    csv_importer: stock OHLCV (one series, or one per symbol), macro series and ETF holdings
                  from CSV files or DataFrames; close-only files and missing volumes are NULLs
    yahoo:        daily OHLCV from Yahoo Finance (yfinance when installed, else the v8 chart API)
    fred:         FRED series (API key: FRED_API_KEY)

Every import is one transaction that upserts rows, registers the dataset in `datasets` and
records an `import_runs` row; `python -m data_access.importers --help` is the CLI.
"""

from data_access.importers.base import (
    DatasetSpec,
    ImportResult,
    RowFailure,
    register_dataset,
)
from data_access.importers.csv_importer import (
    SymbolImports,
    import_etf_holdings_csv,
    import_macro_csv,
    import_macro_frame,
    import_ohlcv_csv,
    import_ohlcv_csv_symbols,
    import_ohlcv_frame,
    import_ohlcv_frame_symbols,
)
from data_access.importers.fred import import_fred_series
from data_access.importers.loaders import SeriesInfo, StockInfo
from data_access.importers.yahoo import import_yahoo_ohlcv

__all__ = [
    "DatasetSpec",
    "ImportResult",
    "RowFailure",
    "SeriesInfo",
    "StockInfo",
    "SymbolImports",
    "import_etf_holdings_csv",
    "import_fred_series",
    "import_macro_csv",
    "import_macro_frame",
    "import_ohlcv_csv",
    "import_ohlcv_csv_symbols",
    "import_ohlcv_frame",
    "import_ohlcv_frame_symbols",
    "import_yahoo_ohlcv",
    "register_dataset",
]
