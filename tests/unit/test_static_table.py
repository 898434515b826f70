"""The stock report's small tables as HTML (pages/_static_table.py): text escaped, changes in
the rise/fall colours, wide tables in a scrolling box (420 px)."""

from __future__ import annotations

from agents.colors import price_colors
from pages._static_table import html_table


def test_cells_escaped_changes_coloured_and_the_table_scrolls() -> None:
    rows = [{"date": "2026-10-29", "title": "<b>실적</b> 시장 예상 하회 — 주가 하락", "move": "-6.74%",
             "count": 2, "none": None}]  # fmt: skip
    text = html_table(rows, {"date": "날짜", "title": "내용", "move": "당일", "count": "기사 수",
                             "none": "원인"}, signed=("move",))  # fmt: skip
    assert text.startswith('<div class="atlas-table-box"><table class="atlas-table">')
    assert "<th>날짜</th><th>내용</th><th>당일</th><th>기사 수</th><th>원인</th>" in text
    assert "&lt;b&gt;실적&lt;/b&gt;" in text and "<b>" not in text
    assert f'<td class="num" style="color:{price_colors().down}">-6.74%</td>' in text
    assert '<td class="short">2026-10-29</td>' in text  # a date stays on one line
    assert '<td class="num">2</td>' in text and '<td class="short">–</td>' in text
    assert '<td class="text">' in text  # a long text wraps, at least 12em wide


def test_a_title_links_to_its_own_address_and_nothing_else() -> None:
    rows = [{"title": "반도체 <수출>", "url": "https://news.example/a?x=1&y=\"2\""},
            {"title": "링크 없음", "url": "javascript:alert(1)"}]  # fmt: skip
    text = html_table(rows, {"title": "제목"}, links={"title": "url"})
    assert (
        '<a href="https://news.example/a?x=1&amp;y=&quot;2&quot;" target="_blank">반도체 &lt;수출&gt;</a>'
        in text
    )
    assert "javascript" not in text and '<td class="short">링크 없음</td>' in text
