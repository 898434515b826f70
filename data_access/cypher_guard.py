"""The Cypher guard: ``guard_cypher`` (re-exported by ``data_access.guards``).

The query is read by the openCypher ANTLR lexer (``cypher_parse``), so the guard never has to
guess where a string, name or comment ends; see ``guard_cypher`` for the decisions it makes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from data_access.cypher_parse import (
    NUMBER_KINDS,
    QUOTED_KINDS,
    CypherToken,
    dotted_name,
    is_name,
    is_word,
    lex_cypher,
    resolve_unicode_escapes,
)
from data_access.guard_text import check_common, reject

__all__ = ["READ_PROCEDURES", "guard_cypher"]

# Allow-list, compared case-insensitively: a new write procedure must not pass by default.
READ_PROCEDURES = frozenset(
    name.lower()
    for name in [
        "db.labels",
        "db.relationshipTypes",
        "db.propertyKeys",
        "db.indexes",
        "db.constraints",
        "db.idx.vector.queryNodes",
        "db.idx.vector.queryRelationships",
        "db.idx.fulltext.queryNodes",
        "db.idx.fulltext.queryRelationships",
        "db.index.vector.queryNodes",
        "db.index.vector.queryRelationships",
        "db.index.fulltext.queryNodes",
        "db.index.fulltext.queryRelationships",
        "db.schema.visualization",
        "db.schema.nodeTypeProperties",
        "db.schema.relTypeProperties",
        # Read-only schema/metadata procedures Neo4j tooling calls (issue 22).
        "apoc.meta.data",
        "apoc.meta.schema",
        "apoc.meta.stats",
        "apoc.meta.nodeTypeProperties",
        "apoc.meta.relTypeProperties",
        "apoc.schema.nodes",
        "apoc.schema.relationships",
        # Read-only traversal procedures (they only MATCH).
        "apoc.path.expand",
        "apoc.path.expandConfig",
        "apoc.path.subgraphNodes",
        "apoc.path.subgraphAll",
        "apoc.path.spanningTree",
        "apoc.neighbors.tohop",
        "apoc.neighbors.athop",
    ]
)
# Namespaced functions, by prefix: APOC's value-only namespaces, vector similarity, temporal and
# spatial helpers, FalkorDB's string/list/vec helpers. Everything else namespaced is refused:
# dbms.*, apoc.cypher.run*, apoc.load.* / apoc.ml.* / genai.* (files, network, outside services).
_READ_FUNCTION_PREFIXES = tuple(
    [f"apoc.{ns}." for ns in ("text", "coll", "map", "convert", "date", "temporal", "math",
                              "number", "agg", "node", "label", "rel", "any", "meta.cypher",
                              "scoring", "bitwise", "hashing")]
    + ["apoc.nodes.connected(", "gds.similarity.", "gds.alpha.similarity.",
       "gds.util.asnode(", "gds.util.asnodes("]
    + ["vector.similarity.", "vec.", "point.", "date.", "datetime.", "localdatetime.",
       "localtime.", "time.", "duration.", "string.", "list."]
)  # fmt: skip

_WRITE_WORDS = {
    "CREATE": "write clause CREATE",
    "INSERT": "write clause INSERT",  # Neo4j's GQL spelling of CREATE
    "MERGE": "write clause MERGE",
    "SET": "write clause SET",
    "DELETE": "write clause DELETE",
    "DETACH": "write clause DETACH DELETE",
    "REMOVE": "write clause REMOVE",
    "FOREACH": "write clause FOREACH",
    "DROP": "schema command DROP",
    "LOAD": "LOAD CSV (reads files and URLs)",
}
_ADMIN_WORDS = frozenset({"SHOW", "USE", "GRANT", "DENY", "REVOKE", "TERMINATE", "ALTER", "RENAME"})
_FIRST_WORDS = ("MATCH", "OPTIONAL", "WITH", "UNWIND", "CALL", "RETURN")
_INT = "[0-9]+(?:_[0-9]+)*"
_NUMBER = re.compile(
    rf"-?(?:0x[0-9a-f]+|0o[0-7]+|{_INT}(?:\.{_INT})?(?:e[+-]?[0-9]+)?|\.{_INT}(?:e[+-]?[0-9]+)?)",
    re.IGNORECASE,
)
_VERSION = re.compile(r"[0-9]{1,2}(?:\.[0-9]{1,2})?")
_OPEN = {"LPAREN": "RPAREN", "LBRACK": "RBRACK", "LBRACE": "RBRACE"}
_CLOSE = frozenset(_OPEN.values())
# Operators FalkorDB or Neo4j accept that this grammar lacks (!=, =~, label & and !): the lexer
# skips them and resumes, and none of them can open a string or comment, so they are safe to skip.
_SKIPPABLE_CHARS = frozenset("!~&")


# --------------------------------------------------------------------------------------- Cypher


def _is_keyword(sig: list[CypherToken], i: int, *words: str) -> bool:
    return is_word(sig[i]) and sig[i].upper in words and not is_name(sig, i)


def _check_procedure(name: str, query: str) -> None:
    if name.lower() in READ_PROCEDURES:
        return
    if name.lower().startswith("dbms."):
        raise reject(f"administration procedure {name} is not allowed", query)
    raise reject(
        f"procedure {name} is not allowed: only read procedures such as db.labels, "
        "db.idx.vector.queryNodes or db.idx.fulltext.queryNodes may be called",
        query,
    )


def _check_calls(sig: list[CypherToken], query: str) -> None:
    """Procedures after CALL must be on the allow-list, namespaced functions on theirs."""
    i, n = 0, len(sig)
    while i < n:
        if _is_keyword(sig, i, "CALL"):
            if i + 1 == n:
                raise reject("CALL must name a read procedure", query)
            if sig[i + 1].kind in ("LBRACE", "LPAREN"):  # subquery: its tokens are checked as usual
                i += 1
                continue
            name, j = dotted_name(sig, i + 1)
            if not name:
                raise reject(f"CALL must name a read procedure, not '{sig[i + 1].text}'", query)
            _check_procedure(name, query)
            i = j
            continue
        if (is_word(sig[i]) or sig[i].kind == "ESC_LITERAL") and not is_name(sig, i):
            name, j = dotted_name(sig, i)
            namespaced_call = "." in name and j < n and sig[j].kind == "LPAREN"
            if namespaced_call and not f"{name.lower()}(".startswith(_READ_FUNCTION_PREFIXES):
                raise reject(
                    f"function {name}() is not allowed: only value functions (apoc.text.*, "
                    "vector.similarity.*, date.*, …) may be called, nothing that reaches "
                    "files, the network or other services",
                    query,
                )
            i = max(j, i + 1)
            continue
        i += 1


def _depths(sig: list[CypherToken], query: str) -> list[int]:
    """Bracket depth before each token; the final RETURN and its LIMIT live at depth 0."""
    stack: list[str] = []
    depths: list[int] = []
    for tok in sig:
        if tok.kind in _CLOSE and (not stack or stack.pop() != tok.kind):
            raise reject(f"unbalanced bracket '{tok.text}'", query)
        depths.append(len(stack))
        if tok.kind in _OPEN:
            stack.append(_OPEN[tok.kind])
    if stack:
        raise reject("unbalanced brackets: a '(', '[' or '{' is never closed", query)
    return depths


def _limit_edits(
    sig: list[CypherToken], max_rows: int, query: str, params: Mapping[str, object]
) -> list[tuple[int, int, str]]:
    """Edits that give the final RETURN of every UNION branch a LIMIT of at most ``max_rows``.

    Each branch gets its own LIMIT (FalkorDB has no way to limit a whole UNION), so a UNION of k
    branches can return k * max_rows rows; callers still truncate what they show.
    """
    depths = _depths(sig, query)
    branches: list[tuple[int, int]] = []
    lo = 0
    for i in range(len(sig)):
        if depths[i] == 0 and _is_keyword(sig, i, "UNION"):
            branches.append((lo, i - 1))
            lo = i + 2 if i + 1 < len(sig) and sig[i + 1].upper == "ALL" else i + 1
    branches.append((lo, len(sig) - 1))

    edits: list[tuple[int, int, str]] = []
    for lo, hi in branches:
        returns = [k for k in range(lo, hi + 1) if depths[k] == 0 and _is_keyword(sig, k, "RETURN")]
        if not returns:
            raise reject(
                "the query must end with RETURN so a LIMIT can be applied "
                "(e.g. CALL db.labels() YIELD label RETURN label)",
                query,
            )
        limits = [
            k
            for k in range(returns[-1] + 1, hi + 1)
            if depths[k] == 0 and _is_keyword(sig, k, "LIMIT")
        ]
        if not limits:
            edits.append((sig[hi].end, sig[hi].end, f" LIMIT {max_rows}"))
            continue
        k = limits[-1]
        if k + 2 == hi and sig[k + 1].kind == "DOLLAR":  # LIMIT $limit: its value, capped
            edits.append(
                (
                    sig[k + 1].start,
                    sig[hi].end,
                    str(_limit_param(sig[hi].text, params, max_rows, query)),
                )
            )
            continue
        value = sig[k + 1] if k + 1 <= hi else None
        if value is None or k + 1 != hi or not (value.text.isascii() and value.text.isdigit()):
            found = " ".join(tok.text for tok in sig[k + 1 : hi + 1])[:40] or "nothing"
            raise reject(f"LIMIT must be a whole number or a parameter (found '{found}')", query)
        if int(value.text) > max_rows:
            edits.append((value.start, value.end, str(max_rows)))
    return edits


def _limit_param(name: str, params: Mapping[str, object], max_rows: int, query: str) -> int:
    """The value of ``LIMIT $name``, capped at ``max_rows``; it is written into the text, so the
    cap holds on both servers (neither accepts an expression such as a minimum there)."""
    key = name.strip("`")
    value = params.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise reject(f"LIMIT ${key} needs a whole-number parameter (got {value!r})", query)
    return min(value, max_rows)


def _without_version_prefix(sig: list[CypherToken], query: str) -> list[CypherToken]:
    """The tokens after a leading ``CYPHER <version>``; any other CYPHER prefix is refused."""
    if not sig or sig[0].upper != "CYPHER":
        return sig
    version = len(sig) > 2 and sig[1].kind in NUMBER_KINDS and _VERSION.fullmatch(sig[1].text)
    options = any(tok.text == "=" for tok in sig[2:4])  # CYPHER 25 runtime=parallel
    if version and not options:
        return sig[2:]
    raise reject(
        "only a CYPHER version prefix (e.g. CYPHER 25) is allowed; query options are not "
        "(on FalkorDB they set parameters)",
        query,
    )


def guard_cypher(
    query: str, max_rows: int = 200, params: Mapping[str, object] | None = None
) -> str:
    """Return ``query`` ready for a read-only run with a LIMIT of at most ``max_rows``, or raise
    ``QueryRejected``.

    Decisions, each on the safe side of a real ambiguity:

    - Keywords inside string literals, backtick names and comments are not clauses. A bare
      keyword right after ``.``, ``:`` or ``$`` is a name (``n.set``, ``(:Remove)``, ``$create``)
      and passes; anywhere else (``{set: 1}``, ``[:A|SET]``, a variable named ``use``) it is
      refused, even where the server might have read it as a name.
    - One trailing ``;`` is dropped; any other ``;`` is refused.
    - Every UNION branch's final RETURN gets its own LIMIT. ``LIMIT $n`` becomes the value of
      ``params["n"]`` capped at ``max_rows`` (no value: refused); an expression is refused, and
      so is a query without a final RETURN (``CALL db.labels()`` alone) because a LIMIT needs one.
    - ``\\uXXXX`` escapes are resolved first, as Neo4j does before parsing, and the resolved
      text is what is checked and run: an escaped quote cannot end a literal on one server only.
    - A ``CYPHER 25`` version prefix is accepted (the FalkorDB store drops it); query options
      (``CYPHER runtime=…``, which set parameters on FalkorDB) are refused.
    - Text this grammar cannot lex (a bad escape such as ``'\\q'``, which FalkorDB accepts, a
      line break inside quotes) is refused rather than guessed at; ``!=``, ``=~`` and label
      ``&``/``!`` are skipped because they cannot open a string or comment.
    """
    check_common(query, max_rows, "Cypher")
    try:
        resolved = resolve_unicode_escapes(query)
    except ValueError as e:
        raise reject(str(e), query) from e
    if resolved != query:
        check_common(resolved, max_rows, "Cypher")
    lexed = lex_cypher(resolved)
    text = lexed.text
    for fail in lexed.failures:
        if fail.text in _SKIPPABLE_CHARS:
            continue
        line = text.count("\n", 0, fail.start) + 1
        if fail.text[:1] in "'\"`":
            raise reject(f"unterminated or malformed quoted text near line {line}", query)
        raise reject(f"unexpected character {fail.text[:1]!r} near line {line}", query)

    quoted = [False] * len(text)
    for tok in lexed.tokens:
        if tok.kind in QUOTED_KINDS:
            quoted[tok.start : tok.end] = [True] * (tok.end - tok.start)
    for pos, ch in enumerate(text):
        if not quoted[pos] and unicodedata.category(ch) == "Cf":
            raise reject(
                f"invisible character U+{ord(ch):04X} is only allowed inside a quoted value", query
            )

    sig = [tok for tok in lexed.tokens if not tok.is_layout]
    if not sig:
        raise reject("empty Cypher query (only comments)", query)
    edits: list[tuple[int, int, str]] = []
    if sig[-1].kind == "SEMI":  # one trailing ';' is harmless and common
        edits.append((sig[-1].start, sig[-1].end, ""))
        sig = sig[:-1]
    if any(tok.kind == "SEMI" for tok in sig) or not sig:
        raise reject("only one statement is allowed (found ';' between statements)", query)

    for i, tok in enumerate(sig):
        starts_with_digit = tok.kind == "ID" and tok.text[:1].isdigit()
        if (tok.kind in NUMBER_KINDS or starts_with_digit) and not _NUMBER.fullmatch(tok.text):
            # This grammar lexes `1CREATE` as one name and `.1DELETE` as `.1D` + `ELETE`; a real
            # Cypher lexer reads a number, then the keyword.
            raise reject(f"malformed number '{tok.text[:30]}'", query)
        if not is_word(tok) or is_name(sig, i):
            continue
        word = tok.upper
        if word in _WRITE_WORDS:
            raise reject(f"{_WRITE_WORDS[word]} is not allowed (read-only queries only)", query)
        if word in _ADMIN_WORDS:
            raise reject(f"administration command {word} is not allowed", query)
        nxt = sig[i + 1].upper if i + 1 < len(sig) else ""
        if word in ("START", "STOP") and nxt.startswith("DATABASE"):
            raise reject(f"administration command {word} DATABASE is not allowed", query)
        if word == "IN" and nxt == "TRANSACTIONS":
            raise reject("CALL { … } IN TRANSACTIONS is not allowed (batched writes)", query)

    sig = _without_version_prefix(sig, query)
    first = sig[0].upper
    if first == "GRAPH" and len(sig) > 1 and sig[1].kind == "DOT":
        raise reject("GRAPH.* commands are not allowed; send only the Cypher text", query)
    if first not in _FIRST_WORDS:
        raise reject(
            "a query must start with MATCH, OPTIONAL MATCH, WITH, UNWIND, CALL or RETURN "
            f"(found '{sig[0].text}')",
            query,
        )
    _check_calls(sig, query)
    edits += _limit_edits(sig, max_rows, query, params or {})

    # Run what was checked: unicode spaces outside quoted values become plain spaces (the guard
    # read them as spaces, and a server might not), and quoted values stay exactly as written.
    out = [
        " " if not quoted[pos] and unicodedata.category(ch) == "Zs" else ch
        for pos, ch in enumerate(text)
    ]
    for start, end, new in sorted(edits, reverse=True):
        out[start:end] = list(new)
    return "".join(out).strip()
