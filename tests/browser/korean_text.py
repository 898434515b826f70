"""English prose in Korean text: what the screen scans (tests/browser/test_analyst_screens.py),
the golden-set answers scan and the opening-days check share.

A word is English prose when it is a lower-case (or only capitalised) Latin word that is not a
name, ticker, acronym or unit: upper-case words and words with digits or inner capitals
(KODEX, KR:005930, EPS, bp after a number, GitHub) pass, and so do the few product names and
lower-case units in ALLOWED; 'percent', 'parallel' and 'not allowed' do not.
"""

from __future__ import annotations

import re
from typing import Any

WORD = re.compile(r"(?<![0-9A-Za-z])[A-Za-z][A-Za-z0-9&'._-]*")  # not a unit after a number
# Mixed-case product and library names the screens name on purpose, and units in lower case.
ALLOWED = {"Atlas", "Workbench", "Python", "English", "Tavily", "PostgreSQL", "FalkorDB", "Neo4j", "Cypher", "Markdown",
           "Streamlit", "yfinance", "pykrx", "litellm", "bp", "ms", "x", "Q&A", "vs"}  # fmt: skip
HANGUL = re.compile(r"[가-힣]")
FILE_NAME = re.compile(r"^[\w-]+\.(json|md|csv|hwpx|hwp|pdf|docx|txt|xlsx)$")
CITING = ("출처:", "관련 기사:")  # a line that lists its sources names documents, in any language
# an entry of an answer's numbered document list: '[3] FOMC statement October 28, 2026 (doc-…)'
SOURCE_ENTRY = re.compile(r"^\[\d+\] ")


def english_words(text: str, allowed: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Words of `text` that are English prose: lower-case (or capitalised) Latin words that are
    not names, tickers, acronyms or units (`allowed`: more names, e.g. the data's own)."""
    found = []
    for word in WORD.findall(text.replace("%p", "%")):  # percentage points
        bare = word.strip("'._-")
        if not bare or bare in ALLOWED or bare in allowed or any(c.isdigit() for c in bare):
            continue
        if FILE_NAME.match(bare):  # opening_result.json, user_provide.md
            continue
        if bare.isupper() or bare[0].isupper() and any(c.isupper() for c in bare[1:]):
            continue  # KODEX, ETF, KRW, HPSP; SK하이닉스's "SK"; names like "GitHub"
        found.append(bare)
    return found


# A particle left for the reader to pick ('삼성전자을(를)', '은(는)', '(으)로'): the writer knows
# the word before it and picks one (agents' particles()).
BOTH_PARTICLES = re.compile(r"[을를은는이가와과]\([을를은는이가와과]\)|\((?:으|이)\)[로라나]")


def both_particles(text: str) -> list[str]:
    """The undecided particles of `text` ('을(를)', '(으)로', …)."""
    return BOTH_PARTICLES.findall(text)


# A stock or series code written where its name belongs ('KR:005930 밸류에이션', '발표 전후
# KR_USDKRW는', '→ KR_USDKRW'); not one in brackets after its name ('삼성전자(KR:005930)').
BARE_CODE = re.compile(
    r"(?<![A-Za-z0-9_(:/.`])(?:KR|US)(?::[A-Z0-9]+|_[A-Z0-9_]+)(?![A-Za-z0-9_)`])"
)


def bare_codes(text: str) -> list[str]:
    """The codes `text` writes in the place of a name (see BARE_CODE)."""
    return BARE_CODE.findall(text)


# An internal id in brackets after a name ('삼성전자(KR:005930)', '한국은행 기준금리(KR_BASE_RATE)',
# '코스피(^KS11)'): the analyst reads the name, a stock with its ticker ('삼성전자(005930)').
BRACKETED_ID = re.compile(r"\((?:(?:KR|US)(?::[A-Z0-9]+|_[A-Z0-9_]+)|\^[A-Z0-9]+)\)")


def bracketed_ids(text: str) -> list[str]:
    """The internal ids `text` writes in brackets (see BRACKETED_ID)."""
    return BRACKETED_ID.findall(text)


# An internal id anywhere on a screen ('KR:005930', 'US:AAPL', 'KR_USDKRW'): a screen names the
# stock or series, a stock with its ticker ('삼성전자 (005930)'); scanned on every screen.
INTERNAL_ID = re.compile(r"(?<![A-Za-z0-9_])(?:KR|US)(?::[A-Z0-9]+|_[A-Z0-9_]+)")


def internal_ids(text: str) -> list[str]:
    """The internal ids `text` shows (see INTERNAL_ID)."""
    return INTERNAL_ID.findall(text)


def is_korean(text: str) -> bool:
    return bool(HANGUL.search(text))


def prose(text: str) -> str:
    """`text` without the lines that cite sources by title ('출처: NVIDIA plunges …', and the
    entries of a numbered document list, '[3] FOMC statement October 28, 2026 (doc-…)'): a title
    is the name of a document (the screens link it; the evidence tables list it)."""
    return "\n".join(line for line in text.splitlines() if not _cites(line.strip()))


def _cites(line: str) -> bool:
    entry = line.lstrip("-* ")
    return entry.startswith(CITING) or bool(SOURCE_ENTRY.match(entry))


NAMES_SQL = """
SELECT name AS n FROM stocks UNION SELECT name_en FROM stocks WHERE name_en IS NOT NULL
UNION SELECT name FROM etfs UNION SELECT alias FROM entity_aliases
"""


def data_names(pool: Any) -> set[str]:
    """The Latin words of the data's names (stocks, ETFs, aliases): 'JYP Ent.', 'Eli Lilly'."""
    from data_access.postgres import fetch_all

    words: set[str] = set()
    for row in fetch_all(NAMES_SQL, None, pool):
        words.update(w.strip("'._-") for w in WORD.findall(str(row["n"] or "")))
    return words
