"""국토교통부 아파트 매매 실거래가: the CSV export of rt.molit.go.kr, as it is downloaded.

    result = import_molit_apt_trades(Path("아파트(매매)_실거래가_20241031.csv"))
    # import run 7 partial: molit ... -> re_transactions: read 10, loaded 7, failed 2, skipped 1

The export is CP949 with a block of notice and search-condition lines (□ ...) above the header
row (`NO,시군구,번지,본번,부번,단지명,전용면적(㎡),계약년월,계약일,거래금액(만원),...`). Prices
are in 만원 with thousands separators ('325,000' = 32억 5천만원). A deal with a 해제사유발생일
was cancelled and is skipped, not loaded. Each deal goes to `re_transactions` (what the
real-estate answers and the graph's monthly summary read, in 원, region as '서울 강남구') and its
full record to `molit_apt_trades`, keyed by the deal's identity so a re-import does not
duplicate it.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from psycopg_pool import ConnectionPool

from data_access.errors import ImportFailed
from data_access.importers.base import (
    Conn,
    DatasetSpec,
    ImportJob,
    ImportResult,
    LoadOutcome,
    ParsedRows,
    RowFailure,
    run_import,
)
from data_access.importers.source_files import digest, parse_amount, read_source_text

DATASET_CODE = "KR_APT_TRADES_MOLIT"
DEALS_DATASET = "KR_REAL_ESTATE_TRANSACTIONS"  # what the Macro deal answers cite
MANWON = 10_000
# The columns every MOLIT apartment-sale export has had since 2006 (others are optional).
REQUIRED = ("시군구", "단지명", "전용면적(㎡)", "계약년월", "계약일", "거래금액(만원)")
SIDO_SHORT = {
    "서울특별시": "서울", "부산광역시": "부산", "대구광역시": "대구", "인천광역시": "인천",
    "광주광역시": "광주", "대전광역시": "대전", "울산광역시": "울산", "세종특별자치시": "세종",
    "경기도": "경기", "강원도": "강원", "강원특별자치도": "강원", "충청북도": "충북",
    "충청남도": "충남", "전라북도": "전북", "전북특별자치도": "전북", "전라남도": "전남",
    "경상북도": "경북", "경상남도": "경남", "제주특별자치도": "제주",
}  # fmt: skip


@dataclass(frozen=True)
class MolitTrade:
    """One published apartment sale (price in 만원 as published, 원 derived)."""

    source_key: str
    sigungu: str
    region: str
    beonji: str | None
    complex_name: str
    area_m2: float
    deal_date: date
    price_manwon: int
    floor: int | None
    dong: str | None
    build_year: int | None
    road_address: str | None
    deal_type: str | None
    registered_on: str | None

    @property
    def price_krw(self) -> int:
        return self.price_manwon * MANWON


def region_of(sigungu: str) -> str:
    """'서울특별시 강남구 개포동' -> '서울 강남구'; '경기도 성남시 분당구 정자동' -> '경기 성남시 분당구'."""
    parts = sigungu.split()
    if not parts:
        raise ValueError("시군구가 비어 있습니다")
    sido = SIDO_SHORT.get(parts[0], parts[0])
    districts = [p for p in parts[1:] if p.endswith(("시", "군", "구"))]
    return " ".join([sido, *districts])


def _header_index(rows: list[list[str]], name: str) -> int:
    for i, row in enumerate(rows):
        cells = [c.strip() for c in row]
        if "시군구" in cells and "거래금액(만원)" in cells:
            return i
    raise ImportFailed(
        f"{name}: 국토교통부 아파트 매매 실거래가 CSV가 아닙니다 "
        "('시군구'와 '거래금액(만원)' 열이 있는 머리글 행을 찾지 못했습니다)"
    )


def parse_molit_csv(text: str, name: str) -> ParsedRows[MolitTrade]:
    """The export's deals; notice lines above the header are skipped, bad rows become failures."""
    rows = list(csv.reader(io.StringIO(text)))
    start = _header_index(rows, name)
    header = [c.strip() for c in rows[start]]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise ImportFailed(f"{name}: 필요한 열이 없습니다: {', '.join(missing)}")
    parsed: ParsedRows[MolitTrade] = ParsedRows()
    for offset, row in enumerate(rows[start + 1 :], start=start + 2):
        if not any(c.strip() for c in row):
            continue
        parsed.read += 1
        where = f"{offset}행"
        if len(row) != len(header):
            parsed.failures.append(
                RowFailure(where, None, f"열 개수가 머리글과 다릅니다 ({len(row)} ≠ {len(header)})")
            )
            continue
        cells = {h: c.strip() for h, c in zip(header, row, strict=True)}
        if _cancelled(cells):
            parsed.skipped += 1  # 해제된 거래: 공개되지만 성사된 매매가 아니다
            continue
        try:
            parsed.rows.append(_trade(cells))
            parsed.row_locations.append(where)
        except _CellError as e:
            parsed.failures.append(RowFailure(where, e.column, e.message))
    return parsed


