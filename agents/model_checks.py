"""Checks after the model: a model's words are matched against the turn's evidence, not trusted.

    pool = pool_from({"rsi": 44.5, "return_1m": 0.0483}, as_of="2026-11-20")
    result = check_model_text("1개월간 4.83% 상승, RSI 91.2입니다. 추세는 양호합니다.", pool)
    result.text        # '추세는 양호합니다.'  (the sentence with 91.2 is removed)
    result.unverified  # ['91.2']
    result.partial     # True: the turn says so, and `notice()` says what was removed

One module for every agent (stock report, contract, ETF chat, macro, opening script). A claim
is a figure (a number with a unit, a decimal or a comma-grouped number; 조/억/만 amounts; with
`Policy.durations`, periods such as 90일), a date (2026-10-29, 10월 29일), an article
reference (제99조 ③) or a document marker ([3]). A claim matches when the evidence holds it
to the precision written (48.3% matches 0.4832 or 48.27); percentages also match fractions.

What does not match is **removed**, always: every sentence (or table row) holding such a claim
is dropped from the answer, the answer ends with a notice naming the removed values (Korean UI,
the answer's language for the notice), and the turn is `partial`. Before that, a screen's
repair step (`repair`) gets exactly one chance to rewrite the text without them. When nothing
is left, `empty` is true and the screen answers with its template / offline text instead, so
raw model output never becomes the answer unchecked.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from data_access.contracts import Citation, StructuredCitation, TraceStep

ClaimKind = Literal["number", "date", "article", "doc_ref"]

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_BIG = {"조": 1e12, "억": 1e8, "만": 1e4}
_PERCENT = ("%p", "%", "퍼센트", "pct", "percent")
_MONEY = ("원", "달러", "USD", "KRW", "won")
_OTHER_UNITS = ("bp", "pt", "포인트", "배")
_DURATIONS = ("영업일", "거래일", "개월", "일", "주", "년", "days", "day", "months", "month",
              "years", "year")  # fmt: skip
_UNIT = "|".join(re.escape(u) for u in (*_PERCENT, *_MONEY, *_OTHER_UNITS, *_DURATIONS))
_CLAIM = re.compile(
    rf"(?<![\w.,])(?P<dollar>\$\s?)?"
    rf"(?P<body>(?:(?:{_NUM})\s*[조억만]\s*)+(?:{_NUM}(?![\d]))?|{_NUM})"
    rf"(?:\s*(?P<unit>{_UNIT}))?"
)
_OPENING_CLAIM = re.compile(  # the opening validator's original pattern (no 조/억/만 chains)
    r"(?<![\w.])(?P<dollar>\$\s?)?(?P<body>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"\s*(?P<unit>%|퍼센트|원|달러|bp|pt|포인트)?"
)
_ISO = re.compile(r"(?<!\d)(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?!\d)")
_KO_DATE = re.compile(r"(?:(\d{4})년\s*)?(\d{1,2})월\s*(\d{1,2})일")
_ARTICLE = re.compile(
    r"제\s*(\d+)\s*조(?:의\s*\d+)?(?:\s*(?:제\s*\d+\s*항|[①-⑳]))?"
    r"|\bArticle\s+(\d+)(?:-\d+)?(?:\s*\(\d+\))?"
)
_ARTICLE_KEY = re.compile(r'"article_no"\s*:\s*"?(?:제\s*)?(-?\d+)')
_DOC_REF = re.compile(r"\[(\d{1,3})\]")
_PIECE = re.compile(rf"({_NUM})\s*([조억만])?")
_SENTENCE = re.compile(r"[^\n]*?(?:(?<=[.!?。])(?=\s)|$)", re.MULTILINE)
# A firm conclusion: with stale data the answer may not state one (seed 004 §3.E).
_FIRM = re.compile(
    r"확실(?:히|합니다|하다)|반드시|틀림없|분명(?:히|합니다)|단언|확정적|명백(?:히|합니다)|"
    r"\b(?:certainly|definitely|undoubtedly|guaranteed|without (?:a )?doubt|clearly will)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Policy:
    """What counts as a claim on a screen."""

    unitless: bool = True  # decimals and comma-grouped numbers without a unit are figures too
    big_units: bool = True  # 5조 3,000억원 is one amount
    durations: bool = False  # 90일, 6개월 are claims (contract terms), not just periods
    dates: bool = True
    articles: bool = False
    doc_refs: bool = False


DEFAULT = Policy()
CONTRACT = Policy(durations=True, articles=True)
MACRO = Policy(doc_refs=True)
OPENING = Policy(unitless=False, big_units=False, dates=False)


@dataclass(frozen=True)
class Claim:
    kind: ClaimKind
    text: str  # as written
    start: int
    end: int
    value: float = 0.0
    tolerance: float = 0.0
    unit: str = ""  # percent | money | amount (조/억/만) | bp | plain | duration | other | firm


@dataclass
class EvidencePool:
    """Everything a turn's evidence establishes, in the forms a claim is compared with."""

    values: list[float] = field(default_factory=list)
    percents: list[float] = field(default_factory=list)  # besides |values| and |values|×100
    bps: list[float] = field(default_factory=list)
    dates: set[str] = field(default_factory=set)  # ISO
    articles: set[int] = field(default_factory=set)
    doc_count: int | None = None
    derive: bool = True  # fractions match percents (0.0145 → 1.45%), amounts match 만원/억원 units
    _sorted: dict[str, list[float]] = field(default_factory=dict, repr=False)

    def add(self, *sources: Any) -> EvidencePool:
        for source in sources:
            _walk(source, self)
        self._sorted.clear()
        return self

    def near(self, claim: Claim) -> bool:
        """A candidate within the claim's tolerance (binary search over sorted candidates)."""
        if claim.unit not in self._sorted:
            self._sorted[claim.unit] = sorted(v for v in _candidates(claim, self) if v == v)
        ordered = self._sorted[claim.unit]
        i = bisect.bisect_left(ordered, claim.value - claim.tolerance)
        return i < len(ordered) and ordered[i] <= claim.value + claim.tolerance


