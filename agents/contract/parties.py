"""The party a question asks as, and the parties a clause's 항/호 names as its subject.

"제가 취소하면 …" asks as the party the user is on (the traveller, the tenant, the member …);
"회사가 해지하면 …" and "집주인이 …" name the other one. Among an article's 항/호 the one whose
subject is that party answers ('1. 여행자의 … 취소요청시' for the traveller, '2. 당사의 귀책사유로
…' for the agency). Party nouns are a closed class written once for every kind of contract:

    >>> asked_party("집주인이 계약을 해지할 수 있는 건 언제예요?", ["임대인은 …", "임차인은 …"])
    frozenset({'임대인'})
    >>> sorted(asked_party("제가 취소하면 얼마 물어요?", ["1. 여행자의 요청", "2. 당사의 귀책사유"]))
    ['여행자']
    >>> sorted(line_subjects("② 임대인은 임차인이 2기의 차임액에 달하도록 연체하거나"))
    ['임대인']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# the parties contracts name (longest first where one holds another: 수급사업자 before 사업자)
ROLES = ("원사업자", "수급사업자", "여행업자", "임대인", "임차인", "전차인", "사용자", "근로자",
         "여행자", "당사", "회사", "회원", "이용자", "은행", "거래처", "발주자", "수급인", "도급인",
         "위탁자", "수탁자", "매도인", "매수인", "판매자", "구매자", "고객", "소비자", "공급자",
         "사업자", "몰")  # fmt: skip
# the side a first-person asker is on ('제가', '저희가'): the weaker party standard forms protect
USER_SIDE = frozenset({"임차인", "전차인", "근로자", "여행자", "회원", "이용자", "거래처", "고객",
                       "소비자", "매수인", "구매자", "수급사업자", "수급인", "수탁자"})  # fmt: skip
# everyday names of a party → the contract's words for it
EVERYDAY = {"집주인": ("임대인",), "건물주": ("임대인",), "세입자": ("임차인",),
            "사장님": ("사용자",), "여행사": ("당사", "여행업자", "회사"),
            "쇼핑몰": ("몰", "회사"), "게임사": ("회사",),
            "회사": ("회사", "사용자", "당사"), "은행": ("은행",),
            # a subcontract's sides as people say them: the prime contractor, the subcontractor
            # and the client ('원청이 대금을 안 주면', '발주처한테 직접')
            "원청": ("원사업자", "도급인"), "원청사": ("원사업자", "도급인"),
            "하청": ("수급사업자", "수급인"), "하청업체": ("수급사업자", "수급인"),
            "발주처": ("발주자",), "발주사": ("발주자",)}  # fmt: skip
PARTY_WORDS = frozenset({*ROLES, *EVERYDAY})  # every word that names a party
_NAMES = sorted({*ROLES, *EVERYDAY}, key=len, reverse=True)
_NAME = "|".join(_NAMES)
# a party named as the subject of the question ('회사가', '집주인은', '은행에서')
SUBJECT_RE = re.compile(rf"(?<![가-힣])({_NAME})(?:이|가|은|는|께서|에서|측에서|쪽에서)(?![가-힣])")
# a first-person asker, as subject ('제가', '저희는') or by their own fault or wish ('제 실수로')
FIRST_PERSON_RE = re.compile(r"(?<![가-힣])(?:제가|내가|저희가|우리가|저는|나는|저희는|우리는"
                             r"|(?:제|내|저희)\s*(?:잘못|실수|사정|과실|탓|마음))")  # fmt: skip
# the asker saying which party they are ('저희가 수급사업자인데', '저는 임차인이에요')
DECLARED_RE = re.compile(rf"({_NAME})(?:인데|이라서|이고|입니다|이에요|예요|인\s)")
# in a 항/호: a party as topic ('임대인은 임차인이 …연체하거나': 임대인's 항); without one, the
# party named first as subject or with '의' ('은행이 …', '2. 당사의 귀책사유로 취소 통보하는 경우')
_ROLE = "|".join(ROLES)
TOPIC_RE = re.compile(rf"(?<![가-힣])({_ROLE})(?:은|는|께서는)(?![가-힣])")
# a party joined to a topic ('당사 또는 여행자는', '임대인과 임차인은') shares it
JOINED_RE = re.compile(
    rf"(?<![가-힣])({_ROLE})(?:\s*(?:또는|및)\s*|[와과]\s+|,\s*)(?=(?:{_ROLE})(?:은|는))"
)
ROLE_RE = re.compile(rf"(?<![가-힣])({_ROLE})")


def _roles_of(name: str) -> tuple[str, ...]:
    return EVERYDAY.get(name, (name,))


def line_subjects(text: str) -> frozenset[str]:
    """The parties a line is about (see TOPIC_RE)."""
    topics = frozenset(m.group(1) for r in (TOPIC_RE, JOINED_RE) for m in r.finditer(text))
    first = ROLE_RE.search(text)
    if topics or first is None:
        return topics
    after = text[first.end() : first.end() + 2]
    return (
        frozenset({first.group(1)})
        if after[:1] in ("이", "가", "의") or after == "께서"
        else topics
    )


def asked_party(question: str, lines: Sequence[str]) -> frozenset[str]:
    """The contract words for the party the question asks as (empty when it names none): the
    party named as subject nearest the main verb, or a first-person asker's declared party
    ('저희가 수급사업자인데'), else the user's side among the parties the clause's `lines` name."""
    # the subject nearest the main verb: '제가 올린 그림을 회사가 팔아도 돼요?' asks of 회사
    subject = max(SUBJECT_RE.finditer(question), key=lambda m: m.start(), default=None)
    first = max(FIRST_PERSON_RE.finditer(question), key=lambda m: m.start(), default=None)
    if subject is not None and (first is None or subject.start() > first.start()):
        return frozenset(_roles_of(subject.group(1)))
    if first is None:
        return frozenset()
    declared = DECLARED_RE.search(question)
    if declared is not None:
        return frozenset(_roles_of(declared.group(1)))
    named = {m.group(1) for line in lines for m in ROLE_RE.finditer(line)}
    return frozenset(named & USER_SIDE)
