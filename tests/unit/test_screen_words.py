"""Words on the screens: picker labels told apart in words, answer headings below the title."""

from __future__ import annotations

from pages._chat import distinct_labels


def test_equal_labels_get_their_place_and_others_stay_as_they_are() -> None:
    labels = {"6ebd6510-aa": "질문 (11-29 14:49)", "0c1f-bb": "다른 질문 (11-29 14:50)",
              "91ff-cc": "질문 (11-29 14:49)"}  # fmt: skip
    assert distinct_labels(labels) == {
        "6ebd6510-aa": "질문 (11-29 14:49) (1)", "0c1f-bb": "다른 질문 (11-29 14:50)",
        "91ff-cc": "질문 (11-29 14:49) (2)",
    }  # fmt: skip
    assert len(set(distinct_labels(labels).values())) == 3


def test_answer_headings_sit_below_the_screen_title() -> None:
    from pages._answer import smaller_headings

    text = "# KODEX 200 vs TIGER 200 비교\n\n## 요약\n본문 #1 그대로\n#### 이미 작은 제목"
    assert smaller_headings(text) == (
        "#### KODEX 200 vs TIGER 200 비교\n\n##### 요약\n본문 #1 그대로\n#### 이미 작은 제목"
    )


def test_signed_changes_in_answer_tables_take_the_rise_and_fall_colours() -> None:
    from pages._answer import signed_cells

    text = "| 1개월 수익률 | -3.56% | +2.50% |\n| 총보수 | 0.15% | 0.05% |\n본문 -3.56% 그대로"
    assert signed_cells(text) == (
        "| 1개월 수익률 | :blue[-3.56%] | :red[+2.50%] |\n| 총보수 | 0.15% | 0.05% |\n"
        "본문 -3.56% 그대로"
    )
