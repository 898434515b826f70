"""Contract text → articles: 조 (제N조(제목), or '제 N 조 제목' without brackets; 제N조의M is its
own article, branch M), 항 (①…),
호 (1. / 가.), 별지N (article_no = -N). Chapter headings ('제 2 장 …') group articles and are dropped.
A document with no 제N조 at all is read by its top-level numbered paragraphs ('1.' …, cited
'제1항': paragraphs.py) when they are numbered 1, 2, 3 … as an agreement's are.

A whole published document may carry annexed agreements after the main contract (비밀유지계약서,
변경 합의서 …), each restarting at 제1조: an article number seen again in the current part starts
a new part (Article.part 1, 2 …), titled by the heading lines just before it. Amendment marks
('<신설>', '<개정 2020. 1. 1.>', '[본조신설 …]') before or after a heading are dropped, so a
'<신설>제16조의2(…)' line is the article it heads, not text of the previous one.

The original wording is kept line for line; markers stay in the text so a citation quotes the
clause exactly as written. Markdown decoration (headings, bold) is stripped before matching.
"""

from __future__ import annotations

import re

from agents.contract.errors import ContractFileError
from agents.contract.ingest.paragraphs import numbered_paragraphs
from agents.contract.models import LETTERS, Article, Clause, ParsedContract

CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
KOREAN_ITEMS = LETTERS  # 가. 나. … (a 호 here; a lettered paragraph in paragraphs.py)

ARTICLE_RE = re.compile(
    r"^제\s*(\d{1,3})\s*조(?:\s*의\s*(\d{1,3}))?\s*(?:[(（]([^)）]{0,60})[)）])?\s*(.*)$"
)
EXHIBIT_RE = re.compile(
    r"^[\[【<〔(（]?\s*별\s*지\s*(?:제\s*)?(\d{1,2})\s*(?:호)?\s*[\]】>〕)）]?\s*(.*)$"
)
# '제 1 조 적용범위': a heading whose title has no brackets (some banks' and agencies' terms)
BARE_HEADING_RE = re.compile(r"^제\s*\d{1,3}\s*조(?:\s*의\s*\d{1,3})?\s+(\S.*)$")
BARE_TITLE_CHARS = 25
BARE_TITLE_WORDS = 5
# a sentence, or a clause that goes on ('제6조에 따라', '제3조 제1항의 …'), never ends a title
# (particles only: a title's last noun may end in 고, 도, 서, 과 … — 신고, 부도, 순서, 효과)
NOT_TITLE_END = tuple("다.,:;?!은는을를에") + (
    "에서",
    "에게",
    "까지",
    "부터",
    "하여",
    "하고",
    "하며",
)
TOPIC_MARKS = tuple("은는을를")  # '약관은', '대금을': a sentence's words, not a title's
PARAGRAPH_RE = re.compile(rf"^([{CIRCLED}])\s*(.*)$")
ITEM_RE = re.compile(rf"^(\d{{1,2}}|[{KOREAN_ITEMS}])[.)]\s+(.*)$")
MARKDOWN_RE = re.compile(r"^(?:#{1,6}\s+|>\s+|[-*]\s+(?=제\s*\d|별지))")
AMENDMENT = r"[<〈\[［]\s*(?:신설|개정|본조신설|전문개정|삭제)[^>〉\]］]{0,40}[>〉\]］]"
AMENDMENT_LEAD_RE = re.compile(rf"^(?:{AMENDMENT}\s*)+(?=제\s*\d)")
AMENDMENT_TAIL_RE = re.compile(rf"(?:\s*{AMENDMENT})+\s*$")
PREAMBLE_TITLE = "전문"
# '제 2 장 화물의 수탁과 인도 및 운송', '제3절 손해배상': the heading of a group of articles, no
# text of the article before it (dropped: the parser has no chapter level)
CHAPTER_RE = re.compile(r"^제\s*\d{1,2}\s*[장절관편]\s+[^.。]{1,40}$")
# A heading that names an annexed agreement or form (the part's title when numbering restarts).
PART_WORDS = (
    "계약서",
    "합의서",
    "약정서",
    "협약서",
    "동의서",
    "확약서",
    "각서",
    "별첨",
    "부속",
    "부록",
)
FORM_WORDS = ("동의서", "확인서", "신청서", "서약서", "위임장", "서식")
FORM_TITLE = "서식 내용"
MAX_HEADING_CHARS = 60
MAX_HEADING_LINES = 3
SHORT_HEADING_CHARS = 20
MAX_LEAD_LINES = 8  # an annex's heading may be followed by a short preamble before its 제1조
RESTART_MAX = 2
MIN_PART_ARTICLES = 3