def pool_from(
    *sources: Any, as_of: str | None = None, doc_count: int | None = None
) -> EvidencePool:
    """A pool from JSON-like evidence (tool results, computed figures, clauses, citations)."""
    pool = EvidencePool(doc_count=doc_count).add(*sources)
    if as_of:
        pool.dates.add(as_of[:10])
    return pool


def _walk(obj: Any, pool: EvidencePool) -> None:
    if isinstance(obj, bool) or obj is None:
        return
    if isinstance(obj, int | float):
        pool.values.append(float(obj))
    elif isinstance(obj, str):
        _scan_text(obj, pool)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            if key in ("article_no", "article") and isinstance(value, int | str):
                pool.articles.update(int(n) for n in re.findall(r"\d+", str(value))[:1])
            _walk(value, pool)
    elif isinstance(obj, Iterable):
        for item in obj:
            _walk(item, pool)
    elif hasattr(obj, "model_dump"):
        _walk(obj.model_dump(mode="json"), pool)


def _scan_text(text: str, pool: EvidencePool) -> None:
    for m in _ISO.finditer(text):
        pool.dates.add(_iso(m.group(1), m.group(2), m.group(3)))
    pool.articles.update(_article_no(m) for m in _ARTICLE.finditer(text))
    pool.articles.update(int(n) for n in _ARTICLE_KEY.findall(text))  # JSON cut mid-document
    rest = _ISO.sub(" ", text)
    for m in _CLAIM.finditer(rest):
        pool.values.append(_amount(m.group("body"))[0])
        pool.values += [_num(p.group(1)) for p in _PIECE.finditer(m.group("body"))]


def _article_no(m: re.Match[str]) -> int:
    return int(m.group(1) or m.group(2))


def _iso(y: str, m: str, d: str) -> str:
    return f"{int(y):04d}-{int(m):02d}-{int(d):02d}"


def _num(token: str) -> float:
    return float(token.replace(",", ""))


def _amount(body: str) -> tuple[float, float]:
    """The value of `3,000`, `1.5조` or `5조 3,000억`, and half its last written unit."""
    total, tol = 0.0, 0.5
    for piece in _PIECE.finditer(body):
        token, big = piece.group(1), piece.group(2)
        mult = _BIG[big] if big else 1.0
        total += _num(token) * mult
        decimals = len(token.split(".", 1)[1]) if "." in token else 0
        tol = 0.5 * 10**-decimals * mult
    return total, tol + 1e-6


