"""Seed 004 §9.2-1..3 projection: indicators and observations (`macro`), the monthly real-estate
summary (`real_estate`), documents / events / evidence and their links (`documents`)."""

from __future__ import annotations

from data_access.graph import cypher as q
from data_access.projection.steps import (
    SCOPE_SERIES,
    SCOPE_SINCE,
    StepContext,
    StepSpec,
    fetch_rows,
    upsert,
)

# effective_date: the date the value applies to, which for these series is the observation date
# itself (FRED-style obs_date); published_at/as_of_date carry the vintage.
_OBSERVATIONS_SQL = f"""
SELECT series_code AS indicator_code, obs_date, value, obs_date AS effective_date,
       published_at, as_of_date, revision_flag
FROM macro_observations
WHERE {SCOPE_SERIES.format(col="series_code")} AND {SCOPE_SINCE.format(col="obs_date")}
ORDER BY series_code, obs_date"""

# One row per (region, month) present in any re_* table; a missing measure stays null.
_RE_SUMMARY_SQL = """
WITH tx AS (
    SELECT region, date_trunc('month', deal_date)::date AS month, count(*) AS transactions,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY price_krw) AS median_price_krw
    FROM re_transactions GROUP BY 1, 2
), months AS (
    SELECT region, month FROM re_house_price_index
    UNION SELECT region, month FROM re_jeonse_ratio
    UNION SELECT region, month FROM re_unsold_housing
    UNION SELECT region, month FROM re_permits
    UNION SELECT region, month FROM tx
)
SELECT m.region || '|' || to_char(m.month, 'YYYY-MM') AS summary_key, m.region,
       to_char(m.month, 'YYYY-MM') AS month, m.month AS month_start,
       h.index_value AS house_price_index, j.ratio AS jeonse_ratio, u.units AS unsold_units,
       p.units AS permits, tx.transactions, round(tx.median_price_krw)::bigint AS median_price_krw
FROM months m
LEFT JOIN re_house_price_index h ON h.region = m.region AND h.month = m.month
LEFT JOIN re_jeonse_ratio j ON j.region = m.region AND j.month = m.month
LEFT JOIN re_unsold_housing u ON u.region = m.region AND u.month = m.month
LEFT JOIN re_permits p ON p.region = m.region AND p.month = m.month
LEFT JOIN tx ON tx.region = m.region AND tx.month = m.month
ORDER BY m.region, m.month"""

# A SUPPORTS row that names an indicator or company says what its event is about (a rate
# decision -> FEDFUNDS, an earnings release -> the company): drawn as Event-AFFECTS->target,
# the path the agents traverse, so those events are not invisible to Evidence->Event->target.
_EVIDENCE_TARGETS_SQL = """
SELECT CASE relation WHEN 'SUPPORTS' THEN 'AFFECTS' ELSE relation END AS relation,
       event_id, doc_id, indicator_code, security_id
FROM evidence WHERE relation IN ('AFFECTS', 'MENTIONS', 'SUPPORTS') ORDER BY evidence_id"""

# (relation, source column, target column) -> link statement.
_TARGET_LINKS = (
    ("AFFECTS", "event_id", "indicator_code", q.LINK_EVENT_AFFECTS_INDICATOR),
    ("AFFECTS", "event_id", "security_id", q.LINK_EVENT_AFFECTS_COMPANY),
    ("MENTIONS", "doc_id", "indicator_code", q.LINK_DOCUMENT_MENTIONS_INDICATOR),
    ("MENTIONS", "doc_id", "security_id", q.LINK_DOCUMENT_MENTIONS_COMPANY),
)


def project_indicators(ctx: StepContext) -> None:
    sql = f"""SELECT series_code AS indicator_code, name, name_ko, country, unit, frequency,
                     source
              FROM macro_series WHERE {SCOPE_SERIES.format(col="series_code")}
              ORDER BY series_code"""
    upsert(ctx, sql, q.UPSERT_INDICATORS, params=ctx.options.params())


def project_observations(ctx: StepContext) -> None:
    upsert(
        ctx, _OBSERVATIONS_SQL, q.UPSERT_OBSERVATIONS, params=ctx.options.params(), as_of="obs_date"
    )


def project_re_summary(ctx: StepContext) -> None:
    upsert(ctx, _RE_SUMMARY_SQL, q.UPSERT_RE_SUMMARY, as_of="month_start")


def project_documents(ctx: StepContext) -> None:
    sql = """SELECT doc_id, title, url, doc_type, published_at, lang
             FROM documents ORDER BY doc_id"""
    upsert(ctx, sql, q.UPSERT_DOCUMENTS, as_of="published_at")


def project_events(ctx: StepContext) -> None:
    sql = """SELECT event_id, title, event_type, event_date, theme
             FROM events ORDER BY event_id"""
    upsert(ctx, sql, q.UPSERT_EVENTS, as_of="event_date")


def project_evidence(ctx: StepContext) -> None:
    sql = """SELECT evidence_id, doc_id, event_id, text, indicator_code, security_id, relation
             FROM evidence ORDER BY evidence_id"""
    upsert(ctx, sql, q.UPSERT_EVIDENCE)


def project_evidence_targets(ctx: StepContext) -> None:
    """AFFECTS (Event → indicator/company) and MENTIONS (Document → indicator/company)."""
    rows = fetch_rows(ctx.pool, _EVIDENCE_TARGETS_SQL)
    for relation, source, target, statement in _TARGET_LINKS:
        links = [
            {"source_id": r[source], "target_id": r[target]}
            for r in rows
            if r["relation"] == relation and r[source] and r[target]
        ]
        ctx.progress.rows_fetched += len(links)
        ctx.progress.upserted += ctx.store.write_batch(
            statement, links, batch_size=ctx.options.batch_size
        )


def project_document_themes(ctx: StepContext) -> None:
    """Document → Tag(theme) through the events its evidence supports."""
    sql = """SELECT DISTINCT ev.doc_id, e.theme
             FROM evidence ev JOIN events e ON e.event_id = ev.event_id
             WHERE ev.doc_id IS NOT NULL ORDER BY 1, 2"""
    upsert(ctx, sql, q.LINK_DOCUMENT_THEMES)


STEPS: tuple[StepSpec, ...] = (
    StepSpec("macro", "indicators", project_indicators),
    StepSpec("macro", "indicator_observations", project_observations),
    StepSpec("real_estate", "re_monthly_summary", project_re_summary),
    StepSpec("documents", "documents", project_documents),
    StepSpec("documents", "events", project_events),
    StepSpec("documents", "evidence", project_evidence),
    StepSpec("documents", "evidence_targets", project_evidence_targets),
    StepSpec("documents", "document_themes", project_document_themes),
)
