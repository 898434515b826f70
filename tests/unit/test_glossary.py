"""The bundled finance glossary (issue 14, definitions offline): its content and its lookup.

The content checks read `glossary.json` directly (not through the module), so they catch a bad
file independently of the loader; the loader's own checks are run on broken copies of the file.
The data notes are checked against the real schema (migrations) and the dataset catalogue, so a
note naming a table, column or series the workbench does not have fails here.
"""

from __future__ import annotations

import copy
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from agents.stock.analysis import StockFigures
from agents.understanding.glossary import (
    CATEGORIES,
    GLOSSARY_FILE,
    MAX_QUESTION_CHARS,
    GlossaryError,
    fold,
    load_glossary,
    parse_glossary,
)
from data_access.catalog import CORE_DATASETS

ROOT = Path(__file__).resolve().parents[2]
NOT_HELD_KO = "이 워크벤치 데이터에는 없습니다"
NOT_HELD_EN = "This workbench's data does not hold it"
HANGUL = re.compile(r"[\uac00-\ud7a3]")


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return json.loads(GLOSSARY_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def entries(document: dict[str, Any]) -> list[dict[str, Any]]:
    return document["entries"]


# ---------------------------------------------------------------- content


def test_at_least_180_entries_in_every_category(entries: list[dict[str, Any]]) -> None:
    assert len(entries) >= 180
    assert {e["category"] for e in entries} == CATEGORIES
    assert len(load_glossary()) == len(entries)


def test_ids_unique_and_aliases_owned_by_one_entry(entries: list[dict[str, Any]]) -> None:
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids))
    owners: dict[str, set[str]] = {}
    for e in entries:
        for surface in [e["term_ko"], e["term_en"], *e["aliases"]]:
            owners.setdefault(fold(surface), set()).add(e["id"])
    shared = {alias: ids for alias, ids in owners.items() if len(ids) > 1}
    assert shared == {}
    assert all(len(alias) >= 2 for alias in owners)


def test_related_ids_exist(entries: list[dict[str, Any]]) -> None:
    ids = {e["id"] for e in entries}
    dangling = {(e["id"], r) for e in entries for r in e["related"] if r not in ids or r == e["id"]}
    assert dangling == set()
    assert sum(bool(e["related"]) for e in entries) == len(entries)


def _sentences(text: str) -> int:
    text = text.replace("e.g.", "eg").replace("i.e.", "ie")
    return len(re.findall(r"[.!?](?:\s|$)", text))


def test_every_entry_in_both_languages(entries: list[dict[str, Any]]) -> None:
    for e in entries:
        for lang in ("ko", "en"):
            for key in (f"definition_{lang}", f"in_data_{lang}", f"term_{lang}"):
                assert e[key].strip(), (e["id"], key)
        # plain names, shown as "총보수 (expense ratio)": abbreviations and variants are aliases
        assert "(" not in e["term_ko"] + e["term_en"] and e["term_ko"] != e["term_en"], e["id"]
        assert HANGUL.search(e["term_ko"]) or e["term_ko"].isascii(), e["id"]
        assert not HANGUL.search(e["term_en"]), e["id"]
        assert HANGUL.search(e["definition_ko"]) and HANGUL.search(e["in_data_ko"]), e["id"]
        for key in ("definition_en", "in_data_en"):  # Korean names (tags, ETFs) may be quoted
            latin, hangul = len(re.findall(r"[A-Za-z]", e[key])), len(HANGUL.findall(e[key]))
            assert latin > 2 * hangul, (e["id"], key)
        assert 1 <= _sentences(e["definition_ko"]) <= 3, e["id"]
        assert 1 <= _sentences(e["definition_en"]) <= 3, e["id"]


def test_not_held_notes_agree_between_languages(entries: list[dict[str, Any]]) -> None:
    for e in entries:
        held_ko = not e["in_data_ko"].startswith(NOT_HELD_KO)
        held_en = not e["in_data_en"].startswith(NOT_HELD_EN)
        assert held_ko == held_en, e["id"]
    assert sum(e["in_data_ko"].startswith(NOT_HELD_KO) for e in entries) < len(entries) / 2


def _schema() -> dict[str, set[str]]:
    """Table -> columns, read from the migrations' CREATE TABLE and ADD COLUMN statements."""
    tables: dict[str, set[str]] = {}
    for path in sorted((ROOT / "data_access" / "migrations").glob("*.sql")):
        sql = re.sub(r"--[^\n]*", "", path.read_text(encoding="utf-8"))
        for name, body in re.findall(
            r"CREATE TABLE\s+(?:IF NOT EXISTS\s+)?(\w+)\s*\((.*?)\n\);", sql, flags=re.S | re.I
        ):
            while re.search(r"\([^()]*\)", body):
                body = re.sub(r"\([^()]*\)", "", body)
            columns = {part.split()[0] for part in body.split(",") if part.split()}
            tables[name] = {c for c in columns if c.upper() not in {"PRIMARY", "UNIQUE"}}
        for name, column in re.findall(
            r"ALTER TABLE\s+(\w+)\s+ADD COLUMN\s+(?:IF NOT EXISTS\s+)?(\w+)", sql, flags=re.I
        ):
            tables.setdefault(name, set()).add(column)
    return tables