def clean_line(line: str) -> str:
    """One line without Markdown decoration and surrounding whitespace."""
    line = line.replace("\u3000", " ").strip()
    line = MARKDOWN_RE.sub("", line)
    line = line.replace("**", "").replace("__", "").strip()
    return AMENDMENT_LEAD_RE.sub("", line)


def parse_contract_text(text: str, fallback_title: str = "계약서") -> ParsedContract:
    """Split a contract into articles; raises ContractFileError when no 제N조 is found."""
    if not text.strip():
        raise ContractFileError("계약서 내용이 비어 있습니다. 텍스트가 있는 파일을 올려 주세요.")
    lines = [clean_line(raw) for raw in text.splitlines()]
    title = _title(text, fallback_title)
    bare = _bare_headings_used(lines)
    articles: list[Article] = []
    preamble = Article(0, PREAMBLE_TITLE)
    current = preamble
    for line in lines:
        if not line:
            continue
        started = _start_article(line, bare)
        if (
            started is not None
            and started.article_no < 0
            and _seen(articles, started, current.part)
        ):
            started = (
                None  # '별지2) …' again: a wrapped reference inside a clause, not a new exhibit
            )
        if started is not None:
            if _restarts(articles, started, current.part):
                part = current.part + 1  # numbering restarted: an annexed agreement begins
                heading, lead = _part_heading(current, part)
                started.part, started.part_title = part, heading
                if lead:  # the annex's own preamble ('갑과 을은 … 체결한다.')
                    articles.append(Article(0, PREAMBLE_TITLE, lead, part=part, part_title=heading))
            else:
                started.part, started.part_title = current.part, current.part_title
            current = started
            articles.append(current)
            continue
        if (current is preamble and line == title) or CHAPTER_RE.match(line):
            continue
        current.clauses.append(_clause(line))
    if not any(a.article_no > 0 for a in articles):
        paragraphs = numbered_paragraphs(lines, title, _clause)  # '1.' … without any 제N조
        if paragraphs is None:
            raise ContractFileError(
                "조항(제N조)이나 번호 붙은 문단(1. 2. 3.)을 찾을 수 없습니다. '제1조(목적)'처럼 "
                "조 번호와 제목이 있는 계약서를 올려 주세요."
            )
        return ParsedContract(title=title, articles=paragraphs, text=text)
    _split_trailing_form(articles)
    _check_duplicates(articles)
    if preamble.clauses:
        articles.insert(0, preamble)
    return ParsedContract(title=title, articles=articles, text=text)


def _seen(articles: list[Article], article: Article, part: int = 0) -> bool:
    """Whether the article's number was already used in `part` (keys are compared per part)."""
    own = (article.article_no, article.branch)
    return any(a.part == part and (a.article_no, a.branch) == own for a in articles)


def _split_trailing_form(articles: list[Article]) -> None:
    """A form appended after the last article ('개인정보 수집·이용 동의서' and its lines) is a
    part of its own, not text of that article."""
    last = articles[-1] if articles else None
    if last is None or last.article_no <= 0:
        return
    at = next((i for i in range(len(last.clauses) - 2, 0, -1)
               if last.clauses[i].kind == "text" and _is_heading(last.clauses[i].text)
               and any(w in last.clauses[i].text for w in FORM_WORDS)), None)  # fmt: skip
    if at is None:
        return
    heading, lines = last.clauses[at].text.strip("[]【】<>() "), last.clauses[at + 1 :]
    del last.clauses[at:]
    articles.append(Article(0, FORM_TITLE, lines, part=last.part + 1, part_title=heading))


def _restarts(articles: list[Article], started: Article, part: int) -> bool:
    """제1조 (or 제2조, when an annex's 제1조 is unnumbered) again after a part of several
    articles: a new part (a short '제1조 … 제1조' is a numbering error, refused later)."""
    own = sum(1 for a in articles if a.part == part and a.article_no > 0)
    return (0 < started.article_no <= RESTART_MAX and own >= MIN_PART_ARTICLES
            and _seen(articles, started, part))  # fmt: skip


def _is_heading(line: str) -> bool:
    """A short line that ends no sentence: a title line such as '비밀유지계약서' or '[별첨 1]'."""
    text = line.strip()
    return 0 < len(text) <= MAX_HEADING_CHARS and not text.endswith(("다.", ".", ",", ":", "다"))