# ---- claims ------------------------------------------------------------------------------------


def claims_in(text: str, policy: Policy = DEFAULT) -> list[Claim]:
    """The checkable claims of a text, in order."""
    out: list[Claim] = []
    masked = text
    for pattern, kind, enabled in ((_ISO, "date", policy.dates), (_KO_DATE, "date", policy.dates),
                                   (_ARTICLE, "article", policy.articles),
                                   (_DOC_REF, "doc_ref", policy.doc_refs)):  # fmt: skip

        def mask(m: re.Match[str], kind: str = kind, enabled: bool = enabled) -> str:
            if enabled:
                out.append(Claim(kind, m.group(0), m.start(), m.end()))  # type: ignore[arg-type]
            return " " * (m.end() - m.start())  # same length: later spans stay valid

        masked = pattern.sub(mask, masked)
    out += _figures(masked, policy)
    return sorted(out, key=lambda c: c.start)


def _figures(text: str, policy: Policy) -> list[Claim]:
    out = []
    for m in (_CLAIM if policy.big_units else _OPENING_CLAIM).finditer(text):
        body, unit = m.group("body").strip(), m.group("unit") or ""
        kind = _unit_kind(unit, bool(m.group("dollar")))
        chained = any(b in body for b in _BIG)
        if kind == "duration" and not policy.durations:
            continue
        if (
            kind == "plain"
            and not chained
            and not (policy.unitless and ("." in body or "," in body))
        ):
            continue
        if chained:  # 556.4조원: compared in won and in the units evidence keeps amounts in
            kind = "amount"
        value, tol = _amount(body)
        out.append(Claim("number", m.group(0).strip(), m.start(), m.end(), value, tol, kind))
    return out


def _unit_kind(unit: str, dollar: bool) -> str:
    if unit in _PERCENT:
        return "percent"
    if unit in _MONEY or dollar:
        return "money"
    if unit == "bp":
        return "bp"
    if unit in _DURATIONS:
        return "duration"
    return "other" if unit else "plain"


def matches(claim: Claim, pool: EvidencePool) -> bool:
    if claim.kind == "date":
        return _date_matches(claim.text, pool)
    if claim.kind == "article":
        m = _ARTICLE.match(claim.text)
        return m is not None and _article_no(m) in pool.articles
    if claim.kind == "doc_ref":
        n = int(claim.text.strip("[]"))
        return pool.doc_count is not None and 1 <= n <= pool.doc_count
    return pool.near(claim)


def _candidates(claim: Claim, pool: EvidencePool) -> list[float]:
    base = [abs(v) for v in pool.values]
    if claim.unit == "percent":
        derived = [v * 100 for v in base] if pool.derive else []
        return [abs(p) for p in pool.percents] + base + derived
    if claim.unit == "bp":
        return [abs(b) for b in pool.bps] + (base if pool.derive else [])
    if claim.unit == "amount" and pool.derive:  # evidence may keep amounts in 만원/억원 units
        return [v * k for v in base for k in (1.0, 1e4, 1e6, 1e8)]
    return base


def _date_matches(text: str, pool: EvidencePool) -> bool:
    iso = _ISO.fullmatch(text.strip())
    if iso:
        return _iso(*iso.groups()) in pool.dates
    ko = _KO_DATE.fullmatch(text.strip())
    if ko is None:
        return False
    year, month, day = ko.groups()
    suffix = f"-{int(month):02d}-{int(day):02d}"
    return any(d.endswith(suffix) and (year is None or d.startswith(year)) for d in pool.dates)


def unverified(text: str, pool: EvidencePool, policy: Policy = DEFAULT) -> list[Claim]:
    return [c for c in claims_in(text, policy) if not matches(c, pool)]


def unverified_texts(text: str, pool: EvidencePool, policy: Policy = DEFAULT) -> list[str]:
    """What does not match, as written, without repeats."""
    return _texts(unverified(text, pool, policy))


# ---- removing what does not match --------------------------------------------------------------


