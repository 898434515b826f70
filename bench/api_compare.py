"""Before / after for `bench/api.py`, side by side: runs of an older checkout and of this one
alternate, so both see the same load, and their samples are pooled per code and client count.

    git worktree add --detach /tmp/old <commit>
    python bench/api_compare.py --old /tmp/old [--new DIR] [--rounds 4] [--clients 1 4] [--turns 10]

Each round runs `bench/api.py` once on each checkout (old first in odd rounds, new first in
even ones), with this tree's benchmark script and questions. Prints, per checkout and client
count, the pooled p50 / p95 of the first step, of the agent's own first step and of the answer,
the errors and the range of the 1-minute load average over its runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    if not ordered:
        return "-"
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"{statistics.median(ordered):.0f} / {p95:.0f}"


def run(label: str, root: Path, args: argparse.Namespace, samples: Path) -> None:
    command = [sys.executable, str(ROOT / "bench" / "api.py"), "--root", str(root),
               "--samples", str(samples), "--label", label, "--turns", str(args.turns),
               "--clients", *map(str, args.clients)]  # fmt: skip
    out = subprocess.run(command, capture_output=True, text=True, cwd=root)
    if out.returncode != 0:
        print(out.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"bench/api.py failed on {root}")
    print(f"[{label}] " + " | ".join(out.stdout.strip().splitlines()[1:]), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the older checkout (a git worktree)")
    parser.add_argument("--new", default=str(ROOT), help="the newer checkout (default: this one)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--turns", type=int, default=10)
    args = parser.parse_args()
    roots = {"old": Path(args.old).resolve(), "new": Path(args.new).resolve()}
    with tempfile.TemporaryDirectory() as tmp:
        samples = Path(tmp) / "samples.jsonl"
        for index in range(args.rounds):
            for label in ("old", "new") if index % 2 == 0 else ("new", "old"):
                run(label, roots[label], args, samples)
        records = [json.loads(line) for line in samples.read_text().splitlines()]
    print(f"{'code':>4} {'clients':>7} {'turns':>5} {'first step':>12} {'agent step':>12}"
          f" {'answer':>12} {'errors':>6} {'load':>10}")  # fmt: skip
    for clients in args.clients:
        for label in ("old", "new"):
            runs = [r for r in records if r["label"] == label and r["clients"] == clients]
            pooled = {
                key: [v for r in runs for v in r[key]] for key in ("first", "agent", "answer")
            }
            loads = [x for r in runs for x in r["load"]]
            print(f"{label:>4} {clients:>7} {len(pooled['answer']):>5}"
                  f" {percentiles(pooled['first']):>12} {percentiles(pooled['agent']):>12}"
                  f" {percentiles(pooled['answer']):>12} {sum(r['errors'] for r in runs):>6}"
                  f" {min(loads):>4.1f}–{max(loads):<4.1f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
