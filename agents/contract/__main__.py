"""CLI for the contract clauses screen — the same functions the page calls.

python -m agents.contract ingest FILE
python -m agents.contract search (FILE|--contract ID) "질문" [--top 5] [--mode hybrid|bm25|dense] [--json]
python -m agents.contract ask (FILE|--contract ID) "질문" [--json]
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agents.contract.models import ContractInfo

from agents.contract.errors import ContractNotFound
from agents.contract.ingest import worker
from data_access.errors import WorkbenchError


def ingest_file(name: str, data: bytes) -> ContractInfo:
    """`service.ingest_file` without importing the agent graph (LangGraph, litellm: seconds of
    imports an ingestion does not use) or loading Kiwi (~530 MB, seconds): the morphemes are
    analysed when the contract is first searched."""
    from agents.contract.ingest.pipeline import ingest_bytes, upload_name

    return ingest_bytes(upload_name(name), data, analyse=False)


def _contract_id(args: argparse.Namespace) -> str:
    from agents.contract.ingest.pipeline import ensure_samples

    ensure_samples()
    if args.contract:
        return str(args.contract)
    if not args.file:
        raise ContractNotFound("FILE 또는 --contract ID가 필요합니다.")
    path = Path(args.file)
    return ingest_file(path.name, path.read_bytes()).contract_id


def _target(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", help="계약서 파일 (PDF/DOCX/TXT/MD)")
    parser.add_argument("question")
    parser.add_argument("--contract", help="저장된 계약서 ID (예: sample-user-provide)")
    parser.add_argument("--json", action="store_true")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents.contract", description="계약 조항 (seed 002)"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    ingest = sub.add_parser("ingest", help="계약서 파일을 저장하고 색인합니다")
    ingest.add_argument("file")
    find = sub.add_parser("search", help="조항 검색 (순위, 점수)")
    _target(find)
    find.add_argument("--top", type=int, default=5)
    find.add_argument("--mode", choices=("hybrid", "bm25", "dense"), default="hybrid")
    question = sub.add_parser("ask", help="질문 하나에 답합니다")
    _target(question)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    if args.command == "ingest" or (args.file and not args.contract):
        worker.one_shot()  # its imports run while this process imports the rest
    try:
        if args.command == "ingest":
            path = Path(args.file)  # storing an upload needs no standard (search and ask do)
            info = ingest_file(path.name, path.read_bytes())
            print(json.dumps(info.__dict__, ensure_ascii=False, indent=2))
            return 0
        from agents.contract.service import ask, search

        contract_id = _contract_id(args)
        if args.command == "search":
            hits = search(contract_id, args.question, top=args.top, mode=args.mode)
            keys = ("article_no", "branch", "branch_label", "numbering", "part", "part_title",
                    "label", "title", "score", "retrievers")  # fmt: skip
            rows = [{k: h[k] for k in keys} for h in hits]
            if args.json:
                print(json.dumps(rows, ensure_ascii=False, indent=2))
            else:
                for r in rows:
                    print(f"{r['branch_label']:>6}  {r['score']:.4f}  {r['label']}")
            return 0
        answer = ask(contract_id, args.question)
    except (WorkbenchError, OSError) as e:
        print(f"오류: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(answer.model_dump(mode="json"), ensure_ascii=False, indent=2))
    else:
        mode = "오프라인 플래너" if answer.mode == "offline" else f"LLM {answer.model}"
        print(answer.answer)
        print(f"\n— {mode} · {answer.duration_ms} ms", file=sys.stderr)
    return 0 if answer.status in ("ok", "partial") else 2


if __name__ == "__main__":
    sys.exit(main())
