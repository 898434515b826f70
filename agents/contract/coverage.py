"""Does a clause cover what the question is about, or only share a generic word with it?

A question is read as topic units, one per word (eojeol): the content nouns of '하자보수' are one
unit [하자, 보수], '기간' would be another, but generic words (기간, 금액, 언제, 계약, the parties …)
are aspects of a fact, not topics, and are dropped. A clause covers a unit when it holds every
morpheme of it (so '하자보수' is not covered by a 보수(fee) clause), or, for a one-morpheme unit,
a thesaurus concept or an English word's Korean register word of it. A question none of whose
units the best clause covers is about something the contract lacks:

    >>> topic_units("하자보수 기간은?")
    [TopicUnit(word='하자보수', morphemes=('하자', '보수'))]

A question with no topic unit at all ('기간은?') is not judged here (every clause may answer it).

Not every unit weighs the same (`coverage`): a unit most of the contract's clauses cover is the
contract's subject, not the question's topic ('비밀정보' in an NDA, '수급사업자' in a
subcontract), and what is done ('부담하나요', '보관되나요': a verb or a 하다/되다 noun) says less
than what it is done to. Each unit weighs its inverse clause frequency in the contract, halved
for a predicate; a clause answers only when it covers at least half of the question's weight
(`MIN_COVERAGE`), so '비밀정보 관리 비용은 누가 부담하나요?' is not answered by a clause that
shares only '비밀정보', nor '경조사 휴가' by the annual-leave clause (it covers 0.41 of that
question's weight in the employment contract written here). Words of a condition or background
clause ('보일러가 고장나면', '태풍 때문에') are circumstances, not the topic, and weigh nothing
(`main_clause_start`), unless the contract has no word for any of them ('해외로 이민 가면
계좌는?', '리뷰 쓰면 포인트 줘요?': the condition is the topic and weighs as the main clause).
A title the question names weighs in the search by the share of the question's topic it names (`title_share`). English questions keep the earlier rule (one covered unit answers).
Measured (bench/contract_answers.py, bench/contract_search.py): see the commit that brought it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from agents.contract.models import Article
from agents.contract.parties import PARTY_WORDS
from agents.contract.thesaurus import everyday, is_english, kin, restate, rewrite
from agents.contract.tokenize import tagged, tokens

# Generic words: what kind of fact is asked (a period, an amount, a party), never the topic.
GENERIC_WORDS = frozenset(
    "기간 시간 기한 일자 날짜 날 일 주 개월 월 년 금액 비용 돈 얼마 얼마나 언제 어디 누구 누가 무엇 뭐 몇 "
    "방법 조건 경우 내용 사항 관련 대하 관하 기준 절차 여부 범위 이상 이하 이내 미만 초과 최대 최소 "
    "지급 며칠 일주일 하루 한달 매주 매월 매년 요금 가격 값 퍼센트 상한 한도 시작 이유 왜 "
    "중간 다시 매달 매번 다른 사람 처음 나중 미리 바로 직접 혹시 정말 꼭 예전 "
    "계약 계약서 조항 조문 규정 약관 본 당사자 상대방 쪽 측 때 전 후 중 동안 가능 필요 의무 책임 권리 "
    "갑 을 병 회사 이용자 회원 고객 사업자 원사업자 수급사업자 발주자 수급인 도급인 임대인 임차인 "
    "근로자 사용자 매도인 매수인 여행자 여행사 제공자 이용 하다 되다 있다 없다 "
    "what when who how much many long period amount contract clause party parties the a an is are "
    "does do can of for to in on by".split()
)
# ... and every party word: a side named in everyday words ('원청이', '집주인이') says who
ASPECT_WORDS = GENERIC_WORDS | PARTY_WORDS
NOUN_TAG_RE = re.compile(r"^(?:NNG|NNP|SL|XR|SH)")
VERB_TAGS = ("VV", "VA")
PREDICATE_TAGS = ("XSV", "XSA")  # 하다/되다 after a noun: '부담하나요', '보관되나요'
PREDICATE_WEIGHT = 0.5  # what is done weighs half of what it is done to
CONTEXT_WEIGHT = 0.0  # a word of a condition or background clause ('고장나면', '샀는데')
# ... unless the contract has no word for any of the condition's words (no clause covers them,
# thesaurus included) and the main clause names a topic too: '해외로 이민 가면 계좌는?',
# '회사가 파산하면 주문은?' ask about what the condition names, which a clause on 계좌 or 주문
# does not answer; '제 실수로 잘못 결제했으면 환불 비용은?' (결제 is the contract's) stays a
# circumstance. Such a condition weighs as the main clause does (it had weighed half: '리뷰 쓰면
# 포인트 줘요?' was answered by a 포인트 clause that has no word for 리뷰)
# Endings of a subordinate clause (condition, cause, background, concession, purpose) and the
# nouns that make a clause an adverbial of time or cause ('들어가기 전에', '가입할 때')
SUBORDINATE_EC = ("면", "는데", "ᆫ데", "은데", "서", "니까", "지만", "다가", "어도", "아도", "ᆫ지")
PURPOSE_EC = "려면"  # '해고하려면 … 알려줘야': the purpose is the topic, not a condition
# '-어도 되다/괜찮다' asks leave ('월세를 카드로 내도 돼요?'): the verb before it is the main
# predicate, not a concession ('비가 와도 출발해요?')
PERMISSION_EC = ("어도", "아도")
PERMISSION_HEADS = frozenset({"되", "괜찮"})
# a one-syllable suffix naming what is paid for a thing ('반품비', '입금액', '이용료'): the
# thing names the topic, the suffix only the kind of fact (as 비용, 금액 are generic words)
COST_SUFFIXES = frozenset({"비", "료", "액", "값"})
BOUND_SU = frozenset({"수도", "수는", "수가", "수"})
CLAUSE_NOUNS = frozenset("전 후 때 때문 동안 경우 중 뒤 다음".split())
ADVERB_READINGS = 2  # Kiwi's analyses of a bare noun looked at for an adverb reading
SUBJECT_SHARE = 0.5  # a word held by at least this share of the clauses is the contract's subject
MIN_COVERAGE = 0.5  # share of the question's topic weight a clause must cover to answer


@dataclass(frozen=True)
class TopicUnit:
    word: str  # the question's word (eojeol) without its particles
    morphemes: tuple[str, ...]
    predicate: bool = False  # a verb or a 하다/되다 noun: what is done, not what it is about
    context: bool = False  # in a condition or background clause, not the main clause
    surface: str = ""  # the word as written up to its last noun ('이의신청을' → '이의신청')
    # register words of the everyday phrases of the question the word is part of ('어느 나라 법'
    # → 준거법 for 나라): a phrase entry matches the question, never one of its words alone
    phrased: tuple[str, ...] = ()


@lru_cache(maxsize=1024)
def topic_units(question: str) -> list[TopicUnit]:
    """The question's topic units, in order (see the module docstring)."""
    units: list[TopicUnit] = []
    main_from = main_clause_start(question)
    in_context = word_morphemes(question)
    previous = ""
    for match in re.finditer(r"[0-9A-Za-z가-힣·]+", question):
        word, context = match.group(0), match.start() < main_from
        after, previous = previous, word
        if _bound_su(after, word):
            continue  # '거절할 수도 있나요': the bound noun 수, not 수도 (a capital)
        analysed = in_context[match.start()] or tagged(word)
        nouns = tuple(f for f, t in analysed if NOUN_TAG_RE.match(t) and f not in ASPECT_WORDS)
        if len(nouns) == 1 and len(nouns[0]) == 1:
            nouns = ()  # a lone syllable ('안', '방') says too little to be a topic
        if nouns == (word,) and adverbial(word):
            nouns = ()  # '원래 알고 있던', '혼자 개발한': how or when, not what it is about
        predicate = any(t in PREDICATE_TAGS for _, t in analysed)
        surface = noun_surface(word)
        found = ([TopicUnit(word, nouns, predicate, context, surface, phrased(question, surface))]
                 if nouns else [])  # fmt: skip
        # a verb is a topic when the thesaurus knows it ('그만두' → termination), by its lemma
        found += [TopicUnit(f, (f,), True, context) for f, t in analysed
                  if t in VERB_TAGS and f not in ASPECT_WORDS and rewrite(f).concepts]  # fmt: skip
        units += [u for u in found if all(v.morphemes != u.morphemes for v in units)]
    return units


