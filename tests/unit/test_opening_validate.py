"""The prompt's rules on a final output: accept, repair, or reject with the reason."""

from __future__ import annotations

import json
from typing import Any

from agents.evidence import ToolCallRecord
from agents.opening.validate import validate

DAY = "2026-11-20"


def _call(seq: int, tool: str, result: Any, status: str = "ok") -> ToolCallRecord:
    return ToolCallRecord(seq, tool, {}, 1, status, result=result)


def _calls(read: int = 10) -> list[ToolCallRecord]:
    articles = [{"pk": f"p{i}", "title": f"기사 {i}", "body": "본문", "cached": False}
                for i in range(read)]  # fmt: skip
    rows = [{"ts": "2026-11-19T00:00:00+09:00", "open": 1, "high": 1, "low": 1, "close": 76500.0},
            {"ts": "2026-11-20T00:00:00+09:00", "open": 85000.0, "high": 92900.0,
             "low": 84900.0, "close": 91500.0}]  # fmt: skip
    return [_call(1, "get_news_list", {"count": read, "articles": []}),
            _call(2, "count_keyword_frequency", {"반도체": {"count": 3, "article_pks": []}}),
            _call(3, "get_news_content", {"count": read, "articles": articles}),
            _call(4, "get_ohlcv", {"ticker": "KR:000990", "rows": rows})]  # fmt: skip


def _output(**overrides: Any) -> str:
    data = {
        "theme": [{"headline": "반도체 차별화", "description": "DB하이텍 종가 91,500원, +19.61%.",
                   "related_news": [{"pk": "p0", "title": "틀린 제목"}]}],
        "nutshell": "반도체 차별화의 하루",
        "scripts": [
            {"id": 1, "speaker": "진행자", "text": "11월 20일 오프닝입니다.", "sources": []},
            {"id": 2, "speaker": "해설자", "text": "DB하이텍은 19.61% 올랐습니다.",
             "sources": [{"pk": "p1", "title": "기사 1"}]},
        ],
    }  # fmt: skip
    data.update(overrides)
    return "생각 끝.\n```json\n" + json.dumps(data, ensure_ascii=False) + "\n```"


def test_valid_output_passes_and_titles_come_from_the_articles_read() -> None:
    check = validate(_output(), _calls(), DAY, window_count=41)
    assert check.ok, check.errors
    assert check.result is not None
    assert check.result["theme"][0]["related_news"] == [{"pk": "p0", "title": "기사 0"}]


def test_unread_sources_are_dropped_and_noted() -> None:
    scripts = [{"id": 1, "speaker": "진행자", "text": "11월 20일 오프닝입니다.",
                "sources": [{"pk": "never-read", "title": "x"}]},
               {"id": 3, "speaker": "해설자", "text": "그렇습니다.", "sources": []}]  # fmt: skip
    check = validate(_output(scripts=scripts), _calls(), DAY, window_count=41)
    assert check.ok
    assert check.result is not None and check.result["scripts"][0]["sources"] == []
    assert check.result["scripts"][1]["id"] == 2
    assert any("never-read" in r for r in check.repairs)


def test_number_not_backed_by_ohlcv_is_rejected() -> None:
    theme = [{"headline": "반도체", "description": "DB하이텍 +25.00% 급등, 95,000원",
              "related_news": [{"pk": "p0", "title": "기사 0"}]}]  # fmt: skip
    check = validate(_output(theme=theme), _calls(), DAY, window_count=41)
    assert not check.ok and check.result is None
    assert any("25.00%" in e and "95,000원" in e for e in check.errors)


def test_missing_required_calls_and_too_few_bodies_are_rejected() -> None:
    calls = [c for c in _calls(read=4) if c.tool != "count_keyword_frequency"]
    check = validate(_output(), calls, DAY, window_count=41)
    assert not check.ok
    joined = " ".join(check.errors)
    assert "count_keyword_frequency" in joined and "4건만" in joined


def test_few_articles_in_the_window_lower_the_body_minimum() -> None:
    assert validate(_output(), _calls(read=4), DAY, window_count=4).ok


def test_script_must_open_with_the_host_and_the_date() -> None:
    scripts = [{"id": 1, "speaker": "해설자", "text": "안녕하세요.", "sources": []},
               {"id": 2, "speaker": "진행자", "text": "네.", "sources": []}]  # fmt: skip
    check = validate(_output(scripts=scripts), _calls(), DAY, window_count=41)
    assert not check.ok and any("11월 20일" in e for e in check.errors)


def test_no_json_and_too_many_themes() -> None:
    assert not validate("오늘은 좋은 날입니다.", _calls(), DAY, 41).ok
    theme = [{"headline": f"t{i}", "description": "d", "related_news": [{"pk": "p0"}]}
             for i in range(5)]  # fmt: skip
    check = validate(_output(theme=theme), _calls(), DAY, 41)
    assert check.ok and check.result is not None and len(check.result["theme"]) == 3
