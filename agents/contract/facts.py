"""The kind of fact a question asks for, and that fact in a clause sentence, so an answer can
state it first ("10시간 이상 — …") and quote the sentence that holds it.

    >>> asked_kind("비밀유지 기간은 얼마나 되나요?")
    'period'
    >>> find_fact("비밀유지 의무는 계약 종료 후 3년간 존속한다.", "period")
    '3년간'
    >>> find_fact("을은 계약금액의 10%를 지체상금으로 지급한다.", "amount")
    '계약금액의 10%'

Kinds: cap (상한, 한도, 최대: an amount or period before '넘지 못한다' / '한도로'), period (기간, 며칠, 언제까지, how long), hours (몇 시간), amount (얼마, 금액, 요율, how
much), when (언제: a period, a day of the month or '지체 없이'), party (누가, 누구, who), count
(몇 번, 몇 명). None when the question asks no such fact (a yes/no or a 'what does it say').
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal, TypeVar

_K = TypeVar("_K", bound=str)
FactKind = Literal["cap", "period", "hours", "amount", "when", "party", "count", "place", "may"]

# a number ('1,000', '1.5'; not a 호's marker '2. ' before '회사' or '일부'), or one in Korean
# numerals before its unit ('일억원', '삼개월'; not '사회', whose 사 is no four)
NUM = r"(?:\d(?:[\d,]|\.(?=\d))*(?:천|만|억|백)?|(?<![가-힣])[일이삼사오육칠팔구십백천]+(?=\s*(?:시간|일|개월|년|주|영업일|만원|원|배)))"
# a bound ends its word, or a particle or another bound follows it ('7일 전부터', '30일 이내에';
# not the 전 of '5일까지 전월의')
BOUND = (
    r"(?:\s*(?:이상|이내|이하|미만|초과|전까지|전|후|까지|부터|간|이전|이후|마다|째)"
    r"(?=[^가-힣]|[에의은는을를이가도만로와과까부후인하한할된되]|$))*"
)
UNIT_TIME = r"(?:영업일|시간|개월|주일|주|일|년|분(?!\s*의))"  # '100분의 10' is a fraction
# not a rate per unit of time ('지체일수 1일당 0.5%', '1시간당'): that is no period
PERIOD_RE = re.compile(rf"{NUM}\s*{UNIT_TIME}(?!\s*당){BOUND}")
HOURS_RE = re.compile(rf"{NUM}\s*시간{BOUND}")
AMOUNT_RE = re.compile(
    rf"(?:[가-힣]{{1,8}}의\s*)?{NUM}\s*(?:%|퍼센트|할|배|만\s*원|억\s*원|천\s*원|원|분의\s*{NUM}){BOUND}"
)
DAY_RE = re.compile(
    rf"(?:매월|매년|매주|매달)\s*{NUM}\s*일|(?:{NUM}\s*년\s*)?{NUM}\s*월\s*{NUM}\s*일|지체\s*없이|"
    r"즉시|(?:그\s*)?(?:전날|다음\s*날|익일|당일|전일)(?:부터|까지)?(?=[\s에까은는이의도,.)]|$)"
)  # a day relative to another ('지급일이 휴일이면 그 전날') is a day too
# an amount stated as a relation rather than a number: '이체된 금액 이내', '계약금의 배액',
# '판매가를 배상' is not one (no bound); only the word before it and a bound after it are kept
RELATIVE_AMOUNT_RE = re.compile(
    r"(?:[가-힣]+\s+)?(?:[가-힣]*금액|배액|전액|상당액)"
    r"(?:\s*(?:이내|이하|까지|한도|을 한도로|[을를]\s*(?:넘지|초과하지)))"
)
# a moment stated as an event: '입금의 기록이 된 때', '서면을 받은 날', '도달한 때'
# a verb's adnominal ending: a syllable ending in ㄴ or ㄹ ('바꾼', '받을', '도달한') or '는'/'던'
ADNOMINAL = "".join(chr(0xAC00 + 28 * i + j) for i in range(399) for j in (4, 8)) + "는던"
EVENT_TIME_RE = re.compile(
    rf"(?:[가-힣]+\s+){{0,2}}[가-힣]*[{ADNOMINAL}]\s*(?:때|날|시점|시기)(?:부터|까지|로부터)?(?=[\s,.)에(]|$)"
)
# a deadline named by a day rather than a count: '시행일 전영업일까지', '만기일까지'
DEADLINE_RE = re.compile(r"(?:[가-힣]+\s+)?[가-힣]*일\s*(?:전|이전)?까지")
DATE_RE = re.compile(rf"(?:{NUM}\s*년\s*)?{NUM}\s*월\s*{NUM}\s*일{BOUND}")
# a count's unit ends its word ('3회', '2명의', '1건당'; not '회사', '명칭', '번호')
COUNT_RE = re.compile(
    rf"{NUM}\s*(?:회|번|명|건|차례)(?=[^가-힣]|[이을를의에은는까당째도만씩]|$){BOUND}"
)
PARTY_RE = re.compile(
    r"(?<![가-힣)\]」』\"”’'])(갑|을|병|원사업자|수급사업자|발주자|수급인|도급인|임대인|임차인|회사|이용자|회원|"
    r"근로자|사용자|매도인|매수인|여행자|여행사|여행업자|제공자|이용자|위탁자|수탁자|개발사|사업자)"
    r"(?=\s*(?:은|는|이|가|에게|의|과|와|측|쪽|\s))"
)
# where: a body or a place, named by its head noun ('서민금융진흥원으로', '영업점에', '인터넷
# 홈페이지에', '쉽게 알 수 있는 곳에')
PLACE_NOUN = (
    r"[가-힣]*(?:진흥원|조정원|중재원|위원회|기구|공단|법원|연락처|주소|영업점|본점|지점|점포|창구|홈페이지|웹사이트|"
    r"사이트|게시판|화면|관할관청|관청|기관|센터|사무소|소재지|주소지|장소|곳)"
)
PLACE_RE = re.compile(
    PLACE_NOUN
    + r"(?=[\"”’'」』]?\s*(?:에서|에게|에|으로|로|의|을|를|이|가|은|는|과|와|등|[,.)\s]|$))"
)
# ... first the one the sentence puts something at: a place with a locative particle ('초기
# 서비스화면(전면)에 게시합니다'), not a noun of a list ('…·전자우편주소, 사업자등록번호 …을 게시')
PLACE_AT_RE = re.compile(
    PLACE_NOUN + r"(?:\([^()]{1,12}\))?(?=[\"”’'」』]?\s*(?:에서|에게|에|으로|로))"
)
LIMIT_WORDS = r"(?:넘지|넘을|한도|초과하지|초과할|최대|상한)"
CAP_RE = re.compile(
    rf"(?:{AMOUNT_RE.pattern}|{PERIOD_RE.pattern})(?=[^.]{{0,16}}{LIMIT_WORDS})|[가-힣]+(?:을|를)\s*한도"
)
# a line that grants or denies a power: '할 수 있다', '하여서는 아니 된다', '거절하지 못한다'
# as the predicate ('할 수 있으며'), not a modifier ('알 수 있는 곳', '믿을 수 있을');
MAY_RE = re.compile(
    r"수\s*(?:있|없)(?:다|습니|으며|고|으나|음)|아니\s*(?:된|됩)|안\s*(?:된|됩)|못한다|못합니다|금지|"
    r"가능(?:하다|합니다|하나)|지\s*(?:않|아니)(?:는다|습니다|한다|합니다)"
)  # a plain denial ('… 업무를 수행하지 않습니다') answers a yes/no too
# '얼마' asked of a span of time is a period, whatever follows it: '얼마 안에 물러야' (within how
# long), '계약 기간은 최대 얼마까지' (the noun asked about is a 기간), not an amount of money
PERIOD_ASKED_RE = re.compile(
    r"얼마\s*(?:안에|이내|내에)|(?:기간|기한)[은는이가]?\s+(?:\S+\s+)?얼마(?!나)"
)
ASKED: tuple[tuple[FactKind, re.Pattern[str]], ...] = (
    # '수수료표는 어디서 봐요?' asks where, not how much ('어디까지' asks how far)
    ("place", re.compile(r"어디(?!\s*까지)|어느\s*곳|\bwhere\b", re.IGNORECASE)),
    ("cap", re.compile(r"(?<![가-힣])상한|한도|최대|최고|총액|cap|limit|maximum", re.IGNORECASE)),
    ("hours", re.compile(r"몇\s*시간|how many hours")),
    ("count", re.compile(r"몇\s*(?:번|회|명|건)|how many times|how many people")),
    ("period", PERIOD_ASKED_RE),
    (
        "amount",
        re.compile(
            r"얼마(?!\s*동안)(?!나)(?!\s*(?:전|후|뒤|만에))|얼마나\s*(?:받|내|주|줘|지급|드|더\s*받)|"
            # how much a sum may move ('월세를 얼마나 올릴 수 있어요?'), not how long
            r"얼마나\s*(?:올리|올릴|올려|늘리|늘릴|늘려|깎|인상|증액|낮추|낮출|내릴|내려)|"
            r"금액|비용|요금|"
            r"수수료|한도|요율|비율|이자|이율|보증금|위약금|지체상금|몇\s*(?:%|퍼센트)|"
            r"how much|amount|rate|fee|cap|percent",
            re.IGNORECASE,
        ),
    ),  # fmt: skip
    (
        "period",
        re.compile(
            r"기간|기한|얼마\s*(?:나|동안|전|후|뒤|만에)|며칠|몇\s*(?:일|개월|년|주)|언제까지|"
            r"how long|period|within|days|months|years",
            re.IGNORECASE,
        ),
    ),  # fmt: skip
    ("when", re.compile(r"언제|when|what day|by when", re.IGNORECASE)),
    (
        "party",
        re.compile(r"누가|누구|어느\s*(?:쪽|측|당사자)|who|whose|which party", re.IGNORECASE),
    ),
    # a yes/no on a power or a ban ('거절할 수도 있나요?', '팔아도 돼요?', '도박하면 안 되죠?'):
    # the line that grants or denies it ('… 거절할 수 있습니다', '… 해서는 안 됩니다') answers
    (
        "may",
        re.compile(
            r"수\s*(?:도\s*)?(?:있|없)[^\s]*\?|(?<=[가-힣])도\s*(?:돼|되|괜찮)|안\s*(?:되|돼)"
        ),
    ),
)
# A number asked for outright ('몇 퍼센트', '얼마예요', '며칠', '몇 번') and what in a clause
# states one: an amount may be written as a relation ('계약금의 배액', '대가를 한도로') or in
# Korean numerals ('금 일억원'), a period as '3월 이내'
QuantityKind = Literal["percent", "count", "hours", "period", "amount", "measure"]
QUANTITY_ASKED: tuple[tuple[QuantityKind, re.Pattern[str]], ...] = (
    ("percent", re.compile(r"몇\s*(?:%|퍼센트|프로)")),
    ("count", re.compile(r"몇\s*(?:번|회|명|건|차례|대|개(?!월))")),
    ("hours", re.compile(r"몇\s*시간")),
    ("period", re.compile(r"며칠|몇\s*(?:일|개월|달|년|주)|얼마\s*(?:전|후|뒤|만에)")),
    ("period", PERIOD_ASKED_RE),
    ("amount", re.compile(r"얼마(?!\s*(?:나|동안|간|전|후|뒤|만에))|몇\s*(?:원|배)")),
    # a bound asked about ('최소 입금액이 있어요?', '금액 한도가 있어요?'): a clause that names
    # no amount, bound or limit does not answer it
    ("amount", re.compile(r"최소|최저|한도|(?<![가-힣])(?:상한|하한)")),  # not '이상한'/'무상한'
    # any other measure asked outright ('몇 킬로', '몇 살', '몇 시까지'): a clause that states
    # no number at all does not answer it ('짐 무게는 몇 킬로까지예요?' is not answered by a
    # clause that names 무게 only)
    (
        "measure",
        re.compile(r"몇\s*(?:킬로|키로|kg|그램|톤|미터|센티|cm|리터|살|세|층|평|시(?!간))"),
    ),
)
QUANTITY_STATED: dict[str, tuple[re.Pattern[str], ...]] = {
    "measure": (re.compile(r"\d"),),
    "percent": (re.compile(r"%|퍼센트|분의\s*\d|\d\s*할|[일이삼사오육칠팔구십]\s*할"),),
    "count": (COUNT_RE, re.compile(r"\d\s*(?:기|회분|차)(?=[의분에\s,.)]|$)")),  # '3기의 차임액'
    "hours": (HOURS_RE,),
    "period": (PERIOD_RE, DAY_RE, re.compile(r"\d\s*월\s*(?:이내|내|간)")),
    "amount": (
        AMOUNT_RE,
        CAP_RE,
        RELATIVE_AMOUNT_RE,  # '이체된 금액 이내' (a bare '그 금액을' states none)
        re.compile(
            r"배액|전액|상당액|한도|대가|최소|최저|최대|상한|하한|"
            r"[일이삼사오육칠팔구십백천만억]+\s*원|(?<![가-힣])원(?=을|\s)"
        ),
    ),
}
PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "cap": (CAP_RE, AMOUNT_RE, PERIOD_RE, RELATIVE_AMOUNT_RE),
    "hours": (HOURS_RE,),
    "count": (COUNT_RE,),
    "amount": (AMOUNT_RE, RELATIVE_AMOUNT_RE),
    "period": (PERIOD_RE, DEADLINE_RE),
    "when": (DAY_RE, PERIOD_RE, DEADLINE_RE),
    "party": (PARTY_RE,),
    "place": (PLACE_AT_RE, PLACE_RE),
    "may": (MAY_RE,),
}


def _first(rules: Sequence[tuple[_K, re.Pattern[str]]], question: str) -> _K | None:
    """The kind of the first rule whose pattern the question matches, or None."""
    return next((kind for kind, pattern in rules if pattern.search(question)), None)


def asked_kind(question: str) -> FactKind | None:
    """The kind of fact the question asks for (first rule that matches), or None."""
    return _first(ASKED, question)


def asked_quantity(question: str) -> QuantityKind | None:
    """The kind of number a question asks for outright ('수수료는 얼마예요?' → amount, '몇 번
    틀리면' → count), or None (a yes/no question, or one that names its topic: '수수료를 받아요?')."""
    return _first(QUANTITY_ASKED, question)


def states(lines: Sequence[str], kind: QuantityKind) -> bool:
    """Whether any line states a number of `kind` (see QUANTITY_STATED)."""
    return any(p.search(line) for line in lines for p in QUANTITY_STATED[kind])


# what states a fact once a line is chosen, but does not choose the line: '…을 받을 때' is often
# a condition ('제공받을 때 발송비를 부담한 경우'), and is the answer only in the line the
# question's words chose
STATED_TOO: dict[str, tuple[re.Pattern[str], ...]] = {"when": (EVENT_TIME_RE,)}


LEADING_CONJUNCTION_RE = re.compile(r"^(?:및|또는|그리고|혹은|등)\s+")


def find_fact(sentence: str, kind: FactKind | None, near: Sequence[str] = ()) -> str | None:
    """The span of `sentence` that states a fact of `kind` ('3년간', '10시간 이상'): of several,
    the one closest to a word of the question (`near`), else the first."""
    if kind is None or kind == "may":  # a yes/no: the line quoted whole is its answer
        return None
    for pattern in (*PATTERNS[kind], *STATED_TOO.get(kind, ())):
        matches = list(pattern.finditer(sentence))
        if matches:
            best = _in_asked_range(sentence, matches, near) or min(
                matches, key=lambda m: (_distance(sentence, m, near), m.start()))  # fmt: skip
            span = " ".join(_whole_date(sentence, best).split())
            return LEADING_CONJUNCTION_RE.sub("", span)  # not '및 일정을 변경할 때'
    return None


# a schedule's range ('10일전까지(19~10) 통보시 상품가격의 15%'; '(~30)': 30 or more)
RANGE_RE = re.compile(r"\(\s*(\d+)?\s*~\s*(\d+)?\s*\)")
DAYS_IN = {"일": 1, "주": 7, "주일": 7}  # a schedule's ranges count days


def _in_asked_range(sentence: str, matches: Sequence[re.Match[str]],
                    near: Sequence[str]) -> re.Match[str] | None:  # fmt: skip
    """In a schedule, the fact that follows the range holding the days the question says ('출발
    15일 전에 취소하면' → the '(19~10)' entry's '상품가격의 15%'; '2주' is 14 days: `near`
    holds the question's morphemes in order); None without one."""
    numbers = [int(w) * DAYS_IN[unit] for w, unit in zip(near, near[1:], strict=False)
               if w.isdigit() and unit in DAYS_IN]  # fmt: skip
    for found in RANGE_RE.finditer(sentence) if numbers else ():
        bounds = sorted(int(b) for b in found.groups() if b)
        if not bounds:
            continue
        top = bounds[-1] if len(bounds) == 2 else float("inf")  # an open range: that or more
        if any(bounds[0] <= n <= top for n in numbers):
            return next((m for m in matches if m.start() >= found.end()), None)
    return None


def _whole_date(sentence: str, match: re.Match[str]) -> str:
    """The match, or the whole calendar date it is part of ('15일까지' of '2026년 12월
    15일까지': a deadline is its date, not its day)."""
    for date in DATE_RE.finditer(sentence):
        if date.start() <= match.start() and match.end() <= date.end():
            return date.group(0)
    return match.group(0)


def fact_rank(sentence: str, kind: FactKind | None) -> int:
    """How well `sentence` states a fact of `kind`: 0 not at all; higher for the kind's first
    (most specific) pattern, e.g. a cap stated before '넘지 못한다' over any amount."""
    if kind is None:
        return 0
    patterns = PATTERNS[kind]
    return next((len(patterns) - i for i, p in enumerate(patterns) if p.search(sentence)), 0)


def _distance(sentence: str, match: re.Match[str], near: Sequence[str]) -> int:
    """Characters between the match and the nearest word of the question (0 without words)."""
    gaps = [min(abs(m.start() - match.end()), abs(m.end() - match.start()))
            for w in near if len(w) > 1 for m in re.finditer(re.escape(w), sentence)]  # fmt: skip
    return min(gaps) if gaps else 0


# the unit a question asks a period in ('몇 년까지' → 년): a line stating a period in that unit
# answers it over one stating another ('6개월 전부터' beside '10년을 초과하지 아니하는')
ASKED_UNITS = (("년", re.compile(r"몇\s*년")), ("개월", re.compile(r"몇\s*(?:개월|달)")),
               ("일", re.compile(r"며칠|몇\s*일")), ("시간", re.compile(r"몇\s*시간")),
               ("주", re.compile(r"몇\s*주")))  # fmt: skip


def asked_unit(question: str) -> str | None:
    """The time unit a question asks a period in, or None."""
    return _first(ASKED_UNITS, question)


def states_unit(text: str, unit: str) -> bool:
    """Whether `text` states a period in `unit` ('3영업일' for 일)."""
    spelled = r"(?:영업)?일" if unit == "일" else re.escape(unit)
    return re.search(rf"{NUM}\s*{spelled}", text) is not None


# A number the question states ('4시간 일하면', '두 번 넘게', '세 달'): the 항/호 that states the
# same number is the one about that case ('4시간 근로에 30분' beside '1주 12시간'). Native Korean
# numerals count before a counter; a line's numbers are its digits, not an article or 항 it cites
# ('제2조 제3항') nor its own marker. One is left out: '1일', '1개월' are everywhere.
NATIVE_NUMERALS = {"한": 1, "두": 2, "세": 3, "석": 3, "네": 4, "넉": 4, "다섯": 5, "여섯": 6,
                   "일곱": 7, "여덟": 8, "아홉": 9, "열": 10, "스무": 20}  # fmt: skip
COUNTER = r"(?:번|회|차례|달|개월|시간|일|주|년|명|기|배|분|달치|번째)"
ASKED_NUMBER_RE = re.compile(
    rf"(?<![가-힣\d])(\d+|{'|'.join(sorted(NATIVE_NUMERALS, key=len, reverse=True))})\s*{COUNTER}"
)
STATED_NUMBER_RE = re.compile(r"(?<![\d.,제])(\d+)(?![\d.,]|\s*(?:조|항|호)(?![가-힣]))")
LINE_MARKER_RE = re.compile(r"^\s*(?:[①-⑳]|\d{1,2}[.)]|[가-하][.)])\s*")


def asked_numbers(question: str) -> frozenset[int]:
    """The numbers other than one the question states with a counter ('두 번' → 2)."""
    found = {int(w) if w.isdigit() else NATIVE_NUMERALS[w]
             for w in ASKED_NUMBER_RE.findall(question)}  # fmt: skip
    return frozenset(found - {1})


def stated_numbers(line: str) -> frozenset[int]:
    """The numbers a 항/호 line states ('2회분 이상' → 2), without its marker and citations."""
    return frozenset(int(n) for n in STATED_NUMBER_RE.findall(LINE_MARKER_RE.sub("", line)))
