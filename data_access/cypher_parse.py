"""Tokens of a Cypher query, read by the openCypher ANTLR lexer (`antlr4-cypher`).

Only the lexer is used. The grammar's parser rejects ordinary reads that FalkorDB runs
(`WITH … ORDER BY … WITH`, `UNION`, `CALL { }`, `reduce`, map projections), so a parse tree
cannot be the gate. The lexer is what the guard needs from a real grammar: it decides what is
inside a string literal, a backtick name or a comment, so a keyword there is not taken for a
clause. Where this lexer differs from the servers' (it counts every non-ASCII character as a
letter, reads `1CREATE` as one name, skips text it cannot read), ``lexer_view`` and the guard
make the difference err towards refusing.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from antlr4 import InputStream
from antlr4_cypher import CypherLexer

# Characters some Cypher implementations end a `//` comment on and others do not. Folding them
# (and a lone carriage return) into "\n" in the text that is both checked and run leaves no room
# for the guard and the server to disagree about where a comment ends.
_LINE_BREAKS = {
    "\r": "\n",
    "\x0b": "\n",
    "\x0c": "\n",
    "\x85": "\n",
    "\u2028": "\n",
    "\u2029": "\n",
}

QUOTED_KINDS = frozenset({"STRING_LITERAL", "CHAR_LITERAL", "ESC_LITERAL"})
NUMBER_KINDS = frozenset({"Integer", "DIGIT", "FLOAT"})
_NOT_WORDS = QUOTED_KINDS | NUMBER_KINDS
_LAYOUT_KINDS = frozenset({"SP", "WHITESPACE", "Comment"})


@dataclass(frozen=True)
class CypherToken:
    """One token: ``kind`` is the grammar's name ("MATCH", "ID", "STRING_LITERAL", "LPAREN", …)."""

    kind: str
    text: str
    start: int  # offset of the first character in the lexed text
    end: int  # offset just after the last character

    @property
    def upper(self) -> str:
        return self.text.upper()

    @property
    def is_layout(self) -> bool:
        """Whitespace and comments: the grammar puts both in one ``SP`` token."""
        return self.kind in _LAYOUT_KINDS


@dataclass(frozen=True)
class LexFailure:
    """Text the lexer could not turn into a token (it skips it and goes on)."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class LexResult:
    text: str  # the text that was lexed and must be the text that runs (see fold_line_breaks)
    tokens: list[CypherToken]
    failures: list[LexFailure]


# Java-style escapes, which Neo4j resolves in the whole text before it parses (so `'\u0027'` is
# a quote that ends the literal there) and FalkorDB leaves as they are.
_UNICODE_ESCAPE = re.compile(r"(\\+)u+([0-9A-Fa-f]{4})")


def resolve_unicode_escapes(query: str) -> str:
    """``query`` with every ``\\uXXXX`` escape replaced by its character, as Neo4j reads it.

    Checking (and running) the resolved text leaves no room for the two servers to disagree
    about where a literal ends. An escape after an escaped backslash (``\\\\u0027``) is
    read one way by Java's rules and another by FalkorDB's: ValueError.
    """

    def resolve(match: re.Match[str]) -> str:
        slashes = match.group(1)
        if len(slashes) % 2 == 0:
            raise ValueError(
                f"ambiguous escape {match.group(0)!r}: a backslash before \\u is read differently "
                "by Neo4j and FalkorDB"
            )
        return slashes[:-1] + chr(int(match.group(2), 16))

    return _UNICODE_ESCAPE.sub(resolve, query)


def fold_line_breaks(query: str) -> str:
    """Write every line break as "\\n" ("\\r\\n" stays as it is)."""
    out: list[str] = []
    for i, ch in enumerate(query):
        if ch == "\r" and query[i + 1 : i + 2] == "\n":
            out.append(ch)
        else:
            out.append(_LINE_BREAKS.get(ch, ch))
    return "".join(out)


def lexer_view(text: str) -> str:
    """Same-length copy of ``text`` in which every non-ASCII character that is not a letter or a
    digit (unicode spaces, zero-width and other invisible characters, punctuation, symbols) is a
    plain space.

    The grammar takes every non-ASCII character for a letter, so ``n)\u00a0DELETE`` would lex as
    one harmless name while a server that treats U+00A0 as a space runs DELETE. A space can never
    open or close a string, name or comment, so this only ever splits words: it can show a keyword
    the server would not see, never hide one it would.
    """
    return "".join(
        " " if ord(ch) > 0x7F and unicodedata.category(ch)[0] not in "LN" else ch for ch in text
    )


class _RecordingLexer(CypherLexer):  # type: ignore[misc]
    """The generated lexer, with recognition errors recorded instead of printed to stderr."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self.removeErrorListeners()
        self.failed_spans: list[tuple[int, int]] = []

    def notifyListeners(self, e: Any) -> None:  # ANTLR's hook for recognition errors
        # The runtime reports the failed text as start..index inclusive.
        self.failed_spans.append((self._tokenStartCharIndex, self._input.index + 1))


def lex_cypher(query: str) -> LexResult:
    """Tokens of ``query`` after ``fold_line_breaks``; offsets refer to ``LexResult.text``."""
    text = fold_line_breaks(query)
    view = lexer_view(text)
    lexer = _RecordingLexer(InputStream(view))
    names = CypherLexer.symbolicNames
    tokens = [
        CypherToken(
            kind=names[t.type] if 0 < t.type < len(names) else str(t.type),
            text=text[t.start : t.stop + 1],
            start=t.start,
            end=t.stop + 1,
        )
        for t in lexer.getAllTokens()
    ]
    failures = [LexFailure(s, e, text[s:e]) for s, e in lexer.failed_spans]
    return LexResult(text=text, tokens=tokens, failures=failures)


# Reading a list of significant tokens (whitespace and comments left out).


def is_word(tok: CypherToken) -> bool:
    return tok.kind not in _NOT_WORDS and (tok.text[:1].isalpha() or tok.text[:1] == "_")


def is_name(sig: list[CypherToken], i: int) -> bool:
    """True when the word at ``i`` is a property key, label/type or parameter (``n.set_id``,
    ``n.set``, ``(:Remove)``, ``$limit``), not a clause keyword: the server reads it as a name too,
    and a write clause cannot start without its keyword."""
    if i == 0:
        return False
    prev = sig[i - 1].kind
    if prev == "COLON" or (prev == "DOLLAR" and sig[i - 1].end == sig[i].start):
        return True
    # `1. SET` could be a float followed by a clause on some servers; only a name before the dot
    # makes a property key.
    return prev == "DOT" and i >= 2 and sig[i - 2].kind not in NUMBER_KINDS


def dotted_name(sig: list[CypherToken], i: int) -> tuple[str, int]:
    """Read ``name(.name)*`` from ``i`` with backticks removed; return it and the next index."""
    parts: list[str] = []
    j, n = i, len(sig)
    while j < n and (is_word(sig[j]) or sig[j].kind == "ESC_LITERAL"):
        part = sig[j].text
        if sig[j].kind == "ESC_LITERAL":
            part = part[1:-1]
            # `a``b` is one name with a backtick in it; the lexer gives two adjacent tokens.
            while j + 1 < n and sig[j + 1].kind == "ESC_LITERAL" and sig[j + 1].start == sig[j].end:
                j += 1
                part += "`" + sig[j].text[1:-1]
        parts.append(part)
        j += 1
        if j + 1 < n and sig[j].kind == "DOT":
            j += 1
        else:
            break
    return ".".join(parts), j
