"""The morpheme grammar of advice and forecasts (agents/understanding/advice.py): its corpus.
Questions from three probe rounds written before the grammar was changed for them, and data
questions built around the same words, which must not be declined."""

import pytest

from agents.understanding.advice import asks_advice

ADVICE = [
    "삼성전자 지금 들어가도 늦지 않았을까?", "KODEX 200 계속 갖고 가는 게 나을까요",
    "SK하이닉스 여기서 더 사모아도 될까", "TIGER 반도체 지금 정리해야 되나",
    "KODEX 레버리지 오늘 팔아치울까", "현대차 주식 추가로 담아볼까 고민중",
    "NAVER 손절할 타이밍인가요", "카카오 물타기 해도 될까", "셀트리온 비중 늘리는 게 맞나",
    "삼성전자 지금이 살 때야?", "KODEX 인버스 들어갈까 말까", "LG화학 팔고 삼성SDI로 갈아탈까",
    "기아 주식 계속 들고 가도 되나요", "NAVER 지금 들어가기엔 이른가", "삼성SDI 지금 살 만한가요",
    "TIGER 200 팔 타이밍인가", "타이거 200 팔아 말아", "KODEX 200 지금 사기 적절한 시점?",
    "삼성전자 분할 매수 시작해도 될까요", "NAVER 지금 손절 안 하면 후회할까",
    "KODEX 레버리지 단타 쳐도 될까", "TIGER 미국S&P500 매달 적립해도 되겠죠",
]  # fmt: skip
FORECASTS = [
    "삼성전자 더 오를까?", "KODEX 200 다음 달에 떨어질 것 같아?", "SK하이닉스 반등 나올까",
    "원달러 환율 더 오를 가능성 있어?", "금리 내년에 인하될까요", "코스피 바닥 찍은 건가",
    "TIGER 반도체 상승 여력 남았어?", "원달러 환율 1500원 넘을 것 같아?", "삼성전자 10만원 갈까",
    "TIGER 반도체 바닥인가요", "현대차 급등할 거 같아?", "CPI 다음 달에 얼마 나올 것 같아",
    # round 125: a move asked after an if-clause is a what-if, whatever its ending
    "금리 내리면 집값 오르나요", "환율이 오르면 코스피 떨어져요?",
]  # fmt: skip
DATA = [
    "삼성전자 매수 체결 거래량 알려줘", "KODEX 200 팔 때 세금은 어떻게 돼? 보수도",
    "매수 시점별 수익률이 궁금한 건 아니고 KODEX 200 보수만", "돈이 얼마나 들까",
    "LG화학 지난달 얼마나 떨어졌어?", "삼성전자 매도 물량 많았던 날은?", "반등한 ETF 순위 알려줘",
    "금리 인상 이후 KODEX 200 수익률", "현대차 주가 떨어진 이유", "NAVER 회복세 언제부터였어?",
    "KODEX 200 매도 거래대금 알려줘", "SK하이닉스 반등한 날 거래량", "원달러 환율 최근 하락폭",
    "NAVER 주가 언제 제일 많이 올랐어?", "손절이 뭐야?",
    "삼성전자 1년 전보다 오르면 얼마야", "환율이 1400원 넘으면 며칠이야",
]  # fmt: skip


@pytest.mark.parametrize("question", ADVICE)
def test_advice(question: str) -> None:
    hit = asks_advice(question)
    assert hit is not None and hit.kind == "advice", question


@pytest.mark.parametrize("question", FORECASTS)
def test_forecasts(question: str) -> None:
    hit = asks_advice(question)
    assert hit is not None and hit.kind == "forecast", question


@pytest.mark.parametrize("question", DATA)
def test_data_questions_are_not_advice(question: str) -> None:
    assert asks_advice(question) is None


def test_a_stated_plan_is_an_intention() -> None:
    hit = asks_advice("KODEX 200 사려는데 보수 얼마야?")
    assert hit is not None and hit.kind == "intention"  # the screen answers the fee
    assert asks_advice("KODEX 200 살 생각인데").kind == "intention"  # type: ignore[union-attr]