class _CellError(Exception):
    def __init__(self, column: str, message: str) -> None:
        super().__init__(message)
        self.column, self.message = column, message


def _cancelled(cells: dict[str, str]) -> bool:
    return cells.get("해제사유발생일", "-") not in ("", "-")


def _cell(cells: dict[str, str], column: str) -> str | None:
    value = cells.get(column, "")
    return None if value in ("", "-") else value


def _number(cells: dict[str, str], column: str) -> float:
    try:
        value = parse_amount(cells.get(column))
    except ValueError as e:
        raise _CellError(column, str(e)) from e
    if value is None:
        raise _CellError(column, "값이 비어 있습니다")
    return value


def _optional_int(cells: dict[str, str], column: str) -> int | None:
    try:
        value = parse_amount(cells.get(column))
    except ValueError as e:
        raise _CellError(column, str(e)) from e
    return None if value is None else int(value)


def _deal_date(cells: dict[str, str]) -> date:
    month, day = cells["계약년월"], cells["계약일"]
    try:
        return date(int(month[:4]), int(month[4:6]), int(day))
    except ValueError as e:
        raise _CellError("계약년월", f"계약일이 올바르지 않습니다: '{month}' '{day}'") from e


def _trade(cells: dict[str, str]) -> MolitTrade:
    sigungu = cells["시군구"]
    complex_name = cells["단지명"]
    if not sigungu or not complex_name:
        raise _CellError("시군구" if not sigungu else "단지명", "값이 비어 있습니다")
    area = _number(cells, "전용면적(㎡)")
    price = int(_number(cells, "거래금액(만원)"))
    if area <= 0 or price <= 0:
        raise _CellError("거래금액(만원)" if price <= 0 else "전용면적(㎡)", "0보다 커야 합니다")
    deal = _deal_date(cells)
    floor, dong = _optional_int(cells, "층"), _cell(cells, "동")
    key = digest(sigungu, cells.get("번지"), complex_name, f"{area:.4f}", deal, price, floor, dong)
    return MolitTrade(
        source_key=key, sigungu=sigungu, region=region_of(sigungu), beonji=_cell(cells, "번지"),
        complex_name=complex_name, area_m2=round(area, 2), deal_date=deal, price_manwon=price,
        floor=floor, dong=dong, build_year=_optional_int(cells, "건축년도"),
        road_address=_cell(cells, "도로명"), deal_type=_cell(cells, "거래유형"),
        registered_on=_cell(cells, "등기일자"),
    )  # fmt: skip


# ---------------------------------------------------------------- load

_EXISTING = "SELECT source_key, tx_id FROM molit_apt_trades WHERE source_key = ANY(%s)"
_UPDATE_TX = """UPDATE re_transactions SET region = %s, complex_name = %s, area_m2 = %s,
    floor = %s, price_krw = %s, deal_date = %s WHERE id = %s"""
