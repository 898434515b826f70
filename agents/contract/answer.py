"""Precise offline answers: which clauses answer, the operative sentence, a one-line answer.

- `select(question, hits)`: the clauses worth listing — a relevance cut, not a fixed top-k. The
  best hit must share words or thesaurus concepts with the question (or be named by it); another
  stays only when it is in the same tier: found by every retriever that found the best one, with
  at least as many shared words and a fused score ≥ 90 % of the best one's. Purpose, definition
  and preamble clauses (filler) only when the question asks for them. Nothing left → the answer
  says the contract has no such clause, unless the evidence says the clause is there and only the
  question's words for it differ (`loose_answer`: the answer then names the words it read loosely). A clause that covers none of the question's topic units
  (coverage.py: '하자보수' is not covered by a 보수(fee) clause that shares only '기간') never
  answers; the nearest ones are listed as related, not as an answer. Nor does one scoring below
  half of the retrievers' first clause when that one fails the cover test (`FAR_BELOW`). A
  question asking for a number outright ('몇 퍼센트', '얼마예요', '며칠', '몇 번') is answered
  only by a clause that states one of that kind (facts.asked_quantity; the runner-up, when the
  best states none and the runner-up covers the question as fully, at ≥ 60 % of its score).
  Calibrated on the tuning questions only (bench/contract_search.py): a plain score ratio listed
  2.2 clauses per answer at 0.43 precision, the tier rule 1.1 at 0.80.
- `operative(article, terms)`: the 항/호 line (and sentence in it) that carries the match and,
  when the question asks for a fact (facts.py: a period, an amount, a party …), holds one.
- `one_line(quote, language)`: the fact first, then the whole sentence quoted, then where it is:
  "3년간 — 비밀유지 의무는 … 존속합니다 (제9조 비밀유지 ②)."

    >>> one_line(Quote("제7조(계약의 해지)", "②", "임대인은 … 해지할 수 있다.", ["해지"]), "ko")
    '임대인은 … 해지할 수 있습니다 (제7조 계약의 해지 ②).'
    >>> one_line(Quote("제9조(비밀유지)", "②", "의무는 3년간 존속한다.", [], "3년간"), "ko")
    '**3년간** — 의무는 3년간 존속합니다 (제9조 비밀유지 ②).'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from agents.contract.coverage import (
    as_written,
    coverage,
    main_clause_start,
    min_coverage,
    read_loosely,
)
from agents.contract.facts import (
    FactKind,
    asked_kind,
    asked_numbers,
    asked_quantity,
    asked_unit,
    fact_rank,
    find_fact,
    stated_numbers,
    states,
    states_unit,
)
from agents.contract.index import Hit
from agents.contract.models import Article
from agents.contract.parties import asked_party, line_subjects
from agents.contract.thesaurus import kin_held, rewrite
from agents.contract.tokenize import tokens

KEEP_RATIO = 0.9  # a second clause's fused score must be ≥ 90 % of the best one's
# the clause that covers the question must score ≥ half the retrievers' first clause: when that
# one fails the cover test and the nearest covering one is far below it, the latter shares a side
# word only (0.5 and 0.7 were measured on all the answer sets: 0.7 cut five right answers)
FAR_BELOW = 0.5
STATING_RATIO = 0.6  # ... or ≥ 60 % when it alone states the number the question asks for
MAX_LISTED = 3
MAX_RELATED = 2
MIN_SHARED = 1  # words or concepts a listed clause must share with the question
FILLER_TITLES = ("목적", "정의", "용어의 정의", "전문")
# a question asking what a word is ('쇼핑몰형 구매대행이 뭐예요?') asks for its definition
FILLER_ASKED = {"목적": ("목적", "purpose", "취지"),
                "정의": ("정의", "뜻", "의미", "definition", "mean", "용어", "뭐예", "뭔가", "뭐야",
                         "뭐죠", "무엇인", "이란", "란 무엇", "누구를 말", "누굴 말", "무엇을 말", "뭘 말",
                "가리키", "what is")}  # fmt: skip
MARKER_RE = re.compile(r"^(?:[①-⑳]|\d{1,2}[.)]|[가-하][.)])\s*")
SENTENCE_END_RE = re.compile(r"(?<=다\.)\s+|(?<=[.!?])\s+(?=[A-Z가-힣“\"])")
# 한다체 → 합니다체 at a sentence end (longest first), so the answer reads as the UI speaks.
# (a verb's '-ㄴ다' is general: '본다' → '봅니다', '한다' → '합니다', '따른다' → '따릅니다')
POLITE_ENDINGS = (("아니하다", "아니합니다"), ("있다", "있습니다"), ("없다", "없습니다"), ("같다", "같습니다"),
                  ("이다", "입니다"), ("니다", "니다"), ("는다", "습니다"))  # fmt: skip
NIEUN, BIEUP = 4, 17  # final consonants ㄴ and ㅂ of a Hangul syllable


@dataclass
class Quote:
    """The operative part of a clause: where it is and the sentence that answers."""

    label: str  # 제7조(계약의 해지)
    marker: str  # ② / ② 1. (a 호 under its 항) / "" for an unnumbered line
    sentence: str  # the whole sentence of the line that answers
    matched: list[str] = field(default_factory=list)
    fact: str | None = None  # the asked fact as the sentence states it ('3년간'), if any
    line: str = ""  # the whole 항/호 line the sentence is in, without its marker
    lead: str = ""  # a 호's lead line ('… 다음 각 호의 경우 … 거절할 수 있다.'), without its marker
    lead_marker: str = ""  # the lead's own 항/호 marker ('①'; '' for an unmarked line)

    @property
    def citation(self) -> str:
        return f"{self.label} {self.marker}".strip()

    @property
    def lead_citation(self) -> str:
        return f"{self.label} {self.lead_marker}".strip()


def is_filler(article: Article, question: str) -> bool:
    """A preamble, purpose or definitions clause the question does not ask about."""
    if article.article_no == 0:  # a preamble (a form appended as a part is not one)
        return article.title == "전문"
    title = article.title.replace(" ", "")
    lowered = question.lower()
    for kind, asked in FILLER_ASKED.items():
        if kind in title and any(a in lowered for a in asked):
            return False
    return any(title == t.replace(" ", "") or title.endswith(t) for t in FILLER_TITLES)


def asks_definition(question: str) -> bool:
    lowered = question.lower()
    return any(a in lowered for a in FILLER_ASKED["정의"])


def _defines(article: Article) -> bool:
    return article.article_no > 0 and "정의" in article.title


def shared(hit: Hit) -> int:
    """What the question and the clause have in common: words and concepts (plus a named one)."""
    named = 1 if "reference" in hit.ranks else 0
    return len(hit.matched_terms) + named


def select(question: str, hits: Sequence[Hit], limit: int = MAX_LISTED,
           articles: Sequence[Article] | None = None) -> list[Hit]:  # fmt: skip
    """The clauses that answer `question`, best first; [] when none clears the cut. `articles`:
    the contract's clauses, which weigh the question's topic units (coverage.py); the hits'
    own when not given."""
    population = list(articles) if articles else [h.article for h in hits]
    covered = {id(h): coverage(question, h.article, population) for h in hits}
    needed = min_coverage(question)
    candidates = [h for h in hits if not is_filler(h.article, question) and shared(h) >= MIN_SHARED
                  and ("reference" in h.ranks or covered[id(h)] >= needed)]  # fmt: skip
    if not candidates:
        return loose_answer(question, hits, population, covered)
    # the retrievers' evidence weighed by the share of the question's topic the clause covers
    # (위약벌 in the annex beats the main body's 비밀유지 clause that covers only 비밀), so a clause
    # far down the fused order does not jump the best one for covering one more side word
    candidates.sort(key=lambda h: -covered[id(h)] * h.score)
    if asks_definition(question):  # '쇼핑몰형 구매대행이 뭐예요?': the definitions clause answers
        candidates.sort(key=lambda h: not _defines(h.article))
    best = candidates[0]
    top = max((h.score for h in hits if not is_filler(h.article, question)), default=best.score)
    if best.score < top * FAR_BELOW:  # '전기 용량을 늘리는 공사는 누가 해요?': 제9조(재건축)
        return []  # fails the cover test, and 제4조(수선) that passes it is far below
    kept = [best] + [h for h in candidates[1:] if same_tier(h, best)]
    quantity = asked_quantity(question)
    if quantity is not None and not any(states(h.article.content, quantity) for h in kept):
        # '반품하면 환불은 며칠 안에 돼요?': the best clause (교환과 수리) states no period; the
        # runner-up, when it covers the question as fully and states one, answers ('금리는 몇
        # 퍼센트예요?' with no clause stating a rate stays unanswered)
        stating = [h for h in candidates[1:2] if states(h.article.content, quantity)
                   and covered[id(h)] >= covered[id(best)]
                   and h.score >= best.score * STATING_RATIO]  # fmt: skip
        return stating[:1]
    return kept[:limit]


LOOSE_SHARE = 0.25  # a loosely read clause must cover more than this share of the question


def loose_answer(question: str, hits: Sequence[Hit], articles: Sequence[Article],
                 covered: dict[int, float]) -> list[Hit]:  # fmt: skip
    """When no clause covers the question, the retrievers' first clause answers all the same if
    the evidence says the contract has the clause and only words for it differ: BM25 and the
    dense ranking both put it first; what it misses of the question is only a predicate or an
    adjunct, never the thing asked about (coverage.read_loosely); it covers more than
    `LOOSE_SHARE` of the question, or states the number the question asks for when what it
    misses is only the verb ('회사가 저를 내보내려면 며칠 전에 말해 줘야 해요?' → 제13조(해고의
    예고) 30일 전); and it states the asked number. The answer says which words it read
    loosely. [] otherwise: the contract has no such clause."""
    best = next((h for h in hits if not is_filler(h.article, question)), None)
    if best is None or shared(best) < MIN_SHARED:
        return []
    if best.ranks.get("bm25") != 1 or best.ranks.get("dense") != 1:
        return []
    quantity = asked_quantity(question)
    if quantity is not None and not states(best.article.content, quantity):
        return []
    missed = read_loosely(question, best.article, articles)
    verbs_only = all(u.predicate for u in missed)
    if not missed or not (covered[id(best)] > LOOSE_SHARE or (quantity is not None and verbs_only)):
        return []
    best.loose = [as_written(u) for u in missed]
    return [best]


def related(question: str, hits: Sequence[Hit], limit: int = MAX_RELATED) -> list[Hit]:
    """The nearest clauses when none answers: shown as related, never as the answer."""
    return [h for h in hits if not is_filler(h.article, question)][:limit]


def same_tier(hit: Hit, best: Hit) -> bool:
    return (set(hit.ranks) >= set(best.ranks) and shared(hit) >= shared(best)
            and hit.score >= best.score * KEEP_RATIO)  # fmt: skip


def _split_marker(line: str) -> tuple[str, str]:
    match = MARKER_RE.match(line)
    if match is None:
        return "", line
    return match.group(0).strip(), line[match.end() :]


CONCEPT_SHARE = (
    0.25  # a concept's register word ('반환' for '정산') counts a quarter of an asked word
)
FACT_WEIGHT = 1.0  # stating the asked kind of fact counts as one more rare word of the question
MAY_WEIGHT = 0.5  # ... half a word when it grants or denies the power a yes/no asks about
UNIT_WEIGHT = 0.5  # ... and half a word more when it counts in the unit asked ('몇 년' → N년)
PARTY_WEIGHT = 0.25  # a 항/호 whose subject is the party the question asks as ('제가', '회사가')
NUMBER_WEIGHT = 1.0  # ... one word more when it states a number the question states ('4시간')
RESTATED_SHARE = 0.5  # a register word for an everyday word ('금융사고' for '사기') counts half
# the asking words themselves: their register words ('언제까지' → 기간, 이내) name no topic
INTERROGATIVE_RE = re.compile(r"언제\s*(?:까지|부터)?|얼마\s*(?:나|동안)?|며칠|누가|누구|몇\s*\S+")


def _weight(text: str, terms: Sequence[str], asked: Sequence[str],
            kind: FactKind | None = None, rarity: dict[str, float] | None = None,
            strong: bool = True, restated: Sequence[str] = (),
            unit: str | None = None, lead: str = "") -> tuple[float, int, int, int]:  # fmt: skip
    """How well a line answers: the question's own words (its morphemes, `asked`), half as much
    the register words of its everyday words (`restated`), a quarter as much its concepts'
    register words (`terms`), each weighed by how few lines of the clause hold it (`rarity`:
    '지급정지' in every 항 of a 지급정지 article tells none apart; '해소' in one does), plus one
    word's weight when the line states the asked kind of fact (the 10-hour rule, not the
    definition beside it; only when the question asks for it outright, `strong`); then the fact's
    rank, distinct matched words (손해, 배상 and 한도 beat 손해 twice), occurrences. A 호's `lead`
    ('… 다음 각 호의 경우 … 거절할 수 있다') states for it the power or ban a yes/no asks."""
    present = [t for t in terms if t and t in text]
    morphemes = set(tokens(text))  # '알려야' holds 알리, which no substring test sees

    def held(t: str) -> bool:
        return len(t) > 1 and (t in morphemes or t in text)

    own_words = {t for t in asked if held(t)}
    restated_words = {t for t in restated if held(t)} - own_words
    concept_words = {t for t in terms if held(t)} - own_words - restated_words
    weights = rarity or {}

    def total(words: set[str]) -> float:  # in one order: a set's varies between processes, and
        return sum(weights.get(t, 1.0) for t in sorted(words))  # float sums with it (ties flip)

    own = (total(own_words) + RESTATED_SHARE * total(restated_words)
           + CONCEPT_SHARE * total(concept_words))  # fmt: skip
    fact = fact_rank(f"{lead} {text}" if kind == "may" else text, kind)
    stated = (MAY_WEIGHT if kind == "may" else FACT_WEIGHT) if strong and fact > 0 else 0.0
    if stated and unit is not None and states_unit(text, unit):
        stated += UNIT_WEIGHT  # '몇 년까지' is answered by the line that counts in years
    return own + stated, fact, len(present), sum(text.count(t) for t in present)


TABLE_CELL = " | "  # how ingest writes a table row as a line (a row stands alone)
HEADING_RE = re.compile(r"^\s*(?:【[^】]*】|<[^>]*>|\[[^\]]*\])\s*$")


def _scored_texts(lines: Sequence[str]) -> list[str]:
    """Each line as it is scored: with the heading-only line above it ('【대항력 및 우선변제권
    확보】' over '① 임차인이 주택의 인도와…' in an exhibit), whose words name its block."""
    out, heading = [], ""
    for line in lines:
        if HEADING_RE.match(line):
            heading = line
            out.append(line)
        else:
            out.append(f"{heading} {line}" if heading else line)
    return out


def _rarity(texts: Sequence[str], words: Sequence[str]) -> dict[str, float]:
    """1 / the number of lines holding each word (a word in every line of n weighs 1/n)."""
    analysed = [(t, set(tokens(t))) for t in texts]
    out: dict[str, float] = {}
    for word in {w for w in words if len(w) > 1}:
        held = sum(1 for text, morphemes in analysed if word in text or word in morphemes)
        out[word] = 1.0 / held if held else 0.0
    return out


def main_words(question: str) -> set[str]:
    """The words of the question's main clause (after its condition or background clause: '서버
    점검으로 사이트가 멈춰서 손해를 보면 | 물어줘요?'), with its concepts' register words."""
    main = question[main_clause_start(question) :]
    meant = rewrite(main)
    words = set(tokens(main)) | {t for c in meant.concepts for t in c.terms} | set(meant.translated)
    return {w for w in words if len(w) > 1}


def operative(label: str, lines: Sequence[str], terms: Sequence[str],
              asked: Sequence[str] = (), question: str = "") -> Quote:  # fmt: skip
    """The line of a clause (항 ②, 호 1., or plain text) that carries most of the question's words
    (`asked`: its morphemes; `terms`: the register words they stand for), the rarer in the clause
    the better, and the asked kind of fact, and its best sentence; the first line when nothing
    matches. A heading-only line is never the answer, but its words count for the lines under
    it."""
    if not lines:
        return Quote(label, "", "", [])
    kind, restated = _asked(question)
    # an amount asked by its topic noun alone ('보증금을 늘리면 …') is not asked outright
    strong = kind not in ("amount", "cap") or asked_quantity(question) is not None
    texts = _scored_texts(lines)
    if question:  # the clause's own word for a question word it never says ('멈춰' → ① 중지)
        said = set(tokens("\n".join(texts)))
        found = kin_held(question, tokens(question), said)
        restated = [*restated, *(w for held in found for w in held if w not in restated)]
    groups = _continued(lines)
    joined = ["\n".join(texts[i] for i in group) for group in groups]
    rarity = _rarity(joined, [*asked, *restated, *terms])

    unit = asked_unit(question) if question else None
    main = main_words(question) if question else set()
    party = asked_party(question, lines) if question else frozenset()
    numbers = asked_numbers(question) if question else frozenset()

    def weight(text: str, i: int) -> tuple[float, ...]:
        # a tie goes to the line holding more of what the question's main clause says
        held = sum(1 for w in main if w in text)
        lead = _lead(lines, i) if kind == "may" else None
        above = lines[lead] if lead is not None else ""
        score, *rest = _weight(text, terms, asked, kind, rarity, strong, restated, unit, above)
        # the 항/호 whose own line has the asking party as subject ('1. 여행자의 … 취소요청시')
        if party & line_subjects(lines[i]):
            score += PARTY_WEIGHT
        if numbers & stated_numbers(text):  # '4시간 일하면' → '4시간 근로에 30분'
            score += NUMBER_WEIGHT
        return (score, *rest, held, -i)

    # the 항/호 whose text (with the lines that continue it: a PDF's '다만, …' line) answers
    # best, then its line that does
    group = max(groups, key=lambda g: weight("\n".join(texts[i] for i in g), g[0]))
    group = _item_of(group, groups, lines, texts, weight)
    best = max(group, key=lambda i: weight(texts[i], i))
    defining = _defining_line(lines, question) if asks_definition(question) else None
    if defining is not None:  # '이용자는 누구를 말해요?': the 호 that defines “이용자”
        group = next((g for g in groups if defining in g), [defining])
        best = defining
    return _quote_at(label, lines, group, best, terms, asked, kind, restated)


def line_groups(lines: Sequence[str]) -> list[tuple[list[int], str, int | None]]:
    """Each answerable 항/호 of a clause, in order — what a judge may choose from: its lines
    (a 항 with the unmarked lines that continue it), its marker with its 항's ('② 1.'; '' for
    an unmarked line) and the line a 호 completes (None for a 항 or plain line)."""
    out = []
    for group in _continued(lines):
        marker, _ = _split_marker(lines[group[0]])
        out.append((group, _parent_marker(lines, group[0], marker), _lead(lines, group[0])))
    return out


def quote_line(label: str, lines: Sequence[str], index: int, terms: Sequence[str] = (),
               asked: Sequence[str] = (), question: str = "") -> Quote:  # fmt: skip
    """The Quote of the 항/호 that starts at line `index` (a judge's choice), built as
    `operative` builds the one it picks: the fact, its whole line, the lead of a 호."""
    groups = _continued(lines)
    group = next((g for g in groups if index in g), [index])
    return _quote_at(label, lines, group, index, terms, asked, *_asked(question))


# a cost named by a noun's suffix ('수리비', '보관료', '입금액'): the contract says it in full
COST_WORDS = {"비": "비용", "료": "요금", "액": "금액", "값": "가격"}
COST_NOUN_RE = re.compile(r"[가-힣]{2,}(비|료|액|값)(?=[은는이가을를도만의에]|\s|$)")


def _asked(question: str) -> tuple[FactKind | None, list[str]]:
    """The kind of fact the question asks for and the register words of its everyday words
    (not of its asking words: '언제까지' names no topic), with the full word for a cost its
    noun's suffix names ('수리비는 누가 내요?' → 비용: '… 수리 등에 소요되는 비용은 …')."""
    if not question:
        return None, []
    restated = rewrite(INTERROGATIVE_RE.sub(" ", question)).translated
    costs = [COST_WORDS[m.group(1)] for m in COST_NOUN_RE.finditer(question)]
    return asked_kind(question), [*restated, *(c for c in costs if c not in restated)]


def _quote_at(label: str, lines: Sequence[str], group: list[int], best: int,
              terms: Sequence[str], asked: Sequence[str], kind: FactKind | None,
              restated: Sequence[str]) -> Quote:  # fmt: skip
    """The Quote of line `best` (in its 항/호 `group`): its best sentence, the asked fact, the
    marker it is cited by and the lead line a 호 completes."""
    marker, body = _split_marker(lines[best])
    sentences = [s for s in SENTENCE_END_RE.split(body) if s.strip()] or [body]
    pick = max(range(len(sentences)),
               key=lambda i: (*_weight(sentences[i], terms, asked, kind), -i))  # fmt: skip
    sentence = sentences[pick].strip()
    near = [*asked, *restated, *terms]
    fact = find_fact(sentence, kind, near) or find_fact(body, kind, near)
    if not marker and best != group[0]:  # a line that continues a 항/호 is cited by it
        marker = _parent_marker(lines, group[0], _split_marker(lines[group[0]])[0])
    else:
        marker = _parent_marker(lines, best, marker)
    lead = _lead(lines, group[0])
    lead_marker, lead_body = _split_marker(lines[lead]) if lead is not None else ("", "")
    if lead is not None:
        lead_marker = _parent_marker(lines, lead, lead_marker)
    return Quote(label, marker, sentence, [t for t in terms if t and t in body], fact,
                 body.strip(), lead_body.strip(), lead_marker)  # fmt: skip


def _item_of(group: list[int], groups: Sequence[list[int]], lines: Sequence[str],
             texts: Sequence[str], weight: Callable[[str, int], tuple[float, ...]]) -> list[int]:  # fmt: skip
    """The 호 under a lead line ('여행요금에는 다음 각 호가 포함됩니다') that adds a word of the
    question to it ('가이드 비용도 포함돼요?' → 4. 안내자경비), read with its lead; the lead itself
    when none adds one (a lead alone does not say which item the question is about)."""
    items = [g for g in groups if g[0] > group[0] and _lead(lines, g[0]) == group[0]]
    if not items:
        return group
    lead = "\n".join(texts[i] for i in group)
    base = weight(lead, group[0])[0]
    gain, item = max(((weight(f"{lead}\n{texts[g[0]]}", g[0])[0] - base, -g[0]), g)
                     for g in items)  # fmt: skip
    return item if gain[0] > 0 else group


ITEM_MARKER_RE = re.compile(r"^\d{1,2}[.)]")
SUBITEM_MARKER_RE = re.compile(r"^[가-하][.)]")


def _lead(lines: Sequence[str], index: int) -> int | None:
    """The line a 호 (or a 목) completes: the 항 or unmarked line before it ('회사는 … 다음 각
    호의 어느 하나에 해당하는 경우 … 거절할 수 있습니다'), a 목's 호; None for a 항 or plain
    line. A 호 alone ('1. 이용자가 불법 … 경우') does not say what follows from it."""
    own = lines[index].lstrip()
    if SUBITEM_MARKER_RE.match(own):
        higher: re.Pattern[str] | None = ITEM_MARKER_RE
    elif ITEM_MARKER_RE.match(own):
        higher = None  # a 항 or an unmarked line
    else:
        return None
    for k in range(index - 1, -1, -1):
        line = lines[k].lstrip()
        if HEADING_RE.match(line) or TABLE_CELL in line:
            continue
        if higher is not None:
            if higher.match(line):
                return k
            if SUBITEM_MARKER_RE.match(line):
                continue
            return None
        if not (ITEM_MARKER_RE.match(line) or SUBITEM_MARKER_RE.match(line)):
            return k
    return None


DEFINED_RE = re.compile(
    r"[“\"‘']([^”\"’']{1,30})[”\"’']\s*(?:이?란|(?:이)?라\s*함은|이라고\s*한다|은|는)"
)


def _defining_line(lines: Sequence[str], question: str) -> int | None:
    """The line that defines a term the question names ('“이용자”라 함은 …' for '여기서 이용자는
    누구를 말해요?'), the longest such term first; None when no line defines one."""
    asked = re.sub(r"\s+", "", question)
    found = [(len(m.group(1)), -i) for i, line in enumerate(lines)
             for m in DEFINED_RE.finditer(line) if re.sub(r"\s+", "", m.group(1)) in asked]  # fmt: skip
    return -max(found)[1] if found else None


def _continued(lines: Sequence[str]) -> list[list[int]]:
    """The answerable lines grouped: each 항/호 line with the unmarked lines after it (the rest
    of its text, split off by a PDF's line breaks: '다만, …'); a heading-only line is never
    one; a table row, lines before the first marker and those of an article without markers
    each stand alone."""
    groups: list[list[int]] = []
    for i, line in enumerate(lines):
        if HEADING_RE.match(line):
            continue
        continues = MARKER_RE.match(line) is None and TABLE_CELL not in line
        if (groups and continues and MARKER_RE.match(lines[groups[-1][0]])
                and groups[-1][-1] == i - 1):  # fmt: skip
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups or [[i] for i in range(len(lines))]


def _parent_marker(lines: Sequence[str], index: int, marker: str) -> str:
    """A 호's marker with its 항's ('② 1.'), so the citation says where the item is."""
    if not marker or marker[0] in "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳":
        return marker
    for line in reversed(lines[:index]):
        if line[:1] and line[0] in "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳":
            return f"{line[0]} {marker}"
    return marker


def polite(sentence: str) -> str:
    """'해지할 수 있다.' → '해지할 수 있습니다.' (only a sentence-final 한다체 ending changes)."""
    stripped = sentence.rstrip()
    end = "." if stripped.endswith(".") else ""
    core = stripped[:-1] if end else stripped
    for plain, formal in POLITE_ENDINGS:
        if core.endswith(plain):
            return core[: -len(plain)] + formal + end
    if len(core) > 1 and core.endswith("다") and _final(core[-2]) == NIEUN:  # '본다' → '봅니다'
        return core[:-2] + chr(ord(core[-2]) - NIEUN + BIEUP) + "니다" + end
    return stripped


def _final(syllable: str) -> int:
    """The final consonant's index of a Hangul syllable (0: none; -1: not a syllable)."""
    code = ord(syllable) - 0xAC00
    return code % 28 if 0 <= code < 11172 else -1


def one_line(quote: Quote, language: str) -> str:
    """A one-line answer: the asked fact first (when the clause states one), then the operative
    항/호 quoted whole (every sentence of it: the fact may sit in its '다만' sentence), with the
    clause and its 항 cited. English quotes the operative sentence."""
    if language == "en":
        lead = f"{quote.fact} — " if quote.fact else ""
        return f"{lead}{quote.citation} says: “{quote.sentence}”"
    text = quote.line or quote.sentence
    sentence = _spoken(text)
    if quote.lead:  # the 호 with what it completes: '… 거절할 수 있습니다: 1. 이용자가 …'
        sentence = f"{_spoken(quote.lead)}: {quote.marker.split()[-1]} {sentence}"
    lead = f"**{quote.fact}** — " if quote.fact else ""
    return f"{lead}{sentence} ({spoken_citation(quote)})."


# a clause label, of the main body ('제7조(계약의 해지)') or of an annexed part
# ('[별첨 1 비밀유지계약서] 제5조(비밀유지기간)'), or an agreement's numbered paragraph ('제2항(…)',
# '다항': models.article_ref)
LABEL_RE = re.compile(
    r"^(?:\[(?P<part>[^\]]+)\]\s*)?(?P<no>제\s*\d+\s*조(?:의\s*\d+)?|제\d+항|[가-하]항)\s*"
    r"(?:\((?P<title>.*)\))?$"
)


def spoken_citation(quote: Quote) -> str:
    """Where the quote is, as the answer's first line closes on it in parentheses: without
    brackets or a nested title, so the parenthesis holds no other ('제7조 계약의 해지 ②', '별첨 1
    비밀유지계약서 제5조 비밀유지기간 ②'; the listed clauses keep the label '제7조(계약의 해지)')."""
    match = LABEL_RE.match(quote.label)
    if match is None:
        return quote.citation
    words = (match.group("part") or "", match.group("no"), match.group("title") or "", quote.marker)
    return " ".join(w for w in words if w)


def _spoken(text: str) -> str:
    """Every sentence of a clause line in 합니다체, without the final full stop."""
    return " ".join(polite(s) for s in SENTENCE_END_RE.split(text) if s.strip()).rstrip(".")


def emphasize(sentence: str, terms: Sequence[str]) -> str:
    """The sentence with each matched word in bold (Markdown), in one pass (longest words first)."""
    words = sorted({t for t in terms if len(t) > 1}, key=len, reverse=True)
    if not words:
        return sentence
    bold = re.sub("|".join(re.escape(w) for w in words), lambda m: f"**{m.group(0)}**", sentence)
    return bold.replace("****", "")  # adjacent matches read as one bold run