@lru_cache(maxsize=4096)
def adverbial(word: str) -> bool:
    """A noun Kiwi's dictionary also reads whole as an adverb ('원래', '혼자', '대신', '한참',
    '종일'): written bare before a verb it says how or when something is done, as '따로' or
    '미리' do, and a contract that never writes it can still have the clause asked about. Read
    from Kiwi's analyses of the word alone (its first `ADVERB_READINGS`), not from a word list."""
    from agents.contract.tokenize import _analyzer

    readings = _analyzer().analyze(word, top_n=ADVERB_READINGS)
    return any(
        len(tokens) == 1 and tokens[0].form == word and str(tokens[0].tag) == "MAG"
        for tokens, _ in readings
    )


def word_morphemes(question: str) -> dict[int, list[tuple[str, str]]]:
    """Each word's morphemes (form, tag), keyed by where the word starts, as Kiwi reads them in
    the whole question: a word analysed alone is read otherwise ('이자는' alone is 이/MM 자/NNB
    는/JX; in '연체 이자는' it is 이자/NNG 는/JX)."""
    from agents.contract.tokenize import _analyzer

    words = [(m.start(), m.end()) for m in re.finditer(r"[0-9A-Za-z가-힣·]+", question)]
    out: dict[int, list[tuple[str, str]]] = {start: [] for start, _ in words}
    for token in _analyzer().tokenize(question):
        for start, end in words:
            if start <= token.start < end:
                out[start].append((token.form.lower(), str(token.tag).split("-")[0]))
                break
    return out