@dataclass
class CheckResult:
    text: str  # the text with every unverified sentence removed (no notice)
    unverified: list[str]  # claims as written that did not match, after the repair
    found: list[str]  # what the first check found (before the repair)
    removed: list[str] = field(default_factory=list)  # the sentences taken out
    repaired: bool = False  # the repair step rewrote the text

    @property
    def partial(self) -> bool:
        return bool(self.removed)

    @property
    def empty(self) -> bool:
        return not self.text.strip()

    def notice(self, lang: str = "ko") -> str:
        if not self.removed:
            return ""
        values = ", ".join(self.unverified)
        if lang == "en":
            return (f"⚠️ Removed {len(self.removed)} sentence(s) whose figures, dates or references "
                    f"the evidence does not back (unverified: {values}).")  # fmt: skip
        return (f"⚠️ 근거로 확인되지 않은 수치·날짜·조항을 담은 문장 {len(self.removed)}개를 "
                f"답변에서 뺐습니다 (미확인: {values}).")  # fmt: skip

    def with_notice(self, lang: str = "ko") -> str:
        return f"{self.text}\n\n{self.notice(lang)}" if self.removed else self.text

    def error(self) -> str | None:
        """For the answer's `error` (Korean UI) when something was removed."""
        return self.notice("ko").removeprefix("⚠️ ").rstrip(".") if self.removed else None

    def trace_step(self, name: str = "model_check", step: int = 0) -> TraceStep:
        observation = (("수정 요청 후 " if self.repaired else "") + self.notice("ko")
                       if self.removed else
                       "모든 수치·날짜·조항이 근거와 일치합니다." + (
                           " (수정 요청으로 고쳐짐)" if self.repaired else ""))  # fmt: skip
        return TraceStep(step=step, kind="guard", name=name,
                         arguments={"found": self.found, "repaired": self.repaired},
                         observation=observation, status="error" if self.removed else "ok",
                         error=self.error())  # fmt: skip


# Guard steps whose failure makes a turn partial: the model check of every screen and the
# Macro checks before an answer is shown (agents/macro/checks.py, agents/macro/conflicts.py).
ANSWER_CHECKS = ("model_check", "citation_check", "conflict_check")


def check_failure(trace: Iterable[TraceStep]) -> str | None:
    """What a run's answer checks removed or flagged (Korean), for the answer's `error`; None
    if nothing."""
    failed = [t.error for t in trace if t.kind == "guard" and t.name.endswith(ANSWER_CHECKS)
              and t.status == "error" and t.error]  # fmt: skip
    return " / ".join(dict.fromkeys(failed)) or None


def check_model_text(text: str, pool: EvidencePool, policy: Policy = DEFAULT, *,
                     repair: Callable[[list[str]], str | None] | None = None,
                     stale_warning: str | None = None) -> CheckResult:  # fmt: skip
    """Match `text` against `pool`; one repair attempt, then remove what still does not match.
    With `stale_warning` (the data is stale) firm conclusions count as unverified too and the
    checked text starts with the warning."""
    found = _texts(bad_claims(text, pool, policy, stale=bool(stale_warning)))
    repaired = False
    if found and repair is not None:
        rewritten = (repair(found) or "").strip()
        if rewritten:
            text, repaired = rewritten, True
    bad = bad_claims(text, pool, policy, stale=bool(stale_warning))
    kept, removed = drop_sentences(text, bad)
    if stale_warning and stale_warning not in kept:
        kept = f"> ⚠️ {stale_warning}\n\n{kept}" if kept.strip() else kept
    return CheckResult(kept, _texts(bad), found, removed, repaired)


def bad_claims(text: str, pool: EvidencePool, policy: Policy = DEFAULT, *,
               stale: bool = False) -> list[Claim]:  # fmt: skip
    """What in `text` the evidence does not back, in order: unmatched claims and, with stale
    data, firm conclusions. The one verdict of both forms of the check: the whole text
    (`check_model_text`) and sentence by sentence as a model streams (`SentenceGate`)."""
    bad = unverified(text, pool, policy) + (firm_claims(text) if stale else [])
    return sorted(bad, key=lambda c: c.start)


