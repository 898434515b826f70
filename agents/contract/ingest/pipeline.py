"""Ingestion: a file (or a bundled sample) → parsed articles → tokens and vectors → PostgreSQL.

Re-ingesting the same text is a no-op (same content hash); anything that fails is refused
before the single write transaction, so nothing already stored is lost. An upload is read and
parsed in a bounded worker process (worker.py: time and memory budget); the bundled samples,
which are ours, are read in process.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path, PurePath

from psycopg_pool import ConnectionPool

from agents.contract import store
from agents.contract.embeddings import make_embedder
from agents.contract.index import article_tokens, embedding_signature, fit_vectors, line_tokens
from agents.contract.ingest.parse import parse_contract_text
from agents.contract.ingest.readers import read_contract_file
from agents.contract.ingest.worker import parse_upload
from agents.contract.models import ContractInfo, ParsedContract
from agents.contract.types import Detection, detect
from agents.inputs import clean_text
from data_access.access import LOCAL_USER_ID, SHARED_USER_ID, current_viewer
from data_access.config import Settings, get_settings

logger = logging.getLogger(__name__)

PARSER_VERSION = "5"  # 2: 제N조의M its own article; 3: annexed parts, <신설> headings, PDF lines;
# 4: headings without brackets; 5: numbered paragraphs without 제N조
SAMPLES_DIR = Path(__file__).resolve().parent.parent / "samples"


@dataclass(frozen=True)
class Sample:
    contract_id: str
    file: str
    title: str
    contract_type: str
    is_standard: bool

    @property
    def path(self) -> Path:
        return SAMPLES_DIR / self.file


def samples() -> list[Sample]:
    raw = json.loads((SAMPLES_DIR / "catalog.json").read_text(encoding="utf-8"))
    return [Sample(**s) for s in raw]


MAX_FILE_NAME_CHARS = 200


def upload_name(name: str) -> str:
    """The upload's name as stored: cleaned (no NUL for PostgreSQL), long stems cut, the
    extension (which picks the reader) kept."""
    path = PurePath(clean_text(name).replace("\n", " ") or "계약서")
    return path.stem[:MAX_FILE_NAME_CHARS] + path.suffix[:16]


def content_hash(text: str) -> str:
    return hashlib.sha256(f"{PARSER_VERSION}\n{text}".encode()).hexdigest()


def upload_id(digest: str, owner: str) -> str:
    """An uploaded contract's id: by content for the local user (as before sign-in), by owner and
    content for a signed-in user."""
    if owner == LOCAL_USER_ID:
        return f"u-{digest[:12]}"
    scoped = hashlib.sha256(f"{owner}\n{digest}".encode()).hexdigest()
    return f"u-{scoped[:12]}"


def detect_type(parsed: ParsedContract, title: str | None = None) -> Detection:
    """The contract's type from its title, article titles and each article's first line."""
    lines = [a.title for a in parsed.articles] + [
        a.content[0] for a in parsed.articles if a.content
    ]
    return detect(title or parsed.title, lines)


def ingest_bytes(
    name: str,
    data: bytes,
    *,
    contract_id: str | None = None,
    title: str | None = None,
    contract_type: str | None = None,
    is_standard: bool = False,
    pool: ConnectionPool | None = None,
    settings: Settings | None = None,
    owner: str | None = None,
    trusted: bool = False,
    analyse: bool = True,
) -> ContractInfo:
    """Store a contract file; raises ContractFileError (Korean message) for unusable files, and
    for files that take too long or too much memory to read (`trusted`: read in process — only
    for the bundled samples). Without a `contract_type` the type is detected (types.py).

    `owner` (default: the current viewer) owns an upload; the same file uploaded by two signed-in
    users is two contracts, so neither sees the other's. `analyse=False` stores it without its
    morphemes (no Kiwi in this process: the CLI); the first index built on it analyses them.
    """
    settings = settings or get_settings()
    owner = owner or current_viewer().user_id
    if analyse:
        warm_in_background()
    if trusted:
        text, fmt = read_contract_file(name, data)
        parsed = parse_contract_text(text, fallback_title=PurePath(name).stem)
    else:
        upload = parse_upload(name, data)
        text, fmt, parsed = upload.text, upload.fmt, upload.parsed
    digest = content_hash(text)
    contract_id = contract_id or upload_id(digest, owner)
    existing = store.get_contract(contract_id, pool)
    if existing is not None and existing.content_hash == digest:
        return existing
    contract_type = contract_type or detect_type(parsed, title).id
    info = ContractInfo(
        contract_id=contract_id, title=title or parsed.title, contract_type=contract_type,
        is_standard=is_standard, source_name=PurePath(name).name, source_format=fmt,
        content_hash=digest, article_count=sum(1 for a in parsed.articles if a.article_no != 0),
    )  # fmt: skip
    embedder = make_embedder(settings)
    vectors = fit_vectors(embedder, parsed.articles)
    lines = [line_tokens(a) for a in parsed.articles] if analyse else None
    token_lists = ([article_tokens(a, line) for a, line in zip(parsed.articles, lines, strict=True)]
                   if lines is not None else [[] for _ in parsed.articles])  # fmt: skip
    store.save_contract(info, parsed, token_lists, vectors,
                        embedding_signature(embedder, digest, vectors.shape[1]), pool, owner,
                        lines)  # fmt: skip
    logger.info("ingested contract %s (%d articles)", contract_id, info.article_count)
    return info


def _load_kiwi() -> None:
    from agents.understanding.morphemes import kiwi

    kiwi()


_warmed = threading.Event()


def warm_in_background() -> None:
    """Kiwi's model (3-5 s on a busy machine) loads in a background thread while the upload
    worker reads the file, instead of after it; once per process (the app preloads it at start)."""
    if not _warmed.is_set():
        _warmed.set()
        threading.Thread(target=_load_kiwi, name="contract-kiwi", daemon=True).start()


def ensure_samples(pool: ConnectionPool | None = None,
                   settings: Settings | None = None) -> list[ContractInfo]:  # fmt: skip
    """The bundled standard and sample contracts, ingested once (cheap when unchanged)."""
    return [
        ingest_bytes(
            s.file,
            s.path.read_bytes(),
            contract_id=s.contract_id,
            title=s.title,
            contract_type=s.contract_type,
            is_standard=s.is_standard,
            pool=pool,
            settings=settings,
            owner=SHARED_USER_ID,
            trusted=True,
        )  # fmt: skip
        for s in samples()
    ]