def phrased(question: str, noun: str) -> tuple[str, ...]:
    """The register words of the everyday phrases ('어느 나라', '단순 변심') the question uses
    that hold `noun` (the word as written up to its last noun)."""
    if len(noun) < 2:
        return ()
    words: list[str] = []
    for entry in everyday():
        if any(" " in w and noun in w and w in question for w in entry.words):
            words += [w for w in entry.register if w not in words]
    return tuple(words)


PARTICLE_RE = re.compile(
    r"(?:에서|에게|한테|으로|까지|부터|이랑|랑|은|는|이|가|을|를|에|로|와|과|도|만|의)$"
)


def missing_topic(question: str, articles: Sequence[Article]) -> str:
    """What a question asks about that no clause of the contract holds, as the question writes
    it: the last run of its topic nouns written side by side in its main clause ('적립금
    유효기간은 얼마예요?' → '적립금 유효기간') that holds a word no clause covers; '' when every
    noun it names is somewhere in the contract (then naming one would misstate what is lacking)."""
    words = re.findall(r"[0-9A-Za-z가-힣·]+", question)
    units = [u for u in topic_units(question) if u.surface and not u.predicate]
    main = [u for u in units if not u.context] or units
    runs: list[list[TopicUnit]] = []
    last = -2  # the word index of the previous unit
    for unit in main:
        at = words.index(unit.word, max(last, 0)) if unit.word in words[max(last, 0) :] else -2
        bare_before = (
            bool(runs) and at == last + 1 and _bare(runs[-1][-1].word) == runs[-1][-1].word
        )
        if bare_before:  # '적립금 유효기간': the previous word, written bare, modifies this one
            runs[-1].append(unit)
        else:
            runs.append([unit])
        last = at
    for run in reversed(runs):
        if any(not any(covers(u, a) for a in articles) for u in run):
            return " ".join(_bare(u.word) for u in run)
    return ""


def _bare(word: str) -> str:
    """The noun a question's word writes, without its particle or ending ('에스크로는' →
    '에스크로', '선착순이에요' → '선착순'): the longer of Kiwi's noun span and the word less a
    final particle (Kiwi may read the '로' of 에스크로 as one)."""
    noun = noun_surface(word)
    stripped = PARTICLE_RE.sub("", word)
    if stripped == word or len(stripped) < 2:
        return noun or word
    return max((noun, stripped), key=len)


def _bound_su(before: str, word: str) -> bool:
    """'수도'/'수는'/'수가' after a verb's ㄹ-adnominal ('할', '볼', '될'): the bound noun 수 of
    '-ㄹ 수 있다', which Kiwi, reading the word alone, may take for the noun 수도."""
    last = before[-1:]
    final_rieul = bool(last) and "가" <= last <= "힣" and (ord(last) - 0xAC00) % 28 == 8
    return final_rieul and word in BOUND_SU