def _texts(claims: Iterable[Claim]) -> list[str]:
    return list(dict.fromkeys(c.text for c in claims))


def firm_claims(text: str) -> list[Claim]:
    """Wording of a firm conclusion ('확실히', 'certainly'), as claims stale data cannot back."""
    return [Claim("number", m.group(0), m.start(), m.end(), unit="firm")
            for m in _FIRM.finditer(text)]  # fmt: skip


def drop_sentences(text: str, bad: list[Claim]) -> tuple[str, list[str]]:
    """The text without the sentences (or table rows) that hold a bad claim."""
    if not bad:
        return text, []
    spans = [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.end() > m.start()]
    drop = {s for s in spans for c in bad if s[0] <= c.start < s[1]}
    removed = [text[a:b].strip() for a, b in spans if (a, b) in drop]
    out, last = [], 0
    for a, b in sorted(drop):
        whole_line = (a == 0 or text[a - 1] == "\n") and text[b : b + 1] == "\n"
        out.append(text[last:a])
        last = b + 1 if whole_line else b  # a removed line takes its line break with it
    out.append(text[last:])
    kept = re.sub(r"[ \t]+\n", "\n", "".join(out))
    kept = re.sub(r"\n{3,}", "\n\n", kept)
    return re.sub(r"(?m)^[ \t]*(?:[-*]|\d+\.)[ \t]*$\n?", "", kept).strip(), removed


# ---- the same check while a model streams ------------------------------------------------------


class SentenceGate:
    """`check_model_text` for a streamed answer: text goes in as the model writes it, and comes
    out a sentence at a time, only once the sentence is complete and checked (`bad_claims`, the
    same verdict as the whole-text check; sentences end where `drop_sentences` cuts them).

        gate = SentenceGate(pool, CONTRACT)
        for chunk in model_chunks:
            for piece in gate.feed(chunk):
                show(piece)               # a checked sentence, or the note that replaces one
        for piece in gate.close():        # the last sentence, then the removal notice
            show(piece)
        gate.result().with_notice() == "".join(everything shown)

    A sentence that does not pass is never shown: in its place comes a marked note naming the
    values ("(⚠️ 근거와 다른 수치: 91.2 — 이 문장은 뺐습니다)"), and the text ends with the
    notice of the whole-text check, so the turn is `partial` exactly as there. There is no repair
    request (what was shown cannot be taken back)."""

    def __init__(self, pool: EvidencePool, policy: Policy = DEFAULT, *,
                 stale_warning: str | None = None, lang: str = "ko") -> None:  # fmt: skip
        self.pool, self.policy, self.lang = pool, policy, lang
        self.stale_warning = stale_warning
        self._pending = ""  # written by the model, not yet released
        self._shown: list[str] = []  # released, notice excluded
        self._bad: list[Claim] = []
        self._removed: list[str] = []
        self._kept = 0  # sentences released as written
        self._closed = False

    def feed(self, chunk: str) -> list[str]:
        """The pieces `chunk` completes (possibly none)."""
        if self._closed:
            raise ValueError("the gate is closed")
        self._pending += chunk
        cut = _complete_upto(self._pending)
        if not cut:
            return []
        out = self._release(self._pending[:cut])
        self._pending = self._pending[cut:]
        return out

    def close(self) -> list[str]:
        """The end of the stream: the last sentence (checked like the others) and the notice."""
        out = self.feed("") if not self._closed else []
        self._closed = True
        if self._pending.strip():
            out += self._release(self._pending.rstrip())
        self._pending = ""
        notice = self.result().notice(self.lang)
        return out + ([f"\n\n{notice}"] if notice else [])

    @property
    def shown(self) -> str:
        """What has been released so far (without the closing notice)."""
        return "".join(self._shown)

    @property
    def kept_any(self) -> bool:
        """Whether any sentence of the model passed (none: the screen's fallback text answers)."""
        return self._kept > 0

    def result(self) -> CheckResult:
        """The check so far in the whole-text form: `with_notice()` is everything shown."""
        texts = _texts(self._bad)
        return CheckResult(self.shown, texts, texts, list(self._removed))

    def _release(self, text: str) -> list[str]:
        first = not self._shown and self.stale_warning  # the warning leads, as in the whole form
        out = [f"> ⚠️ {self.stale_warning}\n\n"] if first else []
        for lead, sentence in _sentences(text):
            bad = bad_claims(sentence, self.pool, self.policy, stale=bool(self.stale_warning))
            if not bad:
                self._kept += 1
                out.append(lead + sentence)
                continue
            self._bad += bad
            self._removed.append(sentence.strip())
            out.append(lead + self._marked(_texts(bad)))
        self._shown += out
        return out

    def _marked(self, values: list[str]) -> str:
        if self.lang == "en":
            return f"_(⚠️ not in the evidence: {', '.join(values)} — sentence removed)_"
        return f"_(⚠️ 근거와 다른 수치: {', '.join(values)} — 이 문장은 뺐습니다)_"