def _part_heading(previous: Article, part: int) -> tuple[str, list[Clause]]:
    """The new part's title and preamble, taken back from the end of the previous article: the
    last heading line naming an agreement ('비밀유지계약서', '[별첨 1]') among its last lines,
    with the heading lines just before it ('[별첨 1]' + '비밀유지계약서' → '별첨 1 비밀유지계약서');
    the lines after it are the annex's preamble. '별첨 N' and no preamble when none is found."""
    tail = previous.clauses[-MAX_LEAD_LINES:]
    marks = [i for i, c in enumerate(tail)
             if c.kind == "text" and _is_heading(c.text) and any(w in c.text for w in PART_WORDS)]  # fmt: skip
    if not marks:
        return f"별첨 {part}", []
    start = marks[-1]
    while (start > 0 and marks[-1] - start < MAX_HEADING_LINES - 1 and tail[start - 1].kind == "text"
           and _is_heading(tail[start - 1].text)):  # fmt: skip
        start -= 1
    end = marks[-1] + 1  # a heading line right after it ('[별첨 3]' + '연동 계약') is the title too
    while (end < len(tail) and end - start < MAX_HEADING_LINES and tail[end].kind == "text"
           and _is_heading(tail[end].text) and len(tail[end].text) <= SHORT_HEADING_CHARS):  # fmt: skip
        end += 1
    headings = [c.text for c in tail[start:end]]
    lead = tail[end:]
    del previous.clauses[len(previous.clauses) - len(tail) + start :]
    title = " ".join(t.strip("[]【】<>() ") for t in headings).strip()
    return title[:MAX_HEADING_CHARS] or f"별첨 {part}", lead


def _title(text: str, fallback: str) -> str:
    for raw in text.splitlines():
        line = clean_line(raw)
        if line:
            return line[:120] if not ARTICLE_RE.match(line) else fallback
    return fallback


def bare_title(line: str) -> str | None:
    """The title of a heading written without brackets ('제 1 조 적용범위' → '적용범위'): a few
    words after a space, not a sentence and not a clause that goes on ('제6조에 따라 …',
    '제15조 제1항의 신고는 …'); None for any other line."""
    match = BARE_HEADING_RE.match(line)
    if match is None:
        return None
    title = AMENDMENT_TAIL_RE.sub("", match.group(1)).strip()
    if (not title or len(title) > BARE_TITLE_CHARS or len(title.split()) > BARE_TITLE_WORDS
            or title.endswith(NOT_TITLE_END) or re.match(r"제\s*\d", title)
            or any(len(w) >= 3 and w.endswith(TOPIC_MARKS) for w in title.split())
            or any(mark in title for mark in "()（）\"“”「」『』")):  # fmt: skip
        return None
    return title


def _bare_headings_used(lines: list[str]) -> bool:
    """Whether the document heads its articles without brackets: more such headings than
    bracketed ones (a bracketed contract's '제3조 갑과 을 …' line is never read as a heading)."""
    bracketed = sum(1 for line in lines if (m := ARTICLE_RE.match(line)) and m.group(3) is not None)
    return sum(1 for line in lines if bare_title(line) is not None) > bracketed


def _start_article(line: str, bare_headings: bool = False) -> Article | None:
    match = ARTICLE_RE.match(line)
    bare = bare_title(line) if bare_headings and match and match.group(3) is None else None
    if match and (match.group(3) is not None or not match.group(4) or bare):
        number, branch = int(match.group(1)), int(match.group(2) or 0)
        title = (match.group(3) or bare or "").strip()
        rest = "" if bare else AMENDMENT_TAIL_RE.sub("", match.group(4))
        article = Article(number, "", branch=branch)
        article.title = title or article.ref
        if rest:
            article.clauses.append(_clause(rest))
        return article
    match = EXHIBIT_RE.match(line)
    if match:
        number, rest = int(match.group(1)), match.group(2).strip()
        return Article(-number, f"별지{number} {rest}".strip())
    return None


def _clause(line: str) -> Clause:
    match = PARAGRAPH_RE.match(line)
    if match:
        return Clause("항", CIRCLED.index(match.group(1)) + 1, line)
    match = ITEM_RE.match(line)
    if match:
        marker = match.group(1)
        number = int(marker) if marker.isdigit() else KOREAN_ITEMS.index(marker) + 1
        return Clause("호", number, line)
    return Clause("text", None, line)


def _check_duplicates(articles: list[Article]) -> None:
    """Each article once: 제3조 and 제3조의2 are two articles, 제3조 twice is a numbering error."""
    seen: set[int] = set()
    for article in articles:
        if article.key in seen:
            label = article.label if article.article_no > 0 else article.title
            raise ContractFileError(
                f"같은 번호의 조항이 두 번 나옵니다 ({label}). 계약서 번호 매김을 확인해 주세요."
            )
        seen.add(article.key)