def test_data_notes_name_real_tables_columns_and_series(entries: list[dict[str, Any]]) -> None:
    schema = _schema()
    assert {"etfs", "etf_prices", "stock_fundamentals", "re_jeonse_ratio"} <= set(schema)
    all_columns = set().union(*schema.values())
    series = {d.dataset_code for d in CORE_DATASETS if d.table_name == "macro_observations"}
    tools_source = (ROOT / "agents" / "etf" / "tools.py").read_text(encoding="utf-8")
    known = set(schema) | all_columns | set(StockFigures.__annotations__)
    problems = []
    for e in entries:
        for note in (e["in_data_ko"], e["in_data_en"]):
            for table, column in re.findall(r"\b([a-z][a-z_]+)\.([a-z][a-z0-9_]*)\b", note):
                if table not in schema or column not in schema[table]:
                    problems.append((e["id"], f"{table}.{column}"))
            for word in re.findall(r"(?<![\w.'])[a-z]+(?:_[a-z0-9]+)+(?![\w.'])", note):
                if word not in known and f'name = "{word}"' not in tools_source:
                    problems.append((e["id"], word))
            for code in re.findall(
                r"\b(?:KR_[A-Z_]+|DGS\d+|FEDFUNDS|CPIAUCSL|UNRATE|VIXCLS)\b", note
            ):
                if code not in series:
                    problems.append((e["id"], code))
    assert problems == []


def test_not_terms_hide_only_words_that_are_not_terms(document: dict[str, Any]) -> None:
    glossary = load_glossary()
    assert document["not_terms"]
    for phrase in document["not_terms"]:
        assert glossary.lookup(phrase) is None, phrase


# ---------------------------------------------------------------- lookup

LOOKUPS = [
    ("ETF 총보수란?", "expense_ratio"),
    ("스프레드가 뭐야?", "spread"),
    ("what is a yield curve inversion", "yield_curve_inversion"),
    ("PER 뜻", "per"),
    ("전세가율이 뭔가요", "jeonse_ratio"),
    ("괴리율이 뭐예요?", "premium_discount"),
    ("iNAV란", "inav"),
    ("NAV가 뭐야", "nav"),
    ("레버리지 ETF란?", "leveraged_etf"),
    ("ETF 레버리지란", "leveraged_etf"),
    ("ETF 이름 끝의 (H)란?", "currency_hedge"),
    ("p/e ratio meaning", "per"),
    ("what is the expense ratio of an ETF", "expense_ratio"),
    ("What does YoY mean for CPI?", "yoy"),
    ("전년동월대비란", "yoy"),
    ("장단기 금리차가 뭐야", "term_spread"),
    ("원 / 달러 환율이란", "usdkrw"),
    ("%p랑 %는 뭐가 달라", "percentage_point"),
    ("3.3㎡당 가격이 뭐야", "price_per_area"),
    ("DSR 규제란", "dsr"),
    ("what is real estate PF", "real_estate_pf"),
    ("TIGER 200의 PER이 뭐야", "per"),
    ("보수적인 ETF의 보수란", "expense_ratio"),
    ("what are ETFs", "etf"),
    ("ＰＥＲ이란", "per"),
    ("점도표 의미", "dot_plot"),
    ("what's the term spread", "term_spread"),
    ("미분양 주택이란", "unsold_housing"),
    ("샤프 지수가 뭐야", "sharpe_ratio"),
    ("what is an inverted yield curve", "yield_curve_inversion"),
    ("연준 점도표란", "dot_plot"),
    ("MDD가 뭐야", "max_drawdown"),
]


@pytest.mark.parametrize(("question", "expected"), LOOKUPS)
def test_lookup_finds_the_term_asked_about(question: str, expected: str) -> None:
    glossary = load_glossary()
    found = glossary.match(question)
    assert found is not None and found.entry.id == expected
    assert question[found.start : found.end] == found.text
    assert fold(found.text) in {fold(s) for s in found.entry.surfaces}


def test_every_entry_is_found_by_each_of_its_names() -> None:
    glossary = load_glossary()
    missed = []
    for entry in glossary:
        questions = [f"{entry.term_ko}란?", f"{entry.term_ko}이 뭐야", f"{entry.term_ko}가 뭐예요",
                     f"what is {entry.term_en}?", f"{entry.term_en} meaning", *entry.aliases]  # fmt: skip
        for question in questions:
            found = glossary.lookup(question)
            if found is None or found.id != entry.id:
                missed.append((question, found.id if found else None))
    assert missed == []


def test_overlapping_terms_read_left_to_right() -> None:
    glossary = load_glossary()
    for question, expected in [("역전세가 뭐야", "reverse_jeonse"), ("전세가가 뭐야", "jeonse")]:
        found = glossary.lookup(question)
        assert found is not None and found.id == expected, question


