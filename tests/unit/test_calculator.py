"""CalculatorTool: the seed's arithmetic works, and hostile or malformed input is refused fast
without executing anything (the evaluator walks a whitelist of AST nodes; there is no eval)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.stock import calculator
from agents.stock.tools import calculate

SENTINEL = Path("/tmp/atlas_calculator_must_not_exist")


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("2 + 3 * 4", 14.0),
        ("(2 + 3) * 4", 20.0),
        ("-3 ** 2", -9.0),
        ("2 ** -1", 0.5),
        ("7 // 2 + 7 % 3", 4.0),
        ("10 ÷ 4 × 2", 5.0),
        ("abs(-2.5) + round(3.14159, 2)", 5.64),
        ("max(1, 5, 3) - min(4, 2)", 3.0),
        ("sqrt(16) + log(100, 10) + exp(0)", 7.0),
        ("(104300 - 94000) / 94000 * 100", (104300 - 94000) / 94000 * 100),
    ],
)
def test_arithmetic(expression: str, expected: float) -> None:
    result = calculate(expression)
    assert result["status"] == "success", result
    assert result["result"] == pytest.approx(expected)
    assert result["expression"] == expression


def test_division_by_zero_uses_the_seed_message() -> None:
    result = calculate("10/0")
    assert result == {"status": "error", "error": "0으로 나눌 수 없습니다.", "expression": "10/0",
                      "retry_hint": "계산식을 확인해주세요.", "retryable": False, "attempts": 1}  # fmt: skip
    assert calculate("5 % 0")["error"] == calculator.DIVISION_BY_ZERO
    assert calculate("0 ** -1")["error"] == calculator.DIVISION_BY_ZERO


HOSTILE = [
    f"__import__('os').system('touch {SENTINEL}')",
    f"open('{SENTINEL}', 'w')",
    "(1).__class__.__bases__[0].__subclasses__()",
    "().__class__",
    "globals()",
    "x",
    "pi * 2",
    "lambda: 1",
    "[i for i in range(10)]",
    "{1: 2}",
    "'abc' * 3",
    "1 if 1 else 2",
    "max(*[1, 2])",
    "round(2.5, ndigits=1)",
    "sqrt.__call__(4)",
    "a := 3",
    "1; 2",
    "True + 1",
    "1 < 2",
    "1 << 100",
    "~1",
    "1 & 2",
    "f'{1}'",
    "b'1'",
    "9**9**9",
    "10 ** 100000",
    "2 ** 1001",
    "exp(1000)",
    "1e308 * 10",
    "9" * 400,
    "abs(" * 50 + "1" + ")" * 50,
    "1 +" + " 1 +" * 150 + " 1",
    "",
    "   ",
    "1 +",
    "sqrt(-1)",
    "log(0)",
    "(-8) ** 0.5",
    "unknown(1)",
    "abs(1, 2)",
]


@pytest.mark.parametrize("expression", HOSTILE)
def test_hostile_and_malformed_input_is_refused(expression: str) -> None:
    result = calculate(expression)  # a computed 9**9**9 would never return: refused up front
    assert result["status"] == "error", result
    assert result["error"] and result["retry_hint"] == "계산식을 확인해주세요."
    assert not SENTINEL.exists()


def test_a_100k_character_input_is_refused_and_not_echoed_whole() -> None:
    expression = "1+" * 50_000 + "1"
    result = calculate(expression)
    assert result["status"] == "error" and "너무 깁니다" in result["error"]
    assert len(result["expression"]) < 300


def test_the_evaluator_never_calls_eval(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("eval/exec must not be used")

    for name in ("eval", "exec"):  # ast.parse itself uses compile(); parsing is not running
        monkeypatch.setattr(builtins, name, forbidden)
    assert calculate("2 + 3 * 4")["result"] == 14.0
    assert calculate("__import__('os')")["status"] == "error"


def test_redundant_parentheses_are_plain_arithmetic() -> None:
    assert calculate("(" * 90 + "1" + ")" * 90)["result"] == 1.0


def test_messages_name_the_problem() -> None:
    assert "지수가 너무 큽니다" in calculate("9**9**9")["error"]
    assert "허용되지 않은 함수" in calculate("__import__('os')")["error"]
    assert "음수의 제곱근" in calculate("sqrt(-4)")["error"]
    assert "비어 있습니다" in calculate("")["error"]
