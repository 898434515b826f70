"""News about earnings, macro releases, central-bank decisions, FX/rates moves and housing.

Numbers come from the generated earnings_events, macro_observations and real-estate tables.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

import numpy as np
import pandas as pd

from data_access.seed import policy
from data_access.seed.calendar import at, next_trading_day
from data_access.seed.events import reports_before_open
from data_access.seed.news_text import (
    SOURCES_EN,
    SOURCES_KO,
    Article,
    date_ko,
    josa,
    krw_amount,
    pick,
)
from data_access.seed.news_view import MarketView
from data_access.seed.params import add_months
from data_access.seed.realestate import RealEstateData

KST, ET = "Asia/Seoul", "America/New_York"


def earnings_articles(
    view: MarketView, earnings: pd.DataFrame, rng: np.random.Generator
) -> list[Article]:
    out = []
    for row in earnings[earnings["status"] == "confirmed"].itertuples(index=False):
        info = view.info(row.security_id)
        us = info["country"] == "US"
        beat = row.eps_actual >= row.eps_estimate
        if us:
            after_close = not reports_before_open("US", str(info["sector"]))
            published = (
                at(row.event_date, 16, 10, ET) if after_close else at(row.event_date, 7, 0, ET)
            )
            title = (f"{info['name']} {row.period} EPS ${row.eps_actual:.2f} "
                     f"{'beats' if beat else 'misses'} ${row.eps_estimate:.2f} estimate")  # fmt: skip
            body = [f"{info['name']} ({info['code']}) reported {row.period} earnings per share of "
                    f"${row.eps_actual:.2f}, against a consensus estimate of ${row.eps_estimate:.2f}.",
                    f"Revenue came in at ${row.revenue_actual / 1e9:,.2f} billion versus "
                    f"${row.revenue_estimate / 1e9:,.2f} billion expected.",
                    "Management commentary on demand will be closely watched by investors.",
                    "The shares are expected to react in the next session." if after_close else
                    "The shares react in today's session."]  # fmt: skip
            out.append(Article(title, " ".join(body), published, "en", [row.security_id], ["실적"],
                               pick(rng, SOURCES_EN), "earnings"))  # fmt: skip
            continue
        name = str(info["name"])
        title = f"{name}, {row.period} 주당순이익 {row.eps_actual:,.0f}원…시장 예상 {'상회' if beat else '하회'}"
        body = [f"{josa(name, '은/는')} {date_ko(row.event_date)} {row.period} 실적을 발표했다.",
                f"주당순이익(EPS)은 {row.eps_actual:,.0f}원으로 시장 예상치 {row.eps_estimate:,.0f}원을 "
                f"{'웃돌았다' if beat else '밑돌았다'}.",
                f"매출액은 {krw_amount(row.revenue_actual)}으로 예상치 {krw_amount(row.revenue_estimate)}과 비교됐다.",
                pick(rng, ("회사 측은 하반기 수요 회복을 기대했다.", "증권가는 목표주가 조정에 나설 전망이다."))]  # fmt: skip
        out.append(Article(title, " ".join(body), at(row.event_date, 15, 50, KST), "ko", [row.security_id],
                           ["실적"], pick(rng, SOURCES_KO), "earnings"))  # fmt: skip
    return out


def earnings_preview(
    view: MarketView, earnings: pd.DataFrame, as_of: date, rng: np.random.Generator
) -> list[Article]:
    upcoming = earnings[
        (earnings["status"] == "expected") & (earnings["event_date"] <= as_of + timedelta(days=14))
    ]
    upcoming = upcoming.sort_values(["event_date", "event_key"]).head(6)
    if upcoming.empty:
        return []
    items = [f"{view.name(r.security_id, 'en')} ({r.event_date:%b} {r.event_date.day}, EPS est. {r.eps_estimate:,.2f})"
             for r in upcoming.itertuples(index=False)]  # fmt: skip
    title = f"Earnings to watch: {view.name(upcoming.iloc[0]['security_id'], 'en')} and {len(items) - 1} more"
    body = ["Upcoming reports in the next two weeks include " + "; ".join(items) + ".",
            "Estimates are consensus figures from the demo dataset.",
            "Results could move sector peers as well."]  # fmt: skip
    return [Article(title, " ".join(body), at(as_of, 9, 0, ET), "en", list(upcoming["security_id"]), ["실적"],
                    pick(rng, SOURCES_EN), "earnings_preview")]  # fmt: skip


def _previous(values: pd.Series, obs: date, months: int) -> float | None:
    target = add_months(obs, -months)
    return float(values.loc[target]) if target in values.index else None


def release_articles(
    view: MarketView, observations: pd.DataFrame, rng: np.random.Generator
) -> list[Article]:
    """CPI and unemployment releases, Korean and US, in the language of the market."""
    out = []
    first = observations[~observations["revision_flag"]]
    for code in ("CPIAUCSL", "UNRATE", "KR_CPI", "KR_UNEMPLOYMENT"):
        rows = first[first["series_code"] == code]
        values = pd.Series(rows["value"].to_numpy(), index=list(rows["obs_date"]))
        for row in rows.itertuples(index=False):
            prev, year_ago = _previous(values, row.obs_date, 1), _previous(values, row.obs_date, 12)
            if prev is None:
                continue
            article = _release(code, row.obs_date, row.value, prev, year_ago, row.published_at, rng)
            out.append(article)
    return out


def _release(
    code: str,
    obs: date,
    value: float,
    prev: float,
    year_ago: float | None,
    published: datetime,
    rng: np.random.Generator,
) -> Article:
    month_en, month_ko = f"{obs:%B}", f"{obs.month}월"
    if code == "CPIAUCSL":
        mom = (value / prev - 1) * 100
        annual = f"; annual inflation at {(value / year_ago - 1) * 100:.1f}%" if year_ago else ""
        title = f"US consumer prices {'rise' if mom >= 0 else 'fall'} {abs(mom):.1f}% in {month_en}{annual}"
        body = [f"The consumer price index (CPIAUCSL) stood at {value:.3f} for {month_en} {obs.year}.",
                f"That is a {mom:+.2f}% change from the previous month.",
                "Fed officials watch inflation closely ahead of the next policy meeting."]  # fmt: skip
        return Article(
            title,
            " ".join(body),
            published,
            "en",
            [],
            ["금리", "물가"],
            pick(rng, SOURCES_EN),
            "release",
        )
    if code == "UNRATE":
        title = f"US unemployment rate {'rises' if value > prev else 'falls' if value < prev else 'holds'} at {value:.1f}% in {month_en}"
        body = [f"The unemployment rate (UNRATE) was {value:.1f}% in {month_en} {obs.year}, versus {prev:.1f}% a month earlier.",
                "The labor market data feed into expectations for the federal funds rate."]  # fmt: skip
        return Article(
            title,
            " ".join(body),
            published,
            "en",
            [],
            ["고용", "금리"],
            pick(rng, SOURCES_EN),
            "release",
        )
    if code == "KR_CPI":
        yoy = (value / year_ago - 1) * 100 if year_ago else (value / prev - 1) * 100
        title = f"{month_ko} 소비자물가 전년 동월 대비 {yoy:.1f}% {'상승' if yoy >= 0 else '하락'}"
        body = [f"{obs.year}년 {month_ko} 소비자물가지수(KR_CPI)는 {value:.2f}(2020=100)로 집계됐다.",
                f"전월 대비 {(value / prev - 1) * 100:+.2f}% 변동했다.",
                "한국은행은 물가 흐름을 보며 통화정책 방향을 결정할 것으로 보인다."]  # fmt: skip
        return Article(
            title,
            " ".join(body),
            published,
            "ko",
            [],
            ["물가", "금리"],
            pick(rng, SOURCES_KO),
            "release",
        )
    title = f"{month_ko} 실업률 {value:.1f}%…전월 대비 {value - prev:+.1f}%p"
    body = [f"{obs.year}년 {month_ko} 계절조정 실업률(KR_UNEMPLOYMENT)은 {value:.1f}%였다.",
            f"전월 {prev:.1f}%와 비교해 {value - prev:+.1f}%포인트 변했다.",
            "고용 시장은 완만한 흐름을 이어가고 있다."]  # fmt: skip
    return Article(
        title, " ".join(body), published, "ko", [], ["고용"], pick(rng, SOURCES_KO), "release"
    )


def decision_articles(as_of: date, first_day: date, rng: np.random.Generator) -> list[Article]:
    out = []
    for d in policy.decisions("FOMC", as_of):
        if d.day < first_day:
            continue
        low, high = d.after - 0.25, d.after
        action = "holds" if d.change_bp == 0 else ("cuts" if d.change_bp < 0 else "raises")
        title = f"Fed {action} rates{'' if d.change_bp == 0 else f' by {abs(d.change_bp)} basis points'}, target range {low:.2f}%-{high:.2f}%"
        body = [f"The Federal Open Market Committee set the federal funds target range at {low:.2f}% to {high:.2f}%.",
                f"The effective rate is expected near {high - policy.EFFR_BELOW_UPPER:.2f}%.",
                "Markets will parse the statement for guidance on the path of policy."]  # fmt: skip
        out.append(
            Article(
                title,
                " ".join(body),
                at(d.day, 14, 3, ET),
                "en",
                [],
                ["금리", "FOMC"],
                pick(rng, SOURCES_EN),
                "fomc",
            )
        )
        ko = f"美 연준, 기준금리 {'동결' if d.change_bp == 0 else f'{abs(d.change_bp)}bp 인하' if d.change_bp < 0 else '인상'}…{low:.2f}~{high:.2f}%"
        out.append(Article(ko, f"미국 연방공개시장위원회(FOMC)는 {date_ko(d.day)}(현지시간) 기준금리 목표 범위를 {low:.2f}~{high:.2f}%로 결정했다. "
                           "시장은 향후 금리 경로에 대한 신호에 주목했다.", at(d.day, 14, 20, ET), "ko", [], ["금리", "FOMC"],
                           pick(rng, SOURCES_KO), "fomc"))  # fmt: skip
    for d in policy.decisions("BOK", as_of):
        if d.day < first_day:
            continue
        verb = (
            "동결"
            if d.change_bp == 0
            else f"{abs(d.change_bp)}bp 인하"
            if d.change_bp < 0
            else f"{d.change_bp}bp 인상"
        )
        title = f"한은, 기준금리 연 {d.after:.2f}%로 {verb}"
        body = [f"한국은행 금융통화위원회는 {date_ko(d.day)} 기준금리를 연 {d.before:.2f}%에서 {d.after:.2f}%로 "
                f"{'유지했다' if d.change_bp == 0 else '조정했다'}.",
                "금통위는 물가와 성장, 가계부채 흐름을 종합적으로 고려했다고 밝혔다.",
                "부동산 시장과 환율 영향도 주요 고려 요인으로 꼽혔다."]  # fmt: skip
        out.append(
            Article(
                title,
                " ".join(body),
                at(d.day, 10, 5, KST),
                "ko",
                [],
                ["금리", "한국은행"],
                pick(rng, SOURCES_KO),
                "bok",
            )
        )
    return out


def fx_rate_articles(
    view: MarketView, kr_days: list[date], us_days: list[date], rng: np.random.Generator
) -> list[Article]:
    out = []
    fx = view.daily_macro["KR_USDKRW"]
    for prev_day, day in zip(kr_days[:-1], kr_days[1:], strict=True):
        if day not in fx.index or prev_day not in fx.index:
            continue
        diff = float(fx.loc[day] - fx.loc[prev_day])
        if abs(diff) >= 8.0:
            title = f"원/달러 환율 {abs(diff):.1f}원 {'급등' if diff > 0 else '급락'}…{fx.loc[day]:,.1f}원 마감"
            body = [f"{date_ko(day)} 서울 외환시장에서 원/달러 환율은 전 거래일보다 {diff:+.1f}원 움직인 {fx.loc[day]:,.1f}원에 마감했다.",
                    "달러 흐름과 외국인 증권 자금 동향이 영향을 미쳤다."]  # fmt: skip
            out.append(
                Article(
                    title,
                    " ".join(body),
                    at(day, 15, 40, KST),
                    "ko",
                    [],
                    ["환율"],
                    pick(rng, SOURCES_KO),
                    "fx",
                )
            )
    ten = view.daily_macro["DGS10"]
    for prev_day, day in zip(us_days[:-1], us_days[1:], strict=True):
        if day not in ten.index or prev_day not in ten.index:
            continue
        bp = round(float(ten.loc[day] - ten.loc[prev_day]) * 100)
        if abs(bp) >= 9:
            title = f"10-year Treasury yield {'jumps' if bp > 0 else 'drops'} {abs(bp)} bp to {ten.loc[day]:.2f}%"
            body = [f"The 10-year Treasury yield (DGS10) ended at {ten.loc[day]:.2f}% on {day:%B} {day.day}, {bp:+d} basis points on the day.",
                    "Rate-sensitive stocks moved with the bond market."]  # fmt: skip
            out.append(
                Article(
                    title,
                    " ".join(body),
                    at(day, 16, 45, ET),
                    "en",
                    [],
                    ["금리"],
                    pick(rng, SOURCES_EN),
                    "rates",
                )
            )
    return out


def housing_articles(re: RealEstateData, as_of: date, rng: np.random.Generator) -> list[Article]:
    index = re.house_price_index.pivot(index="month", columns="region", values="index_value")
    jeonse = re.jeonse.pivot(index="month", columns="region", values="ratio")
    unsold = re.unsold.pivot(index="month", columns="region", values="units")
    out = []
    months = list(index.index)
    for prev, month in zip(months[:-1], months[1:], strict=True):
        release = next_trading_day(
            date(month.year + month.month // 12, month.month % 12 + 1, 15), "KRX"
        )
        if release > as_of:
            continue
        change = (index.loc[month] / index.loc[prev] - 1) * 100
        top, bottom = change.drop("전국").idxmax(), change.drop("전국").idxmin()
        title = f"{month.month}월 서울 집값 {change['서울']:+.2f}%…{top} {change[top]:+.2f}%"
        body = [f"{month.year}년 {month.month}월 주택가격지수는 전국 {change['전국']:+.2f}%, 서울 {change['서울']:+.2f}% 변동했다.",
                f"지역별로는 {top}({change[top]:+.2f}%)의 상승 폭이 가장 컸고 {bottom}({change[bottom]:+.2f}%)가 가장 약했다.",
                f"서울 전세가율은 {jeonse.loc[month, '서울']:.1f}%였다.",
                f"대구 미분양 주택은 {int(unsold.loc[month, '대구']):,}호, 전국은 {int(unsold.loc[month, '전국']):,}호로 집계됐다."]  # fmt: skip
        out.append(
            Article(
                title,
                " ".join(body),
                at(release, 14, 0, KST),
                "ko",
                [],
                ["부동산"],
                pick(rng, SOURCES_KO),
                "housing",
            )
        )
    return out
