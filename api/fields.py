"""What each kind of identifier may look like, shared by the HTTP bodies (api.models) and the MCP
tool arguments (api.mcp.arguments). Kept free of heavy imports: the MCP server lists its tools
with these before anything else loads.

    SYMBOL.fullmatch("KR:005930")                  # AAPL, BRK.B, ^KS11, CL=F, 삼성전자우
    SYMBOL.fullmatch("005930'; DROP TABLE etfs")   # None: a 422 / tool error naming the field
"""

from __future__ import annotations

import re

SYMBOL_PATTERN = r"^[\w가-힣^][\w가-힣 .:&()=^\-]*$"
CONTRACT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:\-]{0,127}$"
ISO_DATE_PATTERN = r"^\d{4}-\d{2}-\d{2}$"
UUID_PATTERN = r"^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$"
ETF_CODES_PATTERN = r"^[0-9A-Za-z]{6}( *, *[0-9A-Za-z]{6})*$"  # one code, or codes with commas
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$"  # a storage name (the news `bucket`)

SYMBOL = re.compile(SYMBOL_PATTERN)
CONTRACT_ID = re.compile(CONTRACT_ID_PATTERN)
ISO_DATE = re.compile(ISO_DATE_PATTERN)
UUID = re.compile(UUID_PATTERN)

# MCP argument names and the pattern their strings must match.
PATTERNS_BY_NAME = {
    "symbol": SYMBOL_PATTERN,
    "ticker": SYMBOL_PATTERN,
    "contract_id": CONTRACT_ID_PATTERN,
    "stock_code": SYMBOL_PATTERN,
    "etf_code": ETF_CODES_PATTERN,
    "etf_codes": ETF_CODES_PATTERN,
    "bucket": NAME_PATTERN,
}
PATTERN_TEXT = {
    SYMBOL_PATTERN: "글자, 숫자, 공백과 . : & ( ) = ^ - 만 쓸 수 있습니다",
    CONTRACT_ID_PATTERN: "영문·숫자와 _ . : - 로 된 128자 이내의 id여야 합니다",
    ISO_DATE_PATTERN: "YYYY-MM-DD 날짜여야 합니다",
    UUID_PATTERN: "UUID 형식이어야 합니다",
    ETF_CODES_PATTERN: "6자리 ETF 코드(예: 069500)이거나 쉼표로 이은 코드여야 합니다",
    NAME_PATTERN: "영문·숫자와 _ . - 로 된 64자 이내의 이름이어야 합니다",
}
