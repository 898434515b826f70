"""Strict MCP tool arguments: every call is checked against the tool's own input schema first.

    schema = strict_schema(tool_schema)           # caps added, extra arguments refused
    problem = check_arguments(arguments, schema)  # None, or the tool-error dict (Korean)

The schemas come from the agents' tool classes (api.mcp.registry); here they get what the HTTP
API has on its bodies: a length cap on every string (`MAX_ARG_CHARS`, `maxLength` when the tool
sets none), a cap on array lengths, ISO dates for date fields (`day`, `date`, `*_date`), and no
arguments beyond the listed ones. The capped schema is also what `tools/list` shows, so a client
sees the rules it is held to. A refusal names the argument and what it accepts; the value sent is
never repeated back (it may be megabytes long, or an attack).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from agents.inputs import clean_text
from api.fields import ISO_DATE_PATTERN, PATTERN_TEXT, PATTERNS_BY_NAME

MAX_ARG_CHARS = 2000  # as a question on the HTTP API (agents.inputs.MAX_QUESTION_CHARS)
MAX_ITEMS = 50
MAX_ARGUMENTS_BYTES = 64 * 1024  # as an HTTP request body (api.config.ApiConfig.max_body_bytes)
SCHEMA_HINT = "tools/list의 inputSchema에 맞춰 다시 호출하세요."

_TYPE_NAMES = {"string": "문자열", "integer": "정수", "number": "숫자", "boolean": "true/false",
               "array": "배열", "object": "객체", "null": "null"}  # fmt: skip


def _is_date_field(name: str) -> bool:
    return name in ("day", "date") or name.endswith("_date")


def _types(spec: dict[str, Any]) -> set[str]:
    kind = spec.get("type")
    return set(kind) if isinstance(kind, list) else ({kind} if isinstance(kind, str) else set())


def _cap(spec: Any, name: str, max_chars: int) -> None:
    """Add the caps to one (sub)schema in place, and to everything nested in it."""
    if not isinstance(spec, dict):
        return
    kinds = _types(spec)
    if "string" in kinds:
        spec.setdefault("maxLength", max_chars)
        if _is_date_field(name):
            spec.setdefault("pattern", ISO_DATE_PATTERN)
            spec.setdefault("format", "date")
        elif name in PATTERNS_BY_NAME:
            spec.setdefault("pattern", PATTERNS_BY_NAME[name])
    if "array" in kinds:
        spec.setdefault("maxItems", MAX_ITEMS)
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in spec.get(key, []) or []:
            _cap(sub, name, max_chars)
    _cap(spec.get("items"), name, max_chars)
    for prop, sub in (spec.get("properties") or {}).items():
        _cap(sub, prop, max_chars)
    for sub in (spec.get("$defs") or {}).values():
        _cap(sub, name, max_chars)


def strict_schema(schema: dict[str, Any], *, max_chars: int = MAX_ARG_CHARS) -> dict[str, Any]:
    """A copy of a tool's input schema with the caps above and no extra arguments."""
    out = copy.deepcopy(schema)
    out.setdefault("type", "object")
    out.setdefault("properties", {})
    out["additionalProperties"] = False
    _cap(out, "", max_chars)
    return out


def _where(error: Any) -> str:
    path = ".".join(str(p) for p in error.absolute_path)
    return path[:80] or "인자"


def _problem(error: Any) -> str:
    """One jsonschema error in Korean, without the instance (jsonschema's own message has it)."""
    kind, expected = error.validator, error.validator_value
    if kind == "type":
        wanted = expected if isinstance(expected, list) else [expected]
        names = "/".join(_TYPE_NAMES.get(str(t), str(t)) for t in wanted)
        return f"{_where(error)}: {names} 형식이어야 합니다"
    if kind == "required":
        missing = [
            n for n in expected if isinstance(error.instance, dict) and n not in error.instance
        ]
        return f"빠진 인자: {', '.join(missing)[:120]}"
    if kind == "additionalProperties":
        allowed = set((error.schema or {}).get("properties", {}))
        extra = sorted(k for k in (error.instance or {}) if k not in allowed)
        return f"모르는 인자: {', '.join(e[:40] for e in extra[:5])}"
    if kind == "maxLength":
        return f"{_where(error)}: 너무 깁니다 (최대 {expected:,}자)"
    if kind == "minLength":
        return f"{_where(error)}: 너무 짧습니다 (최소 {expected}자)"
    if kind == "maxItems":
        return f"{_where(error)}: 항목이 너무 많습니다 (최대 {expected}개)"
    if kind == "minItems":
        return f"{_where(error)}: 항목이 너무 적습니다 (최소 {expected}개)"
    if kind == "pattern":
        return f"{_where(error)}: {PATTERN_TEXT.get(expected, '허용되지 않는 문자가 있습니다')}"
    if kind == "format" and expected == "date":
        return f"{_where(error)}: 없는 날짜입니다 (YYYY-MM-DD)"
    if kind in ("minimum", "exclusiveMinimum"):
        return f"{_where(error)}: {expected} 이상이어야 합니다"
    if kind in ("maximum", "exclusiveMaximum"):
        return f"{_where(error)}: {expected} 이하여야 합니다"
    if kind in ("enum", "const"):
        allowed_text = ", ".join(str(v) for v in (expected if kind == "enum" else [expected]))
        return f"{_where(error)}: 허용된 값이 아닙니다 (허용: {allowed_text[:120]})"
    return f"{_where(error)}: 형식이 올바르지 않습니다"


def refusal(problems: list[str]) -> dict[str, Any]:
    return {"status": "error", "error": "인자가 스키마와 맞지 않습니다 — " + "; ".join(problems),
            "retry_hint": SCHEMA_HINT}  # fmt: skip


def check_arguments(arguments: Any, schema: dict[str, Any]) -> dict[str, Any] | None:
    """None when `arguments` fit `schema` (a `strict_schema`), else the tool-error dict."""
    from jsonschema import Draft202012Validator

    if not isinstance(arguments, dict):
        return refusal(["인자: 객체 형식이어야 합니다"])
    size = len(json.dumps(arguments, ensure_ascii=False, default=str).encode())
    if size > MAX_ARGUMENTS_BYTES:
        return refusal([f"인자 전체가 너무 큽니다 (최대 {MAX_ARGUMENTS_BYTES:,} 바이트)"])
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(
        validator.iter_errors(arguments), key=lambda e: [str(p) for p in e.absolute_path]
    )
    first: dict[str, str] = {}  # one problem per argument (a bad date fails pattern and format)
    for error in errors:
        first.setdefault(_where(error), _problem(error))
    for name, value in arguments.items():
        if name not in first and _invisible_only(value):
            first[name[:80]] = f"{name[:80]}: 보이지 않는 제어 문자만 있습니다"
    return refusal(list(first.values())[:5]) if first else None


def _invisible_only(value: Any) -> bool:
    """A string with something in it that cleaning leaves empty (NUL, escapes, bidi marks)."""
    if isinstance(value, str):
        return bool(value.strip()) and not clean_text(value)
    if isinstance(value, list):
        return any(_invisible_only(v) for v in value)
    if isinstance(value, dict):
        return any(_invisible_only(v) for v in value.values())
    return False


def cleaned(value: Any) -> Any:
    """Every string in the arguments cleaned as the screens clean their boxes (agents.inputs:
    NUL, terminal escapes, bidi overrides and zero-width characters removed)."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [cleaned(v) for v in value]
    if isinstance(value, dict):
        return {k: cleaned(v) for k, v in value.items()}
    return value
