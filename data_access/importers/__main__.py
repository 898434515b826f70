"""Command line for the importers; prints one summary line per import run.

    python -m data_access.importers csv --kind ohlcv --file prices.csv --security-id US:XYZ
    python -m data_access.importers csv --kind ohlcv --file stocks.csv --country US  # symbol column
    python -m data_access.importers csv --kind ohlcv --file 삼성전자.csv --code 005930 --country KR \\
        --name 삼성전자 --market KOSPI --sector 반도체
    python -m data_access.importers csv --kind macro --file base_rate.csv --series-code KR_BASE_RATE \\
        --name-ko "한국은행 기준금리" --country KR --unit percent --frequency monthly
    python -m data_access.importers csv --kind holdings --file pdf.csv --etf-code 069500
    python -m data_access.importers yahoo --ticker AAPL --start 2024-01-01
    python -m data_access.importers fred --series FEDFUNDS --start 2020-01-01
    python -m data_access.importers molit --file "아파트(매매)_실거래가.csv"
    python -m data_access.importers dart --kind list --file list.json   # or --kind accounts
    python -m data_access.importers ecos --file StatisticSearch.json
    python -m data_access.importers kosis --file cpi.csv --series-code KR_CPI --row 시도별=전국
    python -m data_access.importers news --file economy.xml --file export.jsonl

Every run ends by projecting what it loaded into the graph (only the ETFs, stocks, series and
dates it changed; `--no-project` leaves that to `python -m data_access.projection
--retry-lagging`). A projection failure keeps the import and marks the graph as behind.

Exit status: 0 ok, 3 partial (good rows loaded, some failed), 1 error (nothing loaded),
4 loaded but the graph projection failed (the graph is behind until a retry succeeds).
PostgreSQL is DATABASE_URL when set, otherwise the embedded server of WORKBENCH_HOME.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from datetime import date
from pathlib import Path

from psycopg_pool import ConnectionPool

from data_access.config import get_settings
from data_access.errors import WorkbenchError
from data_access.importers import sources_cli
from data_access.importers.base import ImportResult
from data_access.importers.csv_importer import (
    SymbolImports,
    import_etf_holdings_csv,
    import_macro_csv,
    import_ohlcv_csv,
    import_ohlcv_csv_symbols,
)
from data_access.importers.fred import import_fred_series
from data_access.importers.loaders import SeriesInfo, StockInfo
from data_access.importers.yahoo import import_yahoo_ohlcv

EXIT_OK, EXIT_ERROR, EXIT_PARTIAL, EXIT_GRAPH_BEHIND = 0, 1, 3, 4


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m data_access.importers", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--json", action="store_true", help="print the run as JSON")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument(
        "--no-project",
        action="store_true",
        help="skip the graph projection after the import (the graph stays behind until "
        "`python -m data_access.projection --retry-lagging`)",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    csv_cmd = sub.add_parser("csv", help="a CSV file: stock OHLCV, a macro series or ETF holdings")
    csv_cmd.add_argument("--kind", choices=("ohlcv", "macro", "holdings"), required=True)
    csv_cmd.add_argument("--file", type=Path, required=True)
    _stock_args(csv_cmd)
    csv_cmd.add_argument("--code", help="native code (with --country) instead of --security-id")
    csv_cmd.add_argument(
        "--country", help="KR | US (stock or series country; holdings: bare codes)"
    )
    csv_cmd.add_argument(
        "--default-volume",
        type=int,
        help="volume to store for a file without a volume column (default: none, NULL)",
    )
    csv_cmd.add_argument("--series-code", help="macro: series code, e.g. KR_BASE_RATE")
    csv_cmd.add_argument("--name-ko", help="macro: Korean name")
    csv_cmd.add_argument("--unit", help="macro: percent, index, KRW per USD, ...")
    csv_cmd.add_argument(
        "--frequency", choices=("daily", "weekly", "monthly", "quarterly", "annual")
    )
    csv_cmd.add_argument("--value-column", help="macro: the column holding the values")
    csv_cmd.add_argument(
        "--etf-code", help="holdings: ETF code when the file has no etf_code column"
    )

    yahoo = sub.add_parser("yahoo", help="daily OHLCV from Yahoo Finance")
    yahoo.add_argument("--ticker", required=True, help="AAPL, 005930.KS, 035720.KQ, ...")
    yahoo.add_argument("--start", type=date.fromisoformat, required=True)
    yahoo.add_argument("--end", type=date.fromisoformat)
    _stock_args(yahoo)
    yahoo.add_argument("--base-url", help="chart API base URL (default query1.finance.yahoo.com)")
    yahoo.add_argument(
        "--no-yfinance", action="store_true", help="use the chart API even if yfinance is installed"
    )

    fred = sub.add_parser("fred", help="a FRED series (needs FRED_API_KEY)")
    fred.add_argument("--series", required=True, help="FEDFUNDS, DGS10, CPIAUCSL, ...")
    fred.add_argument("--start", type=date.fromisoformat)
    fred.add_argument("--end", type=date.fromisoformat)
    fred.add_argument("--name-ko", help="Korean name (default: a built-in name or the FRED title)")
    fred.add_argument("--country", default="US")
    fred.add_argument("--base-url", help="API base URL (default api.stlouisfed.org)")
    sources_cli.add_commands(sub)  # MOLIT, OpenDART, ECOS, KOSIS, news (issue 35)
    return parser


def _stock_args(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("--security-id", help="KR:005930, US:AAPL, ...")
    cmd.add_argument("--name", help="stock name (macro: English series name)")
    cmd.add_argument("--name-en")
    cmd.add_argument("--market", help="KOSPI | KOSDAQ | NASDAQ | NYSE")
    cmd.add_argument("--sector")
    cmd.add_argument("--currency", help="KRW | USD")


def _stock_metadata(args: argparse.Namespace) -> StockInfo | None:
    """The stock fields given on the command line (the id comes from --security-id/--code)."""
    fields = (args.name, args.name_en, args.market, args.sector, args.currency)
    return StockInfo("", *fields) if any(fields) else None


def _run_csv(args: argparse.Namespace, pool: ConnectionPool) -> ImportResult | SymbolImports:
    if args.kind == "ohlcv" and not (args.security_id or args.code):
        return import_ohlcv_csv_symbols(
            args.file, country=args.country, default_volume=args.default_volume, pool=pool
        )
    if args.kind == "ohlcv":
        return import_ohlcv_csv(
            args.file, args.security_id, code=args.code, country=args.country,
            stock=_stock_metadata(args), default_volume=args.default_volume, pool=pool,
        )  # fmt: skip
    if args.kind == "macro":
        missing = [
            o
            for o in ("series_code", "name_ko", "country", "unit", "frequency")
            if not getattr(args, o)
        ]
        if missing:
            raise SystemExit(
                "csv --kind macro needs " + ", ".join("--" + m.replace("_", "-") for m in missing)
            )
        series = SeriesInfo(
            args.series_code, args.name or args.name_ko, args.name_ko, args.country.upper(),
            args.unit, args.frequency, f"csv:{args.file.name}",
        )  # fmt: skip
        return import_macro_csv(args.file, series, value_column=args.value_column, pool=pool)
    return import_etf_holdings_csv(
        args.file, etf_code=args.etf_code, country=args.country or "KR", pool=pool
    )


def _run(args: argparse.Namespace, pool: ConnectionPool) -> ImportResult | SymbolImports:
    if args.command == "csv":
        return _run_csv(args, pool)
    if args.command in sources_cli.COMMANDS:
        return SymbolImports(sources_cli.run_command(args, pool), {})
    if args.command == "yahoo":
        return import_yahoo_ohlcv(
            args.ticker, start=args.start, end=args.end, security_id=args.security_id,
            stock=_stock_metadata(args),
            base_url=args.base_url, use_yfinance=False if args.no_yfinance else None, pool=pool,
        )  # fmt: skip
    return import_fred_series(
        args.series, start=args.start, end=args.end, name_ko=args.name_ko, country=args.country,
        base_url=args.base_url, pool=pool,
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    from data_access.postgres import get_pool, migrate

    settings = get_settings()
    try:
        # With DATABASE_URL no embedded server (and no graph server) is started.
        pool = get_pool(settings.database_url or None, settings)
        migrate(pool)
        outcome = _run(args, pool)
    except WorkbenchError as e:
        print(f"import failed: {e}", file=sys.stderr)
        return EXIT_ERROR
    done = outcome if isinstance(outcome, SymbolImports) else SymbolImports([outcome], {})
    if args.json:
        dicts = [r.to_dict() for r in done.results]
        print(json.dumps(dicts[0] if len(dicts) == 1 and not done.failed else dicts,
                         ensure_ascii=False, indent=2))  # fmt: skip
    else:
        for result in done.results:
            print(result.summary_line())
            for failure in result.failures[:10]:
                print(f"  failed: {failure.describe()}")
    for symbol, error in done.failed.items():
        print(f"import failed ({symbol}): {error}", file=sys.stderr)
    if not done.results:
        return EXIT_ERROR
    projected = args.no_project or (
        _follow_with_projection(pool) and sources_cli.project_what_changed(args, pool)
    )
    if not projected:
        return EXIT_GRAPH_BEHIND
    partial = done.failed or any(r.status == "partial" for r in done.results)
    return EXIT_PARTIAL if partial else EXIT_OK


def _follow_with_projection(pool: ConnectionPool) -> bool:
    """Project what this run (and any earlier lagging write) loaded; False if it failed."""
    from data_access.projection.backlog import catch_up

    try:
        result = catch_up(pool)
    except WorkbenchError as e:
        print(f"graph projection failed: {e}", file=sys.stderr)
        return False
    failed = result.status == "error"
    print(result.summary_line(), file=sys.stderr if failed else sys.stdout)
    return not failed


if __name__ == "__main__":
    sys.exit(main())