_INSERT_TX = """INSERT INTO re_transactions (region, complex_name, area_m2, floor, price_krw,
    deal_date) VALUES (%s, %s, %s, %s, %s, %s) RETURNING id"""
_UPSERT_RAW = """
INSERT INTO molit_apt_trades (source_key, tx_id, sigungu, region, beonji, complex_name, area_m2,
    deal_date, price_manwon, price_krw, floor, dong, build_year, road_address, deal_type,
    registered_on, source_file)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (source_key) DO UPDATE SET tx_id = EXCLUDED.tx_id,
    registered_on = EXCLUDED.registered_on, source_file = EXCLUDED.source_file,
    imported_at = now()"""


def dataset_spec() -> DatasetSpec:
    return DatasetSpec(
        DATASET_CODE, "molit_apt_trades", "real_estate", "deal_date", None,
        "아파트 매매 실거래가 (국토교통부)", "molit", 45,
    )  # fmt: skip


def deals_spec(source_file: str) -> DatasetSpec:
    """The deals table the answers read and cite (`re_transactions`, KR_REAL_ESTATE_TRANSACTIONS)
    now holds MOLIT's deals: its catalogue row names the file, as every import names what it
    loaded, so a deal answer's citation leads to 국토교통부, not to the demo."""
    from data_access.catalog import dataset_by_code

    core = dataset_by_code(DEALS_DATASET)
    return DatasetSpec(
        core.dataset_code, core.table_name, core.domain, core.date_column, None, core.title_ko,
        f"molit:{source_file}", core.max_stale_days,
    )  # fmt: skip


def _store_trade(conn: Conn, trade: MolitTrade, tx_id: int | None, source_file: str) -> None:
    tx_values = (trade.region, trade.complex_name, trade.area_m2, trade.floor,
                 trade.price_krw, trade.deal_date)  # fmt: skip
    updated = tx_id is not None and conn.execute(_UPDATE_TX, (*tx_values, tx_id)).rowcount == 1
    if not updated:  # new, or its re_transactions row went with a demo re-seed
        row = conn.execute(_INSERT_TX, tx_values).fetchone()
        assert row is not None
        tx_id = int(row["id"])
    conn.execute(_UPSERT_RAW, (
        trade.source_key, tx_id, trade.sigungu, trade.region, trade.beonji, trade.complex_name,
        trade.area_m2, trade.deal_date, trade.price_manwon, trade.price_krw, trade.floor,
        trade.dong, trade.build_year, trade.road_address, trade.deal_type, trade.registered_on,
        source_file,
    ))  # fmt: skip


def load_molit(conn: Conn, parsed: ParsedRows[MolitTrade], source_file: str) -> LoadOutcome:
    outcome = LoadOutcome(parsed.read, 0, list(parsed.failures), parsed.skipped)
    unique = {t.source_key: t for t in parsed.rows}  # the same deal twice in one file
    existing = {
        r["source_key"]: r["tx_id"] for r in conn.execute(_EXISTING, (list(unique),)).fetchall()
    }
    for trade in unique.values():
        _store_trade(conn, trade, existing.get(trade.source_key), source_file)
    outcome.rows_loaded = len(unique)
    if unique:
        outcome.datasets = [dataset_spec(), deals_spec(source_file)]
        outcome.first_date = min(t.deal_date for t in unique.values())
        outcome.last_date = max(t.deal_date for t in unique.values())
    return outcome


def import_molit_apt_trades(path: Path, pool: ConnectionPool | None = None) -> ImportResult:
    """Load one MOLIT apartment-sale export into re_transactions + molit_apt_trades."""
    job = ImportJob("molit", f"molit:{path.name}", DATASET_CODE, "re_transactions")
    return run_import(
        job,
        lambda: parse_molit_csv(read_source_text(path), path.name),
        lambda conn, parsed: load_molit(conn, parsed, path.name),
        pool,
    )
