"""Title tokenization for the opening context: Korean compounds, English words, stopwords."""

from __future__ import annotations

from agents.opening.keywords import contains, count_in, tokenize, top_words


def test_korean_compounds_are_kept_whole_and_boilerplate_dropped() -> None:
    words = tokenize("[마켓브리핑] 에스티팜, 16.9% 급등…글로벌 제약사와 기술이전 계약 체결")
    assert "에스티팜" in words and "기술이전" in words and "제약사" in words
    assert "마켓브리핑" not in words and not any(w.replace(".", "").isdigit() for w in words)


def test_english_words_are_lower_cased_without_stopwords() -> None:
    words = tokenize("NVIDIA plunges 5.1% after quarterly results on Wall Street")
    assert words[:2] == ["nvidia", "plunges"]
    assert "after" not in words and "street" not in words and "on" not in words


def test_top_words_counts_each_title_once() -> None:
    titles = ["반도체 반도체 급락", "반도체 강세", "바이오 강세"]
    top = top_words(titles, 2)
    assert top == [{"word": "반도체", "count": 2}, {"word": "강세", "count": 2}]


def test_latin_keywords_match_whole_words_korean_as_substrings() -> None:
    assert not contains("Analysts said demand is strong", "AI")
    assert contains("AI chips rally", "ai")
    assert count_in("반도체주가 반도체 업황", "반도체") == 2
