"""Every day of the demo window, as the opening screen offers it: the offline script's themes
cover at least two of the day's three biggest news-backed moves, and no line of the script is
English (issue 33).

The days are the screen's own list (`news_days`: trading days with news in the last
DAYS_LISTED days); the biggest moves are the editor's list of agents.eval.opening_editor (one
SQL statement over the stores, sharing no code with the screen's ranking). A script line may
name companies, tickers and units in Latin letters (NVIDIA, JYP Ent., EPS, S&P 500), not prose;
source titles are citations, kept apart from the lines. Prints the figure it computed.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.eval.opening_editor import MIN_COVERED, coverage_of
from agents.opening.service import news_days, run_opening
from tests.browser.korean_text import data_names, english_words

pytestmark = pytest.mark.usefixtures("demo_data")


def test_every_demo_day_leads_with_the_biggest_news_backed_moves_in_korean(
    settings: Any, pg_pool: Any
) -> None:
    days = [day for day, _ in news_days(pg_pool)]
    assert len(days) >= 60, "the demo window lists its trading days with news"
    missed, english, covered, items = [], [], 0, 0
    names = data_names(pg_pool)  # 'JYP Ent.' is a name
    for day in days:
        answer = run_opening(day, settings=settings, pool=pg_pool, save=False)
        assert answer.status == "ok", (day, answer.error)
        cov = coverage_of(day, "tune", answer, pg_pool)
        covered, items = covered + cov.covered, items + len(cov.top)
        if cov.covered < min(MIN_COVERED, len(cov.top)):
            missed.append(f"{day}: {cov.covered}/{len(cov.top)} "
                          f"{[(i.name, i.change_pct) for i in cov.top if not i.covered]} "
                          f"themes {cov.themes}")  # fmt: skip
        for line in answer.payload["scripts"]:
            words = english_words(line["text"], names)
            if words:
                english.append(f"{day} #{line['id']}: {sorted(set(words))} {line['text']!r}")
        for theme in answer.payload["theme"]:
            words = english_words(f"{theme['headline']} {theme['description']}", names)
            if words:
                english.append(f"{day} theme: {sorted(set(words))} {theme['headline']!r}")
    print(f"\nopening themes: {len(days) - len(missed)}/{len(days)} days cover >= {MIN_COVERED} "
          f"of the 3 biggest news-backed moves ({covered}/{items} moves covered); "
          f"{len(english)} English lines")  # fmt: skip
    assert not missed, "\n".join(missed)
    assert not english, "\n".join(english[:20])
