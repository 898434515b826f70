"""Run fresh question rounds through the screens' own service calls and diff two runs.

A round is a JSON list of `[suite, question]` or `[suite, [earlier…, question]]` (a conversation)
under `bench/fresh/`. Rounds are written before the change they measure; truth is checked by hand
against independent SQL, so this script prints answers, it does not grade them.

    .venv/bin/python bench/fresh_rounds.py run bench/fresh/r110.json --out /tmp/r110-before.json
    .venv/bin/python bench/fresh_rounds.py diff /tmp/r110-before.json /tmp/r110-after.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _cases(path: Path) -> list[tuple[str, str, list[str], str]]:
    """(id, suite, history, question) for each entry of a round file."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for number, (suite, asked) in enumerate(rows, 1):
        turns = [asked] if isinstance(asked, str) else list(asked)
        out.append((f"{path.stem}-{number:02d}", suite, turns[:-1], turns[-1]))
    return out


def run(paths: list[Path], out: Path | None, lines: int) -> None:
    from agents.eval.adapters import ADAPTERS
    from agents.eval.models import GoldenCase
    from agents.eval.runner import make_env

    env = make_env()
    results: list[dict[str, Any]] = []
    for path in paths:
        for case_id, suite, history, question in _cases(path):
            case = GoldenCase(id=case_id, suite=suite, question=question, history=history)  # type: ignore[arg-type]
            started = time.perf_counter()
            try:
                answer = ADAPTERS[suite](case, env)
                status, text = answer.status, answer.answer
            except Exception as error:  # a crash is a finding, not the end of the round
                status, text = "crash", f"{type(error).__name__}: {error}"
            ms = round((time.perf_counter() - started) * 1000)
            results.append({"id": case_id, "suite": suite, "history": history,
                            "question": question, "status": status, "answer": text, "ms": ms})  # fmt: skip
            head = "\n    ".join(text.strip().splitlines()[:lines])
            said = " → ".join([*history, question])
            print(f"[{case_id}] {suite} {status} ({ms} ms) {said}\n    {head}\n", flush=True)
    if out:
        out.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")


def diff(old: Path, new: Path) -> None:
    """The cases whose status or answer changed between two runs."""
    before = {row["id"]: row for row in json.loads(old.read_text(encoding="utf-8"))}
    changed = 0
    for row in json.loads(new.read_text(encoding="utf-8")):
        was = before.get(row["id"])
        if was and (was["status"], was["answer"]) == (row["status"], row["answer"]):
            continue
        changed += 1
        print(f"[{row['id']}] {row['question']}")
        if was:
            print(f"  - {was['status']}: {was['answer'][:300]!r}")
        print(f"  + {row['status']}: {row['answer'][:300]!r}\n")
    print(f"{changed} changed of {len(before)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    runner = commands.add_parser("run")
    runner.add_argument("rounds", nargs="+", type=Path)
    runner.add_argument("--out", type=Path)
    runner.add_argument("--lines", type=int, default=4, help="answer lines printed per case")
    differ = commands.add_parser("diff")
    differ.add_argument("old", type=Path)
    differ.add_argument("new", type=Path)
    args = parser.parse_args()
    if args.command == "run":
        run(args.rounds, args.out, args.lines)
    else:
        diff(args.old, args.new)


if __name__ == "__main__":
    main()
