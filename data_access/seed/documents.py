"""Macro documents, events and evidence (seed 004 §9.2-2): central-bank statements, data-release
reviews, earnings reviews and policy/geopolitical events, each tied to indicator codes and stocks.

Document text quotes the generated numbers (rates, CPI, yields, EPS), so a citation always
agrees with the structured data next to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

import pandas as pd

from data_access.seed import policy
from data_access.seed.calendar import at
from data_access.seed.news_text import josa
from data_access.seed.params import add_months
from data_access.seed.scenario import SCENARIO_EVENTS

KST, ET = "Asia/Seoul", "America/New_York"
DOC_URL = "https://demo.atlas.local/docs/"
EARNINGS_DOC_NAMES = 10  # largest reporters per country with an earnings review document


@dataclass
class DocumentSet:
    documents: list[dict[str, object]] = field(default_factory=list)
    events: list[dict[str, object]] = field(default_factory=list)
    evidence: list[dict[str, object]] = field(default_factory=list)

    def event(self, event_id: str, title: str, event_type: str, day: date, theme: str) -> None:
        self.events.append({"event_id": event_id, "title": title, "event_type": event_type,
                            "event_date": day, "theme": theme})  # fmt: skip

    def document(
        self, doc_id: str, title: str, doc_type: str, published: datetime, body: str, lang: str
    ) -> None:
        self.documents.append({"doc_id": doc_id, "title": title, "url": DOC_URL + doc_id, "doc_type": doc_type,
                               "published_at": published, "body": body, "lang": lang})  # fmt: skip

    def link(self, doc_id: str, event_id: str, text: str, relation: str,
             indicator: str | None = None, security_id: str | None = None) -> None:  # fmt: skip
        n = sum(1 for e in self.evidence if e["doc_id"] == doc_id) + 1
        self.evidence.append({"evidence_id": f"evd-{doc_id.removeprefix('doc-')}-{n}", "doc_id": doc_id,
                              "event_id": event_id, "text": text, "indicator_code": indicator,
                              "security_id": security_id, "relation": relation})  # fmt: skip

    def frames(self) -> dict[str, pd.DataFrame]:
        return {
            "documents": pd.DataFrame(self.documents).sort_values("doc_id").reset_index(drop=True),
            "events": pd.DataFrame(self.events).sort_values("event_id").reset_index(drop=True),
            "evidence": pd.DataFrame(self.evidence)
            .sort_values("evidence_id")
            .reset_index(drop=True),
        }


def generate_documents(
    observations: pd.DataFrame,
    daily: dict[str, pd.Series],
    earnings: pd.DataFrame,
    stocks: pd.DataFrame,
    as_of: date,
    first_day: date,
) -> dict[str, pd.DataFrame]:
    docs = DocumentSet()
    _fomc(docs, daily, as_of, first_day)
    _bok(docs, daily, as_of, first_day)
    _releases(docs, observations, daily)
    _scenarios(docs, daily, as_of)
    _earnings(docs, earnings, stocks)
    return docs.frames()


def _value_near(series: pd.Series, day: date, after: bool = False) -> tuple[date, float] | None:
    """The series value on `day`, or the closest trading day before (after) it."""
    index = [d for d in series.index if (d >= day if after else d <= day)]
    if not index:
        return None
    chosen = min(index) if after else max(index)
    return chosen, float(series.loc[chosen])


def _move(series: pd.Series, day: date, days_after: int = 1) -> tuple[float, float] | None:
    before = _value_near(series, day - timedelta(days=1))
    after = _value_near(series, day + timedelta(days=days_after - 1), after=True)
    if before is None or after is None:
        return None
    return before[1], after[1]


def _fomc(docs: DocumentSet, daily: dict[str, pd.Series], as_of: date, first_day: date) -> None:
    for d in policy.decisions("FOMC", as_of):
        if d.day < first_day:
            continue
        key, low, high = f"fomc-{d.day.isoformat()}", d.after - 0.25, d.after
        action = "maintain" if d.change_bp == 0 else "lower" if d.change_bp < 0 else "raise"
        event_id, statement, review = f"evt-{key}", f"doc-{key}-statement", f"doc-{key}-review"
        label = "동결" if d.change_bp == 0 else f"{abs(d.change_bp)}bp 인하"
        docs.event(
            event_id, f"FOMC 기준금리 {label} ({low:.2f}~{high:.2f}%)", "policy", d.day, "금리"
        )
        sentence = (f"The Committee decided to {action} the target range for the federal funds rate "
                    f"to {low:.2f} to {high:.2f} percent.")  # fmt: skip
        docs.document(statement, f"FOMC statement {d.day:%B} {d.day.day}, {d.day.year}", "statement",
                      at(d.day, 14, 0, ET), sentence + " The Committee will continue to assess incoming data, "
                      "the evolving outlook, and the balance of risks.", "en")  # fmt: skip
        docs.link(statement, event_id, sentence, "SUPPORTS", "FEDFUNDS")
        lines = [
            f"연준은 {d.day.year}년 {d.day.month}월 {d.day.day}일 기준금리 목표 범위를 {low:.2f}~{high:.2f}%로 정했다."
        ]
        two = _move(daily["DGS2"], d.day, 2)
        fx = _move(daily["KR_USDKRW"], d.day + timedelta(days=1))
        if two:
            lines.append(
                f"미국 2년물 국채 금리는 결정 전 {two[0]:.2f}%에서 이후 {two[1]:.2f}%로 움직였다."
            )
        if fx:
            lines.append(f"원/달러 환율은 {fx[0]:,.1f}원에서 {fx[1]:,.1f}원으로 변했다.")
        docs.document(
            review,
            f"FOMC 결정 리뷰: 기준금리 {label}",
            "report",
            at(d.day, 16, 30, ET),
            " ".join(lines),
            "ko",
        )
        docs.link(review, event_id, lines[0], "SUPPORTS", "FEDFUNDS")
        if two:
            docs.link(review, event_id, lines[1], "AFFECTS", "DGS2")
        if fx:
            docs.link(review, event_id, lines[-1], "AFFECTS", "KR_USDKRW")


def _bok(docs: DocumentSet, daily: dict[str, pd.Series], as_of: date, first_day: date) -> None:
    for d in policy.decisions("BOK", as_of):
        if d.day < first_day:
            continue
        key = f"bok-{d.day.isoformat()}"
        event_id, statement = f"evt-{key}", f"doc-{key}-statement"
        label = "동결" if d.change_bp == 0 else f"{abs(d.change_bp)}bp 인하"
        docs.event(
            event_id, f"한국은행 기준금리 {label} (연 {d.after:.2f}%)", "policy", d.day, "금리"
        )
        sentence = f"한국은행 금융통화위원회는 다음 통화정책방향 결정 시까지 한국은행 기준금리를 {d.after:.2f}%로 {'유지' if d.change_bp == 0 else '조정'}하여 통화정책을 운용하기로 하였다."
        body = [
            sentence,
            "물가상승률은 목표 수준에서 크게 벗어나지 않을 것으로 예상되며, 가계부채와 주택시장 흐름을 주의 깊게 점검할 것이다.",
        ]
        fx = _move(daily["KR_USDKRW"], d.day)
        if fx:
            body.append(f"결정 전후 원/달러 환율은 {fx[0]:,.1f}원에서 {fx[1]:,.1f}원으로 움직였다.")
        docs.document(statement, f"통화정책방향 ({d.day.year}년 {d.day.month}월 {d.day.day}일)", "statement",
                      at(d.day, 10, 0, KST), " ".join(body), "ko")  # fmt: skip
        docs.link(statement, event_id, sentence, "SUPPORTS", "KR_BASE_RATE")
        if fx:
            docs.link(statement, event_id, body[-1], "AFFECTS", "KR_USDKRW")
        docs.link(
            statement,
            event_id,
            "은행주는 기준금리 변화에 따른 순이자마진 영향을 받는다.",
            "AFFECTS",
            None,
            "KR:105560",
        )


_RELEASES = {
    "CPIAUCSL": ("us-cpi", "미국 소비자물가", "물가", "DGS10", "en"),
    "UNRATE": ("us-jobs", "미국 고용보고서", "고용", "DGS2", "en"),
    "KR_CPI": ("kr-cpi", "한국 소비자물가", "물가", "KR_USDKRW", "ko"),
}


def _releases(docs: DocumentSet, observations: pd.DataFrame, daily: dict[str, pd.Series]) -> None:
    first = observations[~observations["revision_flag"]]
    for code, (prefix, title_ko, theme, affected, lang) in _RELEASES.items():
        rows = first[first["series_code"] == code]
        values = dict(zip(rows["obs_date"], rows["value"], strict=True))
        for row in rows.itertuples(index=False):
            prev = values.get(add_months(row.obs_date, -1))
            if prev is None:
                continue
            key = f"{prefix}-{row.obs_date:%Y-%m}"
            event_id, doc_id = f"evt-{key}", f"doc-{key}-review"
            release_day = row.published_at.date()
            docs.event(
                event_id,
                f"{title_ko} 발표 ({row.obs_date.year}년 {row.obs_date.month}월분)",
                "data_release",
                release_day,
                theme,
            )
            if code == "UNRATE":
                headline = f"The unemployment rate was {row.value:.1f}% in {row.obs_date:%B %Y}, compared with {prev:.1f}% the month before."
            elif lang == "en":
                headline = f"The CPI-U index rose {(row.value / prev - 1) * 100:+.2f}% to {row.value:.3f} in {row.obs_date:%B %Y}."
            else:
                level = josa(f"{row.value:.2f}", "으로/로")  # '118.90으로', not '118.90로'
                headline = f"{row.obs_date.year}년 {row.obs_date.month}월 소비자물가지수는 {level} 전월 대비 {(row.value / prev - 1) * 100:+.2f}% 변했다."
            body = [headline]
            move = _move(daily[affected], release_day)
            if move:
                body.append(f"{affected} moved from {move[0]:,.2f} to {move[1]:,.2f} around the release."
                            if lang == "en" else f"발표 전후 {affected}는 {move[0]:,.1f}에서 {josa(f'{move[1]:,.1f}', '으로/로')} 움직였다.")  # fmt: skip
            docs.document(doc_id, f"{title_ko} 리뷰: {row.obs_date.year}년 {row.obs_date.month}월",
                          "report", row.published_at + timedelta(hours=2), " ".join(body), lang)  # fmt: skip
            docs.link(doc_id, event_id, headline, "SUPPORTS", code)
            if move:
                docs.link(doc_id, event_id, body[-1], "AFFECTS", affected)


def _scenarios(docs: DocumentSet, daily: dict[str, pd.Series], as_of: date) -> None:
    for s in SCENARIO_EVENTS:
        if s.day > as_of:
            continue
        event_id, doc_id = f"evt-{s.key}", f"doc-{s.key}"
        docs.event(event_id, s.title_ko, s.event_type, s.day, s.theme)
        body = [s.summary_ko]
        for code in s.indicators:
            move = _move(daily[code], s.day, 3) if code in daily else None
            if move:
                body.append(f"{code}는 {move[0]:,.2f}에서 {move[1]:,.2f}로 움직였다.")
        docs.document(doc_id, s.title_ko, "report", at(s.day, 17, 0, KST), " ".join(body), "ko")
        docs.link(doc_id, event_id, s.summary_ko, "SUPPORTS")
        for code, text in zip([c for c in s.indicators if c in daily], body[1:], strict=False):
            docs.link(doc_id, event_id, text, "AFFECTS", code)
        for security_id in s.stocks:
            docs.link(
                doc_id,
                event_id,
                f"{s.title_ko}의 영향을 받는 종목이다.",
                "AFFECTS",
                None,
                security_id,
            )


def _earnings(docs: DocumentSet, earnings: pd.DataFrame, stocks: pd.DataFrame) -> None:
    names = stocks.set_index("security_id")
    ranked = names.loc[earnings["security_id"].unique()].sort_values("size_rank")
    chosen = set(ranked[ranked["country"] == "KR"].index[:EARNINGS_DOC_NAMES]) | set(
        ranked[ranked["country"] == "US"].index[:EARNINGS_DOC_NAMES])  # fmt: skip
    confirmed = earnings[(earnings["status"] == "confirmed") & earnings["security_id"].isin(chosen)]
    for row in confirmed.itertuples(index=False):
        info = names.loc[row.security_id]
        key = f"earnings-{row.security_id.replace(':', '-').lower()}-{row.period.lower()}"
        event_id, doc_id = f"evt-{key}", f"doc-{key}"
        docs.event(
            event_id,
            f"{info['name_ko']} {row.period} 실적 발표",
            "earnings",
            row.event_date,
            "실적",
        )
        beat = "상회" if row.eps_actual >= row.eps_estimate else "하회"
        unit = "달러" if info["country"] == "US" else "원"
        text = (f"{info['name_ko']}의 {row.period} 주당순이익은 {row.eps_actual:,.2f}{unit}로 "
                f"예상치 {row.eps_estimate:,.2f}{unit}를 {beat}했다.")  # fmt: skip
        docs.document(doc_id, f"{info['name_ko']} {row.period} 실적 리뷰", "report",
                      at(row.event_date, 18, 0, KST if info["country"] == "KR" else ET), text, "ko")  # fmt: skip
        docs.link(doc_id, event_id, text, "SUPPORTS", None, row.security_id)