@lru_cache(maxsize=4096)
def noun_surface(word: str) -> str:
    """The word as written up to the end of its last noun, its particles and endings dropped
    ('이의신청을' → '이의신청', '지급정지는' → '지급정지'): Kiwi may split a compound in a
    question otherwise than in the contract ('이의신청' → 이 + 의 + 신청), and the written
    compound still finds the clause that writes it."""
    from agents.contract.tokenize import _analyzer

    end = 0
    for token in _analyzer().tokenize(word):
        if NOUN_TAG_RE.match(str(token.tag)):
            end = token.start + token.len
    return word[:end]


def main_clause_start(question: str) -> int:
    """Where the question's main clause starts: after its last condition or background clause
    ('보일러가 고장나면 | 수리비는 누가 내?', '태풍 때문에 일정이 바뀌면 | 차액은?'); 0 when it
    has none. A clause ending the question ('세를 주면?') is the main one."""
    from agents.understanding.morphemes import analyse

    morphemes = analyse(question)
    start = 0
    for i, m in enumerate(morphemes):
        after = morphemes[i + 1 :]
        if not any(n.content for n in after):
            break
        leave = m.form.endswith(PERMISSION_EC) and after[0].form in PERMISSION_HEADS
        ends = (m.tag == "EC" and m.form.endswith(SUBORDINATE_EC) and after[0].tag != "VX"
                and not m.form.endswith(PURPOSE_EC) and not leave)  # fmt: skip
        clause_noun = (m.form in CLAUSE_NOUNS and m.tag in ("NNG", "NNB") and i > 0
                       and morphemes[i - 1].tag in ("ETN", "ETM", "NNG", "NNP"))  # fmt: skip
        if clause_noun and m.form != "때문" and morphemes[i - 1].tag not in ("ETN", "ETM"):
            clause_noun = False  # '계약 전' is a noun phrase; only '태풍 때문에' after a noun
        if ends or clause_noun:
            start = m.end
    return start


def article_words(article: Article) -> tuple[frozenset[str], str]:
    """The clause's morphemes (heading and body) and its text without spaces (cached)."""
    return _text_words(f"{article.part_title}\n{article.title}\n{article.body}")


@lru_cache(maxsize=4096)
def _text_words(text: str) -> tuple[frozenset[str], str]:
    return frozenset(tokens(text)), re.sub(r"\s+", "", text)


def covers(unit: TopicUnit, article: Article) -> bool:
    """The clause holds the unit: the compound as written ('경업금지'), every morpheme of it when
    none is a lone syllable ('하자의 보수'), or (one morpheme) a concept or translation of it."""
    words, text = article_words(article)
    joined = "".join(unit.morphemes)
    if len(unit.surface) > len(joined) and unit.surface.endswith(joined):
        # Kiwi lost the compound's head ('이의신청' → 이 + 의 + 신청): the written word decides
        return unit.surface in text
    if joined in text:
        return True
    if len(unit.morphemes) > 1:
        heads = [m for m in unit.morphemes if m not in COST_SUFFIXES]
        if heads and all(len(m) > 1 and (m in words or m in text) for m in heads):
            return True  # '반품비' (반품 + 비) is covered by the 반품 clause that says 비용
        # an everyday compound Kiwi splits ('집주인' → 집 + 주인) by its register words
        register = {t for e in everyday() if joined in e.words or joined in e.morphemes
                    for t in e.register} | set(unit.phrased)  # fmt: skip
        return any(t in words or t in text for t in register) or _kin_held(
            joined, [joined], words, text
        )
    stem = unit.morphemes[0][:-1]
    if (
        unit.morphemes[0][-1:] in COST_SUFFIXES
        and len(stem) > 1
        and (stem in words or stem in text)
    ):
        return True  # '운송비' kept whole by Kiwi: covered as 운송 + 비 would be (above)
    meant = rewrite(unit.word)
    register = {t for c in meant.concepts for t in c.terms} | set(meant.translated)
    register |= set(unit.phrased)
    register |= _prefix_words(unit.morphemes[0])
    if any(t in words or (len(t) > 1 and t in text) for t in register):
        return True
    if _kin_held(unit.word, unit.morphemes, words, text):
        return True  # a word of its meaning group: '물건' by 화물
    return _heading_shares_start(unit.morphemes[0], article)


