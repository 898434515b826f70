"""Seed 004 §9.2-2 document graph beyond documents/events/evidence (issue 35), where the data
has them, and §9.2-4 / §10-2 earnings links:

- `Fact` (an evidence sentence that quotes a measured figure: '환율은 1,322.4원에서 1,323.7원으로
  움직였다') and `Claim` (one that does not: '은행주는 기준금리 변화에 … 영향을 받는다'), each
  stated in its Document and ABOUT the indicator or company its evidence names;
- `CAUSES`: an Event to the Fact its AFFECTS evidence measures (the move the event caused);
- `Entity` / `EntityAlias`: every name of `entity_aliases` (stocks, ETFs, market series), the
  entity REFERS_TO its Company or ETF node;
- `EarningsEvent` REPORTED_AS the earnings or OpenDART 실적/가이던스 events of that company within
  three days of its date, and SUPPORTED_BY their evidence.

These steps run after the documents and earnings steps (they link what those wrote) and read
small tables whole.
"""

from __future__ import annotations

from data_access.graph import cypher as q
from data_access.projection.steps import StepContext, StepSpec, fetch_rows, upsert

# A figure in the sentence (a digit) makes it a Fact; the rest are Claims.
_STATEMENTS_SQL = """
SELECT v.evidence_id AS statement_id, v.doc_id, v.event_id, v.text, v.indicator_code,
       v.security_id, v.relation, to_char(d.published_at, 'YYYY-MM-DD') AS stated_on,
       CASE WHEN v.text ~ '[0-9]' THEN 'fact' ELSE 'claim' END AS kind
FROM evidence v JOIN documents d USING (doc_id)
ORDER BY v.evidence_id"""

_ENTITIES_SQL = """
SELECT a.kind || ':' || a.target AS entity_key, a.kind, a.target,
       coalesce(s.name, e.name, m.name, a.target) AS name,
       array_agg(DISTINCT a.alias ORDER BY a.alias) AS aliases
FROM entity_aliases a
LEFT JOIN stocks s ON a.kind = 'stock' AND s.security_id = a.target
LEFT JOIN etfs e ON a.kind = 'etf' AND e.code = a.target
LEFT JOIN market_series m ON a.kind = 'market' AND m.series_code = a.target
GROUP BY a.kind, a.target, s.name, e.name, m.name
ORDER BY 1"""

# The earnings/disclosure events of the same company close to the release date.
_EARNINGS_LINKS_SQL = """
SELECT ee.event_key, e.event_id, v.evidence_id, e.event_date
FROM earnings_events ee
JOIN evidence v ON v.security_id = ee.security_id
JOIN events e ON e.event_id = v.event_id
WHERE (e.event_type = 'earnings'
       OR (e.event_type = 'disclosure' AND e.theme IN ('실적', '가이던스')))
  AND e.event_date BETWEEN ee.event_date - 3 AND ee.event_date + 3
ORDER BY ee.event_key, e.event_id, v.evidence_id"""


def project_statements(ctx: StepContext) -> None:
    """Facts and Claims, their ABOUT links, and CAUSES from events to measured moves."""
    rows = fetch_rows(ctx.pool, _STATEMENTS_SQL)
    ctx.progress.rows_fetched += len(rows)
    size = ctx.options.batch_size
    for kind, statement in (("fact", q.UPSERT_FACTS), ("claim", q.UPSERT_CLAIMS)):
        batch = [r for r in rows if r["kind"] == kind]
        ctx.progress.upserted += ctx.store.write_batch(statement, batch, batch_size=size)
    for r in rows:
        ctx.progress.see(r["stated_on"])
    about = [r for r in rows if r["indicator_code"] or r["security_id"]]
    ctx.store.write_batch(q.LINK_STATEMENT_ABOUT, about, batch_size=size)
    causes = [
        r for r in rows if r["kind"] == "fact" and r["relation"] == "AFFECTS" and r["event_id"]
    ]
    ctx.store.write_batch(q.LINK_EVENT_CAUSES_FACT, causes, batch_size=size)


def project_entities(ctx: StepContext) -> None:
    upsert(ctx, _ENTITIES_SQL, q.UPSERT_ENTITIES)
    rows = fetch_rows(ctx.pool, _ENTITIES_SQL)
    ctx.store.write_batch(q.LINK_ENTITY_REFERS, rows, batch_size=ctx.options.batch_size)


def project_earnings_links(ctx: StepContext) -> None:
    upsert(ctx, _EARNINGS_LINKS_SQL, q.LINK_EARNINGS_EVENTS, as_of="event_date")


STEPS: tuple[StepSpec, ...] = (
    StepSpec("documents", "facts_claims", project_statements),
    StepSpec("documents", "entities", project_entities),
    StepSpec("equity", "earnings_links", project_earnings_links),
)
