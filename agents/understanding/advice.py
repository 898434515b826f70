"""Advice and forecasts read from Kiwi morphemes (issue 31): a trade verb with an evaluative,
deontic or suggesting ending is advice; a price move with a future or conjectural ending is a
forecast. One lemma covers every ending and spacing ('사는게 맞아', '사도 될까', '살까요', '사는
게 맞나' are all 사 + an ending of one of the kinds below), so the grammar is a few lemma lists
in `vocabulary.json` ("morpheme_grammar"), not every form joined with every ending.

    asks_advice("SK하이닉스 여기서 더 사모아도 될까")   # Hit(kind='advice', surface='사모아도 될까')
    asks_advice("삼성전자 매수 체결 거래량 알려줘")      # None: a trade noun, nothing evaluated
    asks_advice("KODEX 200 다음 달에 떨어질 것 같아?")  # Hit(kind='forecast', …)

The kinds, each a short pattern over (lemma, tag) after the verb (auxiliaries such as 보/두/버리
in between are skipped):
- question of intent: 살까, 팔아버릴까, 담아볼래
- deontic: 사야 (해), 팔아야 하나
- permission: 사도 돼/될까/괜찮아/늦지 않아
- evaluation of the act: 사는 게 맞아/나아/좋을까, 파는 편이 나을까
- time or worth: 살 때야, 팔 타이밍, 살 만해
- condition judged: 지금 사면 늦어?, 팔면 후회할까
- nominal judged: 사기엔 늦었나, 들어가기에 적절한
- dilemma: 살지 말지
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from agents.understanding.morphemes import Morpheme, analyse
from agents.understanding.vocabulary import vocabulary

Kind = Literal["advice", "intention", "forecast"]
_VERB_TAGS = ("VV", "VA", "VX")
_ASKING = ("ᆯ까", "ㄹ까", "을까", "ᆯ래", "ㄹ래", "을래")  # '살까', '나을까요', '담아볼래'
_GUESSING = ("ᆯ까", "ㄹ까", "을까", "ᆫ가", "나")  # '오를까', '바닥인가', '찍었나'
_TAIL_TAGS = ("VCP", "EF", "SF", "JX", "JKS", "XSA", "XSV", "VV")  # '때야', '만해', '때가 됐나'
_LEVELS = re.compile(r"신고가|최고가|전고점|고점|최고치|저점|바닥")  # a level gone to


@dataclass(frozen=True)
class Hit:
    kind: Kind
    surface: str  # the question's words from the verb to the end of its ending


@lru_cache(maxsize=1)
def _grammar() -> dict[str, frozenset[str]]:
    data: dict[str, Any] = vocabulary()["morpheme_grammar"]
    return {k: frozenset(v) for k, v in data.items() if isinstance(v, list)}


def asks_advice(question: str) -> Hit | None:
    """The first trade verb or price move the question asks about judgementally, if any."""
    g = _grammar()
    tokens = analyse(question)
    for i, t in enumerate(tokens):
        lemma = _verb_at(tokens, i)
        if t.tag == "NNB" and t.form in ("살", "팔") and _advice_tail(tokens, i, g) == "advice":
            return Hit("advice", _span(question, tokens, i, i + 3))  # '지금이 살 때야' (사 + ᆯ)
        if lemma is None:
            trade_noun = t.tag == "NNG" and t.form in g["trade_nouns"]
            if trade_noun and (_noun_tail(tokens, i + 1, g) or _verb_judged(tokens, i + 1, g)):
                # '매수 의견', '분할 매수 시작해도 될까', '손절 안 하면 후회할까'
                return Hit("advice", _span(question, tokens, i, i + 4))
            if trade_noun and _timing_noun(tokens, i + 1, g):
                return Hit("intention", _span(question, tokens, i, i + 2))  # '매도 시점'?
            if t.form in g["forecast_nouns"] and _noun_tail(tokens, i + 1, g, forecast=True):
                return Hit("forecast", _span(question, tokens, i, i + 3))
            continue
        j = _after_verb(tokens, i, g)
        kind: Kind | None = None
        if lemma in g["aux_only_lemmas"] and j == i + 1:
            continue  # '들' is a trade only as '들고 있/가' (hold), not '돈이 얼마나 들까'
        if lemma in g["trade_lemmas"] or lemma in g["trade_nouns"]:
            kind = _advice_tail(tokens, j, g, conditional=lemma not in g["no_condition_lemmas"])
        elif lemma in g["move_lemmas"] or (lemma == "가" and (  # going to a level ('3000 갈까',
                any(t.tag == "SN" for t in tokens[max(0, i - 3) : i])  # '신고가 언제 갈까')
                or _LEVELS.search(question[tokens[max(0, i - 4)].start : t.start]))):  # fmt: skip
            hypothetical = (
                _if_clause_before(tokens, i) and j < len(tokens) and tokens[j].tag == "EF"
            )
            kind = "forecast" if _forecast_tail(tokens, j, g) or hypothetical else None
            # '10만원 갈까'; '금리 내리면 집값 오르나요': a move asked after an if-clause
        if kind is not None:
            return Hit(kind, _span(question, tokens, i, j + 3))
    return None


def _if_clause_before(tokens: tuple[Morpheme, ...], i: int) -> bool:
    """A conditional clause ('금리 내리면', '환율이 오르면') before token i."""
    return any(t.tag == "EC" and t.form in ("면", "으면") for t in tokens[:i])


def _verb_at(tokens: tuple[Morpheme, ...], i: int) -> str | None:
    """The lemma of a verb starting at i: a VV/VA, or a noun + 하/되 ('매수하', '반등하')."""
    t = tokens[i]
    if t.tag in ("VV", "VA"):
        return t.form
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    light = nxt is not None and nxt.form in ("하", "되") and nxt.tag in ("XSV", "XSA", "VV")
    if t.tag == "NNG" and light:  # '매수해', '물타기 해도', '인하될까'
        return t.form
    return None


def _after_verb(tokens: tuple[Morpheme, ...], i: int, g: dict[str, frozenset[str]]) -> int:
    """The index of the first ending after the verb, past 하/되 and auxiliaries ('사 보', '팔아
    버리', '사 모으', '들고 있', '갖고 가')."""
    j = i + 1
    while j < len(tokens):
        t = tokens[j]
        light = j == i + 1 and t.form in ("하", "되")  # '물타기 해도': a noun's light verb
        if t.tag in ("XSV", "XSA") or light or (t.tag in _VERB_TAGS and t.form in g["auxiliaries"]):
            j += 1
        elif (t.tag == "EC" and t.form in ("어", "아", "고") and j + 1 < len(tokens)
              and (tokens[j + 1].form in g["auxiliaries"] or tokens[j + 1].form in g["trade_lemmas"])):  # fmt: skip
            j += 2  # '사 모으', '들고 있'
        else:
            return j
    return j


def _forms(tokens: tuple[Morpheme, ...], j: int, n: int) -> list[str]:
    return [t.form for t in tokens[j : j + n]]


def _advice_tail(tokens: tuple[Morpheme, ...], j: int, g: dict[str, frozenset[str]],
                 conditional: bool = True) -> Kind | None:  # fmt: skip
    if j >= len(tokens):
        return None
    t, rest = tokens[j], _forms(tokens, j + 1, 4)
    judged = g["judgements"]
    if t.tag in ("EF", "EC") and any(m in t.form for m in _ASKING):
        return "advice"  # 살까, 담아볼래, 들어갈까 말까
    if t.tag == "EC" and t.form in ("어야", "아야"):
        return "advice"  # 사야 해, 팔아야 하나
    if t.tag == "EC" and t.form in ("어도", "아도") and any(f in judged for f in rest[:2]):
        return "advice"  # 사도 될까, 팔아도 괜찮아
    if t.tag == "ETM" and rest and rest[0] in g["act_nouns"] and any(f in judged for f in rest[1:]):
        return "advice"  # 사는 게 맞아, 파는 편이 나을까
    if _timing_after(tokens, j, g):
        return "advice"  # 살 때야, 팔 타이밍인가, 살 만해 — not '팔 때 세금'
    if t.tag == "ETM" and t.form in ("ᆯ", "을") and rest and rest[0] in g["intention_nouns"]:
        return "intention"  # 살 생각인데
    if (conditional and t.tag == "EC" and t.form in ("면", "으면")
            and any(f in judged for f in rest[:2])):  # fmt: skip
        return "advice"  # 지금 사면 늦어?
    nominal = t.tag == "ETN" or (t.tag == "EC" and t.form.startswith("기"))  # '기엔', '기에'
    if nominal and any(f in judged for f in rest[:3]):
        return "advice"  # 사기엔 늦었나
    if t.tag == "EC" and t.form in ("지", "어", "아") and rest and rest[0] in ("말", "고민"):
        return "advice"  # 살지 말지, 팔아 말아
    if t.tag == "EC" and t.form in g["intention_endings"]:
        return "intention"  # 사려고, 사려는데
    return None


def _timing_after(tokens: tuple[Morpheme, ...], j: int, g: dict[str, frozenset[str]]) -> bool:
    """A time or worth noun after the act ('살 때야', '팔 타이밍인가', '살 만해'), closing the
    clause: '팔 때 세금' asks the tax. Kiwi sometimes fuses the ending into the verb ('팔
    타이밍': 팔/VV 타이밍/NNG) or reads '살' as a noun: the noun is then at j itself."""
    t = tokens[j]
    if t.tag.startswith("NN") and t.form in g["timing_nouns"]:
        noun = j
    elif (t.tag == "ETM" and t.form in ("ᆯ", "을")) or t.tag == "NNB":
        noun = j + 1
    else:
        return False
    if noun >= len(tokens) or tokens[noun].form not in g["timing_nouns"]:
        return False
    return noun + 1 >= len(tokens) or tokens[noun + 1].tag in _TAIL_TAGS


def _forecast_tail(tokens: tuple[Morpheme, ...], j: int, g: dict[str, frozenset[str]]) -> bool:
    if j >= len(tokens):
        return False
    t, rest = tokens[j], _forms(tokens, j + 1, 4)
    if t.tag in ("EF", "EC") and any(m in t.form for m in _ASKING[:3]):
        return True  # 오를까, 떨어질까요, 폭락할까 봐
    if t.tag == "ETM" and t.form in ("ᆯ", "을") and rest:
        return rest[0] in g["conjecture_nouns"] or (
            rest[0] in ("것", "거") and any(f in g["conjecture_after"] for f in rest[1:3])
        )  # 오를 가능성, 떨어질 것 같아, 회복할 수 있을까, 오를 건가
    return t.tag == "EC" and t.form == "ᆯ지"  # 오를지 궁금해


def _noun_tail(tokens: tuple[Morpheme, ...], j: int, g: dict[str, frozenset[str]],
               forecast: bool = False) -> bool:  # fmt: skip
    """A trade noun asked about ('매수 의견', '매도 각'), or a move noun ahead ('반등 나올까',
    '상승 여력', '바닥 찍은 건가')."""
    rest = _forms(tokens, j, 4)
    if not rest:
        return False
    if forecast:
        if rest[0] in g["conjecture_nouns"] or rest[0] in ("여력",):
            return True
        guessed = any(t.tag in ("EF", "EC") and any(m in t.form for m in _GUESSING)
                      for t in tokens[j : j + 5])  # fmt: skip
        if rest[0] == "맞" and tokens[j - 1].form not in g["move_lemmas"]:
            return True  # '거품 맞아?', '바닥 맞나요': a judgement of a state ('상승 맞아?' a fact)
        moved = any(f in ("나오", "오", "찍") for f in rest[:2]) or rest[0] == "이"
        return moved and (guessed or "것" in rest or "거" in rest)  # '바닥일까', '반등 나올까'
    return rest[0] in g["noun_judgements"]


def _verb_judged(tokens: tuple[Morpheme, ...], j: int, g: dict[str, frozenset[str]]) -> bool:
    """After a trade noun, the next verb (past an adverb such as '안') asked judgementally."""
    while (j < len(tokens) and tokens[j].tag in ("MAG", "NNG")
           and tokens[j].form not in g["trade_nouns"]):  # fmt: skip
        if tokens[j].tag == "NNG" and _verb_at(tokens, j) is not None:
            break  # '시작해도': a noun that is the verb
        j += 1
    if j >= len(tokens) or _verb_at(tokens, j) is None:
        return False
    return _advice_tail(tokens, _after_verb(tokens, j, g), g) == "advice"


def _timing_noun(tokens: tuple[Morpheme, ...], j: int, g: dict[str, frozenset[str]]) -> bool:
    """'매도 시점', '매수 타이밍' — not '매수 시점별 수익률' (the suffix makes it a grouping)."""
    if j >= len(tokens) or tokens[j].form not in g["timing_nouns"]:
        return False
    return not (j + 1 < len(tokens) and tokens[j + 1].tag == "XSN")


def _span(question: str, tokens: tuple[Morpheme, ...], a: int, b: int) -> str:
    b = min(b, len(tokens)) - 1
    return question[tokens[a].start : tokens[b].end].strip()
