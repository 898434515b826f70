"""CLI subcommands for Korean public sources and news (wired into `python -m data_access.importers`).

python -m data_access.importers molit --file "아파트(매매)_실거래가_20241031.csv"
python -m data_access.importers dart --kind list --file list.json
python -m data_access.importers dart --kind accounts --file fnlttSinglAcnt.json
python -m data_access.importers ecos --file StatisticSearch.json
python -m data_access.importers ecos --file ecos.csv --series-code KR_USDKRW
python -m data_access.importers kosis --file cpi.csv --series-code KR_CPI --row 시도별=전국
python -m data_access.importers news --file economy.xml --file export.jsonl
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from psycopg_pool import ConnectionPool

from data_access.importers.base import ImportResult

COMMANDS = ("molit", "dart", "ecos", "kosis", "news")


def add_commands(sub: Any) -> None:
    """Add the subcommands to the importers' argparse subparsers."""
    molit = sub.add_parser("molit", help="국토교통부 아파트 매매 실거래가 CSV (CP949)")
    molit.add_argument("--file", type=Path, required=True)

    dart = sub.add_parser("dart", help="OpenDART list.json / fnlttSinglAcnt.json")
    dart.add_argument("--kind", choices=("list", "accounts"), required=True)
    dart.add_argument("--file", type=Path, required=True)

    ecos = sub.add_parser("ecos", help="한국은행 ECOS StatisticSearch JSON or CSV download")
    ecos.add_argument("--file", type=Path, required=True)
    ecos.add_argument("--series-code", help="series code (CSV: required; JSON: one series only)")
    ecos.add_argument("--row", action="append", default=[], metavar="열=값")

    kosis = sub.add_parser("kosis", help="KOSIS statistic table CSV download")
    kosis.add_argument("--file", type=Path, required=True)
    kosis.add_argument("--series-code", required=True)
    kosis.add_argument("--name-ko")
    kosis.add_argument("--unit")
    kosis.add_argument("--row", action="append", default=[], metavar="열=값")

    news = sub.add_parser("news", help="news: RSS 2.0 / Atom feeds, JSONL or CSV exports")
    news.add_argument("--file", type=Path, action="append", required=True)
    news.add_argument(
        "--source", help="outlet name when the file does not say (default: feed title)"
    )


def _where(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--row는 열=값 형식이어야 합니다: {pair}")
        out[key.strip()] = value.strip()
    return out


def run_command(args: argparse.Namespace, pool: ConnectionPool) -> list[ImportResult]:
    """Run one of COMMANDS; ImportFailed propagates (the CLI prints it)."""
    if args.command == "molit":
        from data_access.importers.molit import import_molit_apt_trades

        return [import_molit_apt_trades(args.file, pool)]
    if args.command == "dart":
        from data_access.importers.dart import import_dart_accounts, import_dart_disclosures

        load = import_dart_disclosures if args.kind == "list" else import_dart_accounts
        return [load(args.file, pool)]
    if args.command == "ecos":
        from data_access.importers.ecos import import_ecos_file

        return import_ecos_file(args.file, series_code=args.series_code, where=_where(args.row),
                                pool=pool)  # fmt: skip
    if args.command == "kosis":
        from data_access.importers.kosis import import_kosis_csv

        return [import_kosis_csv(args.file, series_code=args.series_code, name_ko=args.name_ko,
                                 unit=args.unit, where=_where(args.row), pool=pool)]  # fmt: skip
    from data_access.importers.news import import_news_files

    return [import_news_files(args.file, source=args.source, pool=pool)]


def project_what_changed(args: argparse.Namespace, pool: ConnectionPool) -> bool:
    """Graph steps the backlog's scopes do not cover: news documents, the housing summary."""
    if args.command == "news" or (args.command == "dart" and args.kind == "list"):
        from data_access.importers.news import project_news_documents

        return project_news_documents(pool)
    if args.command == "molit":
        from data_access.errors import WorkbenchError
        from data_access.graph import get_graph_store
        from data_access.projection.runner import project_all

        try:
            report = project_all(get_graph_store(), pool, steps=("re_monthly_summary",))
        except WorkbenchError as e:
            print(f"graph projection failed: {e}", file=sys.stderr)
            return False
        return report.status != "error"
    return True