@pytest.mark.parametrize(
    "question",
    ["안녕하세요", "hello world", "what is percent", "open the report", "보수적인 투자란?",
     "상관없이 알려줘", "KODEX 200TR 가격", "조정이란"],
)  # fmt: skip
def test_lookup_finds_nothing_when_no_term_is_named(question: str) -> None:
    assert load_glossary().lookup(question) is None


def test_latin_aliases_need_word_boundaries_and_allow_plurals() -> None:
    glossary = load_glossary()
    assert glossary.lookup("supercycle") is None  # no 'per'
    assert glossary.lookup("the upper band") is None
    found = glossary.match("what are basis points")
    assert found is not None and (found.entry.id, found.text) == ("basis_point", "basis points")


def test_find_all_lists_every_term_left_to_right() -> None:
    found = load_glossary().find_all("ETF 총보수와 괴리율, PER·PBR 차이")
    assert [m.entry.id for m in found] == ["etf", "expense_ratio", "premium_discount", "per", "pbr"]
    assert load_glossary().find_all("") == []


@pytest.mark.parametrize(
    "hostile",
    ["", "   \n\t", "?!", "\x00\x01PER\x7f", "(.*)+[", "'; DROP TABLE etfs; --", "🙂" * 500,
     "\ud800PER", "ㅊㅗㅇㅂㅗㅅㅜ", "PER" * 5000, "가" * 1_000_000],
)  # fmt: skip
def test_hostile_questions_return_quietly(hostile: str) -> None:
    glossary = load_glossary()
    found = glossary.match(hostile)
    if found is not None:
        assert found.end <= MAX_QUESTION_CHARS
        assert unicodedata.normalize("NFC", hostile)[found.start : found.end] == found.text
    assert isinstance(glossary.find_all(hostile), list)


def test_non_text_input_returns_none() -> None:
    glossary = load_glossary()
    assert glossary.lookup(None) is None  # type: ignore[arg-type]
    assert glossary.lookup(123) is None  # type: ignore[arg-type]
    assert glossary.find_all(b"PER") == []  # type: ignore[arg-type]


def test_decomposed_hangul_is_found() -> None:
    question = unicodedata.normalize("NFD", "총보수란?")
    found = load_glossary().match(question)
    assert found is not None and found.entry.id == "expense_ratio"


def test_entries_expose_both_languages_and_related() -> None:
    glossary = load_glossary()
    entry = glossary.get("expense_ratio")
    assert entry is not None and glossary.get("no_such_term") is None
    assert entry.term("ko") == "총보수" and entry.term("en") == "expense ratio"
    assert "etfs.expense_ratio" in entry.in_data("ko") and "etfs.expense_ratio" in entry.in_data(
        "en"
    )
    assert entry.definition("en") != entry.definition("ko")
    assert entry.related and [glossary.get(r).id for r in entry.related] == list(entry.related)  # type: ignore[union-attr]
    assert load_glossary() is glossary  # parsed once per process
    assert re.fullmatch(r"[0-9a-f]{12}", glossary.fingerprint)


# ---------------------------------------------------------------- a bad file


def _broken(document: dict[str, Any], change: str) -> bytes:
    doc = copy.deepcopy(document)
    first, second = doc["entries"][0], doc["entries"][1]
    if change == "duplicate id":
        second["id"] = first["id"]
    elif change == "shared alias":
        second["aliases"].append(first["aliases"][0].upper())
    elif change == "missing related":
        first["related"].append("no_such_term")
    elif change == "self related":
        first["related"].append(first["id"])
    elif change == "no English definition":
        del second["definition_en"]
    elif change == "blank Korean note":
        second["in_data_ko"] = "   "
    elif change == "bad category":
        first["category"] = "crypto"
    elif change == "bad id":
        first["id"] = "Expense Ratio"
    elif change == "one-letter alias":
        first["aliases"].append("P")
    elif change == "aliases not a list":
        first["aliases"] = "총보수율"
    elif change == "not_term shadows an alias":
        doc["not_terms"].append(first["term_ko"])
    elif change == "no entries":
        doc["entries"] = []
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


@pytest.mark.parametrize(
    "change",
    ["duplicate id", "shared alias", "missing related", "self related", "no English definition",
     "blank Korean note", "bad category", "bad id", "one-letter alias", "aliases not a list",
     "not_term shadows an alias", "no entries"],
)  # fmt: skip
def test_a_broken_file_is_refused_with_a_reason(document: dict[str, Any], change: str) -> None:
    parse_glossary(_broken(document, "nothing"))  # the unbroken copy loads
    with pytest.raises(GlossaryError, match="용어집"):
        parse_glossary(_broken(document, change))


@pytest.mark.parametrize(
    "raw", [b"", b"{not json", b"[]", b'{"entries": {}}', "용어".encode("cp949")]
)
def test_unreadable_files_are_refused(raw: bytes) -> None:
    with pytest.raises(GlossaryError, match="용어집"):
        parse_glossary(raw)


def test_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(GlossaryError, match="열 수 없습니다"):
        load_glossary(tmp_path / "missing.json")
    path = tmp_path / "glossary.json"
    path.write_bytes(GLOSSARY_FILE.read_bytes())
    assert len(load_glossary(path)) == len(load_glossary())
