"""The opening run cache: a write that fails warns and the run reads its memory copy (issue 35)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from agents.opening.files import RunCache, new_run_cache

ARTICLES = [{"pk": "a1", "title": "삼성전자 강세"}, {"pk": "a2", "title": "환율 하락"}]


def _blocked(tmp_path: Path) -> RunCache:
    """A cache whose folder cannot be created: its parent is a regular file."""
    (tmp_path / "opening").mkdir()
    (tmp_path / "opening" / "cache").write_text("a file, not a folder", encoding="utf-8")
    return new_run_cache(tmp_path, "2026-11-20-abc")


def test_failed_writes_warn_and_keep_the_data(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = _blocked(tmp_path)
    with caplog.at_level(logging.WARNING, logger="agents.opening.files"):
        cache.write_news_list({"date": "2026-11-20", "articles": ARTICLES})
        cache.write_body("a1", "삼성전자 강세", "본문")
    assert not cache.root.exists()
    assert [r.levelname for r in caplog.records] == ["WARNING"] * 3  # list, titles, one body
    assert "실행 캐시 쓰기 실패(news_list.json)" in cache.warnings[0]
    assert cache.read_news_list() == ARTICLES
    assert cache.read_titles() == ["삼성전자 강세", "환율 하락"]
    assert cache.read_body("a1") == {"pk": "a1", "title": "삼성전자 강세", "body": "본문"}
    assert cache.read_body("a2") is None
    assert cache.downloaded() == [{"pk": "a1", "title": "삼성전자 강세"}]
    cache.clean()
    assert cache.read_news_list() == []


def test_a_writable_cache_still_writes_files(tmp_path: Path) -> None:
    cache = new_run_cache(tmp_path, "2026-11-20-abc")
    cache.write_news_list({"articles": ARTICLES})
    cache.write_body("a2", "환율 하락", "본문 2")
    assert cache.warnings == []
    assert cache.titles.read_text(encoding="utf-8") == "삼성전자 강세\n환율 하락"
    assert cache.body_path("a2").exists()
    cache.news_list.write_text('{"articles": [', encoding="utf-8")  # cut short (disk full)
    assert cache.read_news_list() == ARTICLES  # the memory copy
