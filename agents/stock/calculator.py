"""A safe arithmetic evaluator for CalculatorTool — an AST walk over a whitelist, never `eval`.

Allowed: numbers, + - * / // % **, parentheses, unary minus/plus, and the functions abs, round,
min, max, sqrt, log, exp. Everything else (names, attributes, subscripts, lambdas,
comprehensions, strings, keywords) is refused before anything is computed. Sizes are bounded:
the text length, the node count, the nesting depth, exponents and every intermediate result.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable

MAX_LENGTH = 300
MAX_NODES = 200
MAX_DEPTH = 40
MAX_EXPONENT = 1000.0
MAX_MAGNITUDE = 1e300

DIVISION_BY_ZERO = "0으로 나눌 수 없습니다."


class CalculationError(ValueError):
    """A refused or impossible expression; the message is shown to the user as is."""


def _log(x: float, base: float = math.e) -> float:
    if x <= 0 or base <= 0 or base == 1:
        raise CalculationError("로그는 양수에만 계산할 수 있습니다.")
    return math.log(x, base)


def _sqrt(x: float) -> float:
    if x < 0:
        raise CalculationError("음수의 제곱근은 계산할 수 없습니다.")
    return math.sqrt(x)


def _exp(x: float) -> float:
    if x > 690:
        raise CalculationError("결과가 너무 큽니다.")
    return math.exp(x)


def _round(x: float, digits: float = 0) -> float:
    if digits != int(digits) or not -15 <= digits <= 15:
        raise CalculationError("round의 자릿수는 -15~15 사이의 정수여야 합니다.")
    return float(round(x, int(digits)))


FUNCTIONS: dict[str, tuple[Callable[..., float], int, int]] = {
    # name: (function, min args, max args)
    "abs": (abs, 1, 1),
    "round": (_round, 1, 2),
    "min": (min, 1, 20),
    "max": (max, 1, 20),
    "sqrt": (_sqrt, 1, 1),
    "log": (_log, 1, 2),
    "exp": (_exp, 1, 1),
}


def normalize(expression: str) -> str:
    """Typographic operators (× ÷ −) and thousands separators-free text for the parser."""
    return expression.replace("×", "*").replace("÷", "/").replace("−", "-").strip()


def evaluate(expression: str) -> float:
    """The value of `expression`; CalculationError (Korean message) when refused or impossible."""
    if not isinstance(expression, str) or not expression.strip():
        raise CalculationError("계산식이 비어 있습니다.")
    text = normalize(expression)
    if len(text) > MAX_LENGTH:
        raise CalculationError(f"계산식이 너무 깁니다 (최대 {MAX_LENGTH}자).")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        raise CalculationError("계산식을 해석할 수 없습니다.") from e
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise CalculationError("계산식이 너무 복잡합니다.")
    return _checked(_eval(tree.body, 0))


def _checked(value: float) -> float:
    if math.isnan(value) or math.isinf(value) or abs(value) > MAX_MAGNITUDE:
        raise CalculationError("결과가 너무 큽니다.")
    return value


def _eval(node: ast.AST, depth: int) -> float:
    if depth > MAX_DEPTH:
        raise CalculationError("계산식이 너무 깊게 중첩되어 있습니다.")
    if isinstance(node, ast.Constant):
        return _number(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _eval(node.operand, depth + 1)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        return _binary(node, depth)
    if isinstance(node, ast.Call):
        return _call(node, depth)
    raise CalculationError(f"허용되지 않은 표현입니다: {type(node).__name__}")


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CalculationError("숫자만 계산할 수 있습니다.")
    if isinstance(value, int) and value.bit_length() > 1000:
        raise CalculationError("숫자가 너무 큽니다.")
    return _checked(float(value))


def _binary(node: ast.BinOp, depth: int) -> float:
    left = _eval(node.left, depth + 1)
    right = _eval(node.right, depth + 1)
    op = node.op
    try:
        if isinstance(op, ast.Add):
            return _checked(left + right)
        if isinstance(op, ast.Sub):
            return _checked(left - right)
        if isinstance(op, ast.Mult):
            return _checked(left * right)
        if isinstance(op, ast.Div | ast.FloorDiv | ast.Mod):
            if right == 0:
                raise CalculationError(DIVISION_BY_ZERO)
            if isinstance(op, ast.Div):
                return _checked(left / right)
            return _checked(float(left // right if isinstance(op, ast.FloorDiv) else left % right))
        if isinstance(op, ast.Pow):
            return _power(left, right)
    except OverflowError as e:
        raise CalculationError("결과가 너무 큽니다.") from e
    raise CalculationError(f"허용되지 않은 연산자입니다: {type(op).__name__}")


def _power(base: float, exponent: float) -> float:
    if abs(exponent) > MAX_EXPONENT:
        raise CalculationError(f"지수가 너무 큽니다 (최대 {MAX_EXPONENT:.0f}).")
    if base == 0 and exponent < 0:
        raise CalculationError(DIVISION_BY_ZERO)
    if base < 0 and exponent != int(exponent):
        raise CalculationError("음수의 분수 거듭제곱은 계산할 수 없습니다.")
    return _checked(math.pow(base, exponent))


def _call(node: ast.Call, depth: int) -> float:
    if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
        allowed = ", ".join(FUNCTIONS)
        raise CalculationError(f"허용되지 않은 함수입니다 (사용 가능: {allowed}).")
    if node.keywords:
        raise CalculationError("함수에는 위치 인자만 쓸 수 있습니다.")
    function, low, high = FUNCTIONS[node.func.id]
    if not low <= len(node.args) <= high:
        raise CalculationError(f"{node.func.id} 함수의 인자 수가 맞지 않습니다.")
    if any(isinstance(a, ast.Starred) for a in node.args):
        raise CalculationError("함수에는 위치 인자만 쓸 수 있습니다.")
    args = [_eval(a, depth + 1) for a in node.args]
    try:
        return _checked(float(function(*args)))
    except OverflowError as e:
        raise CalculationError("결과가 너무 큽니다.") from e