def _kin_held(word: str, morphemes: Sequence[str], words: frozenset[str], text: str) -> bool:
    """The clause holds a word of the meaning group of `word` (thesaurus.kin): a one-morpheme
    word as one of its morphemes (not '장비' across the words of '사업장 비…'), a longer one as
    written."""
    return any(t in words if tokens(t) == [t] else t in text for t in kin(word, morphemes))


def _heading_shares_start(morpheme: str, article: Article) -> bool:
    """A compound Kiwi keeps whole ('근무지') that the clause never writes, whose first two or
    more syllables are a word of the clause's heading ('근무' of 제2조(근무장소)): the heading
    names the same thing in other words. Only the heading: in the body a shared start ('근무'
    of '근무일') says much less."""
    if len(morpheme) <= 2 or not morpheme.isalpha():
        return False
    _, text = article_words(article)
    if morpheme in text:
        return False  # written as such: the plain rules above decide
    heading = set(tokens(article.title)) - ASPECT_WORDS  # '계약' of 계약금 is no topic
    return any(morpheme[:k] in heading for k in range(len(morpheme) - 1, 1, -1))


def _prefix_words(morpheme: str) -> set[str]:
    """Register words of an everyday word the morpheme is or starts with ('집주인' → 임대인,
    '월급날' → 월급 → 임금): Kiwi keeps such compounds whole, so the thesaurus's one-morpheme
    words miss them."""
    return {w for k in range(len(morpheme), 1, -1)
            for w in restate(morpheme[:k], [morpheme[:k]])}  # fmt: skip


def uncovered(question: str, article: Article, *, every: bool = False) -> bool:
    """True when the question has topic units and the clause covers none of them (`every`: not
    all of them — a clause named by its title must be what the title names)."""
    units = topic_units(question)
    if not units:
        return False
    found = [covers(u, article) for u in units]
    return not all(found) if every else not any(found)


def _spread(units: Sequence[TopicUnit], articles: Sequence[Article]) -> list[tuple[int, float]]:
    """Each unit's clause frequency among `articles` (the contract's clauses) and the weight it
    gives: the inverse clause frequency, halved for a predicate (see the module docstring)."""
    n = len(articles)
    found = [sum(1 for a in articles if covers(u, a)) for u in units]
    return [(df, math.log((n + 1) / (df + 0.5)) * (PREDICATE_WEIGHT if u.predicate else 1.0))
            for u, df in zip(units, found, strict=True)]  # fmt: skip


def unit_weights(question: str, articles: Sequence[Article]) -> list[float]:
    """Each topic unit's weight (`_spread`), a condition's words weighing nothing or half."""
    units = topic_units(question)
    spread = _spread(units, articles)
    # the contract's subject ('정보' in an NDA: most clauses hold it) tells no condition apart
    subject = len(articles) * SUBJECT_SHARE
    context = [df for u, (df, _) in zip(units, spread, strict=True) if u.context and df < subject]
    foreign = (any(not u.context for u in units) and bool(context)
               and not any(context))  # fmt: skip
    # '예금이 압류되면 어떻게 돼요?' asks what a condition leads to, and the contract has no word
    # for a thing the condition names (압류): the condition is the topic, so no clause covers it.
    # A condition in the contract's own words ('계약금만 낸 상태에서 취소하고 싶으면 어떻게
    # 돼요?') is left unjudged as before: judged, synonyms it lacks (취소/해제) cut right answers
    conditional = (any(not u.context for u in units) or not asks_outcome(question)
                   or all(context))  # fmt: skip
    factor = 1.0 if foreign else CONTEXT_WEIGHT
    return [w * factor if u.context and conditional else w
            for u, (_, w) in zip(units, spread, strict=True)]  # fmt: skip


OUTCOME_RE = re.compile(r"어떻게\s*(?:되|돼|됩)")


def asks_outcome(question: str) -> bool:
    """The main clause asks what happens ('… 어떻게 돼요?', '어떻게 되나요?')."""
    return bool(OUTCOME_RE.search(question[main_clause_start(question) :]))