def _complete_upto(text: str) -> int:
    """Where the complete sentences of a growing text end (0: none yet). A sentence is complete
    when something follows its end (the space after its stop, or the line break)."""
    ends = [
        m.end() for m in _SENTENCE.finditer(text) if m.end() > m.start() and m.end() < len(text)
    ]
    return ends[-1] if ends else 0


def _sentences(text: str) -> list[tuple[str, str]]:
    """(what comes before it, the sentence) for each sentence of `text`, `drop_sentences`'s cut;
    the two always join back into `text`."""
    out, last = [], 0
    for m in _SENTENCE.finditer(text):
        if m.end() > m.start():
            sentence = text[m.start() : m.end()]
            space = len(sentence) - len(sentence.lstrip())
            out.append((text[last : m.start() + space], sentence[space:]))
            last = m.end()
    if out and last < len(text):
        out[-1] = (out[-1][0], out[-1][1] + text[last:])
    elif not out and text:
        out.append((text, ""))
    return out


# ---- citations kept apart ----------------------------------------------------------------------


def keep_apart(citations: Iterable[Any], structured: Iterable[Any]
               ) -> tuple[list[Citation], list[StructuredCitation]]:  # fmt: skip
    """Documents and query citations in their own lists, whatever list they arrived in: a
    document never counts as a structured citation and a query never as a document."""
    docs: list[Citation] = []
    queries: list[StructuredCitation] = []
    for item in [*citations, *structured]:
        if isinstance(item, StructuredCitation):
            queries.append(item)
        elif isinstance(item, Citation):
            docs.append(item)
        elif isinstance(item, dict) and "query_fingerprint" in item:
            queries.append(StructuredCitation.model_validate(item))
        elif isinstance(item, dict) and "doc_id" in item:
            docs.append(Citation.model_validate(item))
    return docs, queries


# ---- citation rules (seed 004 §13.9-3, §13.11) -------------------------------------------------

GLOSSARY_PREFIX = "glossary:"  # the bundled glossary a definition quotes (not a data store)


def is_bundled_reference(citation: Citation) -> bool:
    return citation.doc_id.startswith(GLOSSARY_PREFIX)


def citation_gaps(citations: Iterable[Citation], structured: Iterable[StructuredCitation], *,
                  general: bool = False, need_structured: bool = False,
                  need_documents: bool = False) -> list[tuple[str, str]]:  # fmt: skip
    """The citation rules an answer breaks, as (category, Korean message): figures from data
    need a structured citation (`need_structured`), an explanation from documents a document
    citation (`need_documents`), and a general-knowledge answer carries no citation of the
    stores (the bundled glossary it may quote is not one). Checked before a Macro answer is
    shown (agents/macro/checks.py) and by the eval judge (agents/eval/judge.py)."""
    docs, queries = list(citations), list(structured)
    out: list[tuple[str, str]] = []
    if need_structured and not queries:
        out.append(("missing_structured_citation", "정형 근거(structured citation)가 없습니다"))
    if need_documents and not docs:
        out.append(("missing_citation", "문서 근거가 없습니다"))
    stored = [c for c in docs if not is_bundled_reference(c)]
    if general and (stored or queries):
        out.append(("general_with_citation",
                    f"일반 지식 답변에 데이터 인용 {len(stored) + len(queries)}개가 붙어 있습니다"))  # fmt: skip
    return out
