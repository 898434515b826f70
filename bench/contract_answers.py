"""Contract answer precision on documents written here and never tuned on (issue 32).

    python bench/contract_answers.py [--failures]

Ingests the contracts of tests/fixtures/contracts/made_here/answers.json as real HWPX / HWP / PDF /
DOCX files (as uploads are read): the three written here and the real public ones of
tests/fixtures/contracts/ (lease_housing as HWP, travel_domestic and deposit_terms as PDF,
overseas_purchase_terms as HWPX, mobile_game_terms as DOCX, and those of the answer sets only:
freight_terms, sw_freelance, sw_employment, sm_maintenance, ftc_nda,
ftc_indexation, ftc_short_change, ftc_no_indexation, ftc_direct_payment; answers.json 'contracts'), asks
every question of answers.json through the screen's `ask` (offline), and prints per document:
fact first (the answering fact in the answer's first line), quoted whole (the labelled clause's
항/호 line quoted whole, holding the fact), right 항 (for questions labelled with the 항/호 that
answers: that very 항/호 cited and quoted; nan where no question of the set has a 항 label) and
"no such clause" for questions the contract lacks. `--sets fresh-9` limits the run to those sets
(fresh-8, fresh-9: each written before the code of its session ran on it; see answers.json's
_about; `--sets '' fresh-4 …` with an empty name includes the questions of no set).
With a model configured (LLM_MODEL_CONTRACT …), the answers come through the model path and the
last line counts how its 항/호 judge compared with the offline answer (agree, disagree, not used:
a reply naming no candidate; not asked: not a one-topic content question, or a failed call).
`--classify` counts each document's misses by kind (AnswerCheck.miss: said absent, wrong article,
wrong 항, fact not first, answered absent), how many quote another clause as the answer ('wrong,
ok') and how many said-absent ones list the right clause as related ('absent, related'), and lists
them with the clause wanted and cited. `--recall` prints, per document and set, recall@1 and
recall@5 of the labelled article in the screen's search (agents.contract.service.search, hybrid)
over the present questions. A document the reader refuses is named first ('refused at ingest:
…'); its questions count as misses (ftc_direct_payment was, until its numbered paragraphs, no
제N조, were read as '제1항' …).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.contract.answer_eval import (  # noqa: E402
    PREFIX,
    AnswerCheck,
    evaluate,
    ingest,
    load_questions,
    recall_at,
    refused_answer,
    summarize,
)
from agents.contract.service import ask, search  # noqa: E402
from data_access.contracts import AgentAnswer  # noqa: E402
from data_access.postgres import get_pool  # noqa: E402
from tests.fixtures.contracts.files import MADE_HERE, contract_file  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--failures", action="store_true", help="print every failed question")
    parser.add_argument("--sets", nargs="*", help="only the questions of these sets")
    parser.add_argument("--classify", action="store_true", help="count the misses by their kind")
    parser.add_argument("--recall", action="store_true", help="R@1/R@5 of the labelled article")
    args = parser.parse_args()
    pool = get_pool()
    contracts, questions = load_questions(MADE_HERE)
    if args.sets:
        questions = [q for q in questions if q.set in args.sets]
        contracts = {c: f for c, f in contracts.items() if any(q.contract == c for q in questions)}
    refused = ingest(contracts, contract_file, pool)
    for name, reason in refused.items():
        print(f"refused at ingest: {name} ({contracts[name]}): {reason}")
    started = time.perf_counter()
    checks: list[str] = []  # the model path's clause_check per answer ('' when none ran)

    def asked(cid: str, q: str) -> AgentAnswer:
        if cid.removeprefix(PREFIX) in refused:
            checks.append("")
            return refused_answer(refused[cid.removeprefix(PREFIX)])
        answer = ask(cid, q, pool=pool, save=False)
        step = next((t for t in answer.trace if t.name == "clause_check"), None)
        checks.append("" if step is None else "not used" if step.status == "error" else
                      "agree" if step.arguments.get("agree") else "disagree")  # fmt: skip
        return answer

    results = evaluate(questions, asked)
    elapsed = time.perf_counter() - started
    print(
        f"{'document':<24} {'fmt':<5} {'n':>3} {'fact 1st':>8} {'quoted':>7} {'항':>5} {'absent':>6} {'no-clause':>9}"
    )
    for doc, row in summarize(results).items():
        print(table_row(doc, contracts[doc], row))
    sets = sorted({r.question.set for r in results if r.question.set})
    for name in sets:
        print(f"-- set {name} (questions written after the code they measure):")
        subset = [r for r in results if r.question.set == name]
        for doc, row in summarize(subset).items():
            print(table_row(doc, contracts[doc], row))
        print(table_row("all", "", summarize(subset, key=lambda q: "all")["all"]))
    print(f"{len(results)} questions in {elapsed:.1f} s")
    if any(checks):  # a model is configured (LLM_MODEL_CONTRACT): how its 항/호 judge went
        kinds = {"agree": "agree", "disagree": "disagree", "not used": "not used", "": "not asked"}
        print("model 항/호 judge vs the offline answer: "
              + ", ".join(f"{name} {checks.count(k)}" for k, name in kinds.items()))  # fmt: skip
    if args.classify:
        print_misses(results)
    if args.recall:
        ranks = recall_at(questions, lambda cid, q: [] if cid.removeprefix(PREFIX) in refused
                          else search(cid, q, top=5, pool=pool))  # fmt: skip
        print(f"{'recall':<24} {'n':>3} {'R@1':>5} {'R@5':>5}")
        for name, rows in ranks.items():
            print(
                f"{name:<24} {len(rows):>3} {sum(r == 0 for r in rows) / len(rows):>5.2f} "
                f"{sum(r is not None for r in rows) / len(rows):>5.2f}"
            )
    if args.failures:
        for r in results:
            if not r.passed or r.right_clause is False:
                mark = f" ({r.question.set})" if r.question.set else ""
                print(f"- [{r.question.contract}]{mark} {r.question.q} → {r.first_line[:160]}")
    return 0


def table_row(name: str, fmt: str, row: dict[str, float | int]) -> str:
    """One line of the table: a document's (or a set's) figures under the header's columns."""
    return (f"{name:<24} {fmt:<5} {row['answerable']:>3} {row['fact_first']:>8.2f} "
            f"{row['quoted_whole']:>7.2f} {row['right_clause']:>5.2f} {row['absent']:>6} "
            f"{row['no_clause']:>9.2f}")  # fmt: skip