def min_coverage(question: str) -> float:
    """The coverage a clause needs to answer: MIN_COVERAGE, or any covered unit in English."""
    return 1e-9 if is_english(question) else MIN_COVERAGE


def coverage(question: str, article: Article, articles: Sequence[Article]) -> float:
    """The share of the question's topic weight the clause covers (1.0 with no topic unit in
    the main clause: the question is not judged here)."""
    units = topic_units(question)
    if not units:
        return 1.0
    if is_english(question):
        # English words are read through a word list that misses most of them: the share of
        # units covered, and one is enough (min_coverage); the weights were measured on Korean
        return sum(1 for u in units if covers(u, article)) / len(units)
    weights = unit_weights(question, articles)
    total = sum(weights)
    if total <= 0:
        return 1.0
    return sum(w for u, w in zip(units, weights, strict=True) if covers(u, article)) / total


TITLE_CONTEXT_SHARE = 0.5  # in a title's share, a condition's words count half, not nothing


def title_weights(question: str, articles: Sequence[Article]) -> list[tuple[TopicUnit, float]]:
    """Each topic unit with its weight in a title's share (`title_share`): as in `unit_weights`,
    but a condition's words count half (they tell what the question is about even when the main
    clause answers it). Computed once per question, for every title it names."""
    units = topic_units(question)
    return [(u, w * (TITLE_CONTEXT_SHARE if u.context else 1.0))
            for u, (_, w) in zip(units, _spread(units, articles), strict=True)]  # fmt: skip


def title_share(question: str, title_words: Sequence[str],
                weights: Sequence[tuple[TopicUnit, float]]) -> float:  # fmt: skip
    """The share of the question's topic weight (`title_weights`) a clause's title names (1.0
    with no topic unit): a title named by one word of a question about more ('받은 지 석 달
    안인데 광고와 다른 제품이면 반품돼요?' names 제15조(반품), the question is about 광고와
    다른 제품) decides little; one that names what is asked ('반품 비용은 누가 내요?') decides
    as before."""
    total = sum(w for _, w in weights)
    if not weights or is_english(question) or total <= 0:
        return 1.0
    named = set(title_words)
    share = sum(w for u, w in weights if any(len(m) > 1 and m in named for m in u.morphemes))
    return share / total


# Particles that make a noun an adjunct of the predicate, not what it is about: where, to whom,
# with what, like what ('친구한테', '카드로', '김치처럼'); and adverbs ('먼저', '강제로' as MAG)
ADJUNCT_TAGS = frozenset({"JKB", "JC", "JKV"})


def adjunct(question: str, unit: TopicUnit) -> bool:
    """The unit's word is an adjunct of the question's predicate (an oblique particle or an
    adverb: '친구한테', '강제로', '먼저'), not its subject, object or topic."""
    for match in re.finditer(r"[0-9A-Za-z가-힣·]+", question):
        if match.group(0) == unit.word:
            tags = [t for _, t in word_morphemes(question)[match.start()]]
            return bool(tags) and (tags[0] == "MAG" or any(t in ADJUNCT_TAGS for t in tags))
    return False


def read_loosely(question: str, article: Article,
                 articles: Sequence[Article]) -> list[TopicUnit]:  # fmt: skip
    """The words of the question `article` does not hold, when what it lacks is only how the
    question says it: every main-clause word the clause misses is a predicate ('내보내려면') or
    an adjunct ('친구한테', '강제로'), never what the question is about (its subject, object or
    topic), and a condition is not in words the contract lacks altogether ('리뷰 쓰면 포인트
    줘요?': 리뷰 is the topic). [] when the clause misses a topic word (or nothing)."""
    units = topic_units(question)
    missed = [u for u in units if not u.context and not covers(u, article)]
    if not missed or any(not (u.predicate or adjunct(question, u)) for u in missed):
        return []
    condition = [u for u in units if u.context]
    if condition and not any(any(covers(u, a) for a in articles) for u in condition):
        return []
    return missed


def as_written(unit: TopicUnit) -> str:
    """A unit as an answer names it: a verb by its dictionary form ('내보내다'), a noun bare
    ('친구한테' → '친구'), a 하다 noun by its noun ('경고해야' → '경고')."""
    if unit.predicate and unit.morphemes == (unit.word,):
        return unit.word + "다"
    return _bare(unit.word)