def print_misses(results: list[AnswerCheck]) -> None:
    """Misses per document by kind (AnswerCheck.miss) and how many quote another clause as the
    answer (wrong article + answered absent: wrong with status ok, the worst for a reader; 'said
    absent' is an honest miss that lists the nearest clauses as related), then each one."""
    kinds = ("said absent", "wrong article", "wrong 항", "fact not first", "answered absent")
    print(f"{'misses':<24} " + " ".join(f"{k:>15}" for k in kinds)
          + f" {'wrong, ok':>10} {'absent, related':>16}")  # fmt: skip
    docs = [*dict.fromkeys(r.question.contract for r in results), "all"]
    for doc in docs:
        mine = [r for r in results if doc in ("all", r.question.contract)]
        rows = [r.miss for r in mine]
        wrong_ok = rows.count("wrong article") + rows.count("answered absent")
        # said absent, the right clause listed among the related ones the answer names
        shown = sum(1 for r in mine if r.miss == "said absent" and r.right_related)
        print(f"{doc:<24} " + " ".join(f"{rows.count(k):>15}" for k in kinds)
              + f" {wrong_ok:>10} {shown:>16}")  # fmt: skip
    for r in results:
        if r.miss:
            print(
                f"  {r.miss:<15} [{r.question.contract}] {r.question.q} (want {r.question.article} "
                f"{r.question.clause or ''}; cited {', '.join(r.cited[:2]) or '-'})"
            )


if __name__ == "__main__":
    sys.exit(main())
