"""Cypher text shared by both backends: index specs, schema introspection, projection upserts.

Only the openCypher both FalkorDB and Neo4j accept lives here (no `=~`, `EXISTS {}`, `COUNT {}`,
`elementId()`, `datetime()`); what differs (index DDL, vector/full-text procedures) lives in
`falkordb_store.py` / `neo4j_store.py`. Dates are ISO 'YYYY-MM-DD' strings, timestamps ISO 8601
strings in UTC, months 'YYYY-MM'; they sort and compare the same on both backends.

Graph model (seed 000 + seed 004 §9.2):

    (ETF)-[:HOLDS {date, weight, shares}]->(Stock)         one per (etf, stock, snapshot date)
    (ETF)-[:HAS_CHANGE {date, prev_date, change_type, old_weight, new_weight}]->(Stock)
    (ETF)-[:MANAGED_BY]->(Company)   (ETF)-[:TAGGED]->(Tag)
    (Stock)-[:BELONGS_TO]->(Sector)  (Stock)-[:PART_OF]->(Market)  (Stock)-[:ISSUED_BY]->(Company)
    (Company)-[:HAS_DAILY_BAR]->(EquityDailyBar)
    (Company)-[:IN_UNIVERSE {snapshot_date, rank}]->(EquityUniverseSnapshot)
    (Company)-[:HAS_EARNINGS_EVENT]->(EarningsEvent)
    (EconomicIndicator)-[:HAS_OBSERVATION]->(IndicatorObservation)
    (Evidence)-[:FROM_DOCUMENT]->(Document)  (Evidence)-[:SUPPORTS]->(Event)
    (Event)-[:AFFECTS]->(EconomicIndicator|Company)
    (Document)-[:MENTIONS]->(EconomicIndicator|Company)
    (Document)-[:ABOUT_THEME]->(Tag)
    (Document)-[:STATES]->(Fact)  (Document)-[:CLAIMS]->(Claim)  (Fact|Claim)-[:ABOUT]->(EconomicIndicator|Company)
    (Event)-[:CAUSES {evidence_id}]->(Fact)   an event and the measured move its evidence ties to it
    (EntityAlias)-[:ALIAS_OF]->(Entity)-[:REFERS_TO]->(Company|ETF)
    (EarningsEvent)-[:REPORTED_AS]->(Event)  (EarningsEvent)-[:SUPPORTED_BY]->(Evidence)

Composite keys (seed 004 §9.3-1) are NODE_KEYS: IndicatorObservation(indicator_code, obs_date)
and EquityDailyBar(security_id, trade_date), also written as one key property (obs_key, bar_key)
that both backends hold unique (see NodeKeySpec).

The `Company` label is shared by two kinds of node, told apart by `kind`:
- asset managers (seed 000, 운용사): `{kind: 'asset_manager', name}`, keyed on (name, kind), the
  target of MANAGED_BY; they have no security_id.
- listed issuers (seed 004): `{kind: 'issuer', security_id, country_code, native_code, symbol,
  name}`, keyed on security_id, linked from their Stock by ISSUED_BY.
Seed-000 queries (`MATCH (e:ETF)-[:MANAGED_BY]->(c:Company)`) and seed-004 queries
(`MATCH (c:Company {security_id: 'KR:005930'})`) both keep working; a manager and an issuer with
the same name stay two nodes because every MERGE includes its key.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class IndexSpec:
    """A lookup index; `unique` marks a node key (Neo4j: uniqueness constraint).

    `range_compared` marks ISO-date properties that queries filter with `<`/`>=`. FalkorDB
    4.16 answers an upper-bound-only range predicate on an indexed string property wrongly
    (`WHERE n.d < '2026-11-18'` returns every node), so its store skips those indexes.
    """

    label: str
    prop: str
    unique: bool = False
    range_compared: bool = False


INDEXES: tuple[IndexSpec, ...] = (
    # seed 000
    IndexSpec("ETF", "code", unique=True),
    IndexSpec("ETF", "name"),
    IndexSpec("Stock", "security_id", unique=True),
    IndexSpec("Stock", "code"),
    IndexSpec("Stock", "name"),
    IndexSpec("Company", "name"),
    IndexSpec("Sector", "name", unique=True),
    IndexSpec("Market", "name", unique=True),
    IndexSpec("Tag", "name", unique=True),
    # seed 004 §9.3
    IndexSpec("Company", "security_id", unique=True),
    IndexSpec("Company", "symbol"),
    IndexSpec("EconomicIndicator", "indicator_code", unique=True),
    IndexSpec("IndicatorObservation", "indicator_code"),
    IndexSpec("IndicatorObservation", "obs_date", range_compared=True),
    IndexSpec("Document", "doc_id", unique=True),
    IndexSpec("Event", "event_id", unique=True),
    IndexSpec("Evidence", "evidence_id", unique=True),
    IndexSpec("RealEstateMonthlySummary", "summary_key", unique=True),
    IndexSpec("RealEstateMonthlySummary", "region"),
    IndexSpec("EquityDailyBar", "security_id"),
    IndexSpec("EquityDailyBar", "trade_date", range_compared=True),
    IndexSpec("EarningsEvent", "event_key", unique=True),
    IndexSpec("EarningsEvent", "event_date", range_compared=True),
    IndexSpec("EquityUniverseSnapshot", "snapshot_key", unique=True),
    IndexSpec("EquityUniverseSnapshot", "snapshot_date", range_compared=True),
    # seed 004 §9.2-2 document graph (issue 35)
    IndexSpec("Fact", "fact_id", unique=True),
    IndexSpec("Claim", "claim_id", unique=True),
    IndexSpec("Entity", "entity_key", unique=True),
    IndexSpec("EntityAlias", "alias_key", unique=True),
    IndexSpec("EntityAlias", "alias"),
)


@dataclass(frozen=True)
class NodeKeySpec:
    """A composite node key: at most one node per combination of `props`.

    Both backends also keep `key_prop` (the props joined with '|', set by the upserts) unique:
    FalkorDB's unique constraint needs an exact-match index on its properties, and an index on a
    range-compared ISO date answers `n.d < x` wrongly (see IndexSpec), so there the constraint is
    on the one joined property; Neo4j holds the composite constraint on `props` as well.
    """

    label: str
    props: tuple[str, ...]
    key_prop: str


NODE_KEYS: tuple[NodeKeySpec, ...] = (
    NodeKeySpec("IndicatorObservation", ("indicator_code", "obs_date"), "obs_key"),
    NodeKeySpec("EquityDailyBar", ("security_id", "trade_date"), "bar_key"),
)


def quote_name(name: str) -> str:
    """A label/type/property name as a backtick-quoted Cypher identifier."""
    return "`" + name.replace("`", "``") + "`"


# ---------------------------------------------------------------- schema introspection

LIST_LABELS = "CALL db.labels() YIELD label RETURN label"
LIST_REL_TYPES = "CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType"
_SAMPLE = 500  # property keys are read from a sample; our nodes of one label share their keys


def count_label(label: str) -> str:
    return f"MATCH (n:{quote_name(label)}) RETURN count(n) AS n"


def label_property_keys(label: str) -> str:
    return (
        f"MATCH (n:{quote_name(label)}) WITH n LIMIT {_SAMPLE} "
        "UNWIND keys(n) AS key RETURN DISTINCT key"
    )


def rel_property_keys(rel_type: str) -> str:
    return (
        f"MATCH ()-[r:{quote_name(rel_type)}]->() WITH r LIMIT {_SAMPLE} "
        "UNWIND keys(r) AS key RETURN DISTINCT key"
    )


def rel_patterns(rel_type: str) -> str:
    return (
        f"MATCH (a)-[r:{quote_name(rel_type)}]->(b) "
        "RETURN labels(a)[0] AS from_label, labels(b)[0] AS to_label, count(r) AS n"
    )


# ---------------------------------------------------------------- projection: seed 000

UPSERT_TAGS = """
UNWIND $rows AS row
MERGE (t:Tag {name: row.name})
SET t.description = row.description
RETURN count(*) AS written"""

UPSERT_MANAGERS = """
UNWIND $rows AS row
MERGE (c:Company {name: row.name, kind: 'asset_manager'})
SET c.name_en = row.name_en
RETURN count(*) AS written"""

# A stock's sector/market can change at the source: drop links that no longer hold first.
PRUNE_STOCK_LINKS = """
UNWIND $rows AS row
MATCH (s:Stock {security_id: row.security_id})-[r:BELONGS_TO|PART_OF]->(o)
WHERE (type(r) = 'BELONGS_TO' AND o.name <> row.sector)
   OR (type(r) = 'PART_OF' AND o.name <> row.market)
DELETE r
RETURN count(*) AS deleted"""

UPSERT_STOCKS = """
UNWIND $rows AS row
MERGE (s:Stock {security_id: row.security_id})
SET s.code = row.code, s.name = row.name, s.name_en = row.name_en, s.is_etf = row.is_etf,
    s.market = row.market, s.sector = row.sector, s.country = row.country,
    s.currency = row.currency
MERGE (sec:Sector {name: row.sector})
MERGE (m:Market {name: row.market})
MERGE (s)-[:BELONGS_TO]->(sec)
MERGE (s)-[:PART_OF]->(m)
RETURN count(*) AS written"""

PRUNE_ETF_MANAGER = """
UNWIND $rows AS row
MATCH (e:ETF {code: row.code})-[r:MANAGED_BY]->(c:Company)
WHERE c.name <> row.manager
DELETE r
RETURN count(*) AS deleted"""

UPSERT_ETFS = """
UNWIND $rows AS row
MERGE (e:ETF {code: row.code})
SET e.name = row.name, e.expense_ratio = row.expense_ratio, e.updated_at = row.updated_at,
    e.benchmark = row.benchmark, e.listed_date = row.listed_date,
    e.asset_class = row.asset_class, e.region = row.region
WITH e, row
MATCH (c:Company {name: row.manager, kind: 'asset_manager'})
MERGE (e)-[:MANAGED_BY]->(c)
RETURN count(*) AS written"""

# Rows are one per ETF with the full tag list, so tags removed at the source are unlinked.
PRUNE_ETF_TAGS = """
UNWIND $rows AS row
MATCH (e:ETF {code: row.etf_code})-[r:TAGGED]->(t:Tag)
WHERE NOT t.name IN row.tags
DELETE r
RETURN count(*) AS deleted"""

UPSERT_ETF_TAGS = """
UNWIND $rows AS row
MATCH (e:ETF {code: row.etf_code})
UNWIND row.tags AS tag
MATCH (t:Tag {name: tag})
MERGE (e)-[:TAGGED]->(t)
RETURN count(*) AS written"""

# Rows: one per (etf, stock) pair with all its snapshots, so both nodes are looked up once.
UPSERT_HOLDS = """
UNWIND $rows AS row
MATCH (e:ETF {code: row.etf_code})
MATCH (s:Stock {security_id: row.security_id})
UNWIND row.snaps AS snap
MERGE (e)-[h:HOLDS {date: snap.date}]->(s)
SET h.weight = snap.weight, h.shares = snap.shares
RETURN count(*) AS written"""

# Snapshot dates older than the projected window leave the graph (raw history stays in SQL).
PRUNE_HOLDS_BEFORE = """
MATCH (:ETF)-[h:HOLDS]->(:Stock)
WHERE h.date < $cutoff
DELETE h
RETURN count(*) AS deleted"""

UPSERT_HOLDING_CHANGES = """
UNWIND $rows AS row
MATCH (e:ETF {code: row.etf_code})
MATCH (s:Stock {security_id: row.security_id})
UNWIND row.changes AS change
MERGE (e)-[c:HAS_CHANGE {date: change.date}]->(s)
SET c.change_type = change.change_type, c.prev_date = change.prev_date,
    c.old_weight = change.old_weight, c.new_weight = change.new_weight
RETURN count(*) AS written"""

PRUNE_CHANGES_BEFORE = """
MATCH (:ETF)-[c:HAS_CHANGE]->(:Stock)
WHERE c.date < $cutoff
DELETE c
RETURN count(*) AS deleted"""

# ---------------------------------------------------------------- projection: seed 004 equity

UPSERT_ISSUERS = """
UNWIND $rows AS row
MERGE (c:Company {security_id: row.security_id})
SET c.kind = 'issuer', c.country_code = row.country_code, c.native_code = row.native_code,
    c.symbol = row.symbol, c.name = row.name, c.name_en = row.name_en
WITH c, row
MATCH (s:Stock {security_id: row.security_id})
MERGE (s)-[:ISSUED_BY]->(c)
RETURN count(*) AS written"""

UPSERT_DAILY_BARS = """
UNWIND $rows AS row
MATCH (c:Company {security_id: row.security_id})
MERGE (b:EquityDailyBar {security_id: row.security_id, trade_date: row.trade_date})
SET b.bar_key = row.security_id + '|' + row.trade_date, b.open = row.open, b.high = row.high, b.low = row.low, b.close = row.close,
    b.volume = row.volume, b.change_rate = row.change_rate
MERGE (c)-[:HAS_DAILY_BAR]->(b)
RETURN count(*) AS written"""

# Rows: one per company with the oldest trade_date kept in its window.
PRUNE_DAILY_BARS = """
UNWIND $rows AS row
MATCH (b:EquityDailyBar {security_id: row.security_id})
WHERE b.trade_date < row.cutoff
DETACH DELETE b
RETURN count(*) AS deleted"""

UPSERT_UNIVERSE = """
UNWIND $rows AS row
MATCH (c:Company {security_id: row.security_id})
MERGE (u:EquityUniverseSnapshot {snapshot_key: row.snapshot_key})
SET u.country_code = row.country_code, u.market = row.market, u.snapshot_date = row.snapshot_date
MERGE (c)-[r:IN_UNIVERSE {snapshot_date: row.snapshot_date}]->(u)
SET r.rank = row.rank, r.market_cap = row.market_cap
RETURN count(*) AS written"""

UPSERT_EARNINGS = """
UNWIND $rows AS row
MERGE (ev:EarningsEvent {event_key: row.event_key})
SET ev.security_id = row.security_id, ev.period = row.period, ev.event_date = row.event_date,
    ev.status = row.status, ev.eps_estimate = row.eps_estimate, ev.eps_actual = row.eps_actual,
    ev.revenue_estimate = row.revenue_estimate, ev.revenue_actual = row.revenue_actual,
    ev.source = row.source
WITH ev, row
MATCH (c:Company {security_id: row.security_id})
MERGE (c)-[:HAS_EARNINGS_EVENT]->(ev)
RETURN count(*) AS written"""

# ---------------------------------------------------------------- projection: seed 004 macro

UPSERT_INDICATORS = """
UNWIND $rows AS row
MERGE (i:EconomicIndicator {indicator_code: row.indicator_code})
SET i.name = row.name, i.name_ko = row.name_ko, i.country = row.country, i.unit = row.unit,
    i.frequency = row.frequency, i.source = row.source
RETURN count(*) AS written"""

UPSERT_OBSERVATIONS = """
UNWIND $rows AS row
MATCH (i:EconomicIndicator {indicator_code: row.indicator_code})
MERGE (o:IndicatorObservation {indicator_code: row.indicator_code, obs_date: row.obs_date})
SET o.obs_key = row.indicator_code + '|' + row.obs_date, o.value = row.value, o.effective_date = row.effective_date,
    o.published_at = row.published_at, o.as_of_date = row.as_of_date,
    o.revision_flag = row.revision_flag
MERGE (i)-[:HAS_OBSERVATION]->(o)
RETURN count(*) AS written"""

UPSERT_RE_SUMMARY = """
UNWIND $rows AS row
MERGE (r:RealEstateMonthlySummary {summary_key: row.summary_key})
SET r.region = row.region, r.month = row.month, r.house_price_index = row.house_price_index,
    r.jeonse_ratio = row.jeonse_ratio, r.unsold_units = row.unsold_units,
    r.permits = row.permits, r.transactions = row.transactions,
    r.median_price_krw = row.median_price_krw
RETURN count(*) AS written"""

UPSERT_DOCUMENTS = """
UNWIND $rows AS row
MERGE (d:Document {doc_id: row.doc_id})
SET d.title = row.title, d.url = row.url, d.doc_type = row.doc_type,
    d.published_at = row.published_at, d.lang = row.lang
RETURN count(*) AS written"""

UPSERT_EVENTS = """
UNWIND $rows AS row
MERGE (e:Event {event_id: row.event_id})
SET e.title = row.title, e.event_type = row.event_type, e.event_date = row.event_date,
    e.theme = row.theme
RETURN count(*) AS written"""

# FOREACH/CASE: link only the endpoints that exist (both columns are nullable at the source).
UPSERT_EVIDENCE = """
UNWIND $rows AS row
MERGE (ev:Evidence {evidence_id: row.evidence_id})
SET ev.text = row.text, ev.relation = row.relation, ev.doc_id = row.doc_id,
    ev.event_id = row.event_id, ev.indicator_code = row.indicator_code,
    ev.security_id = row.security_id
WITH ev, row
OPTIONAL MATCH (d:Document {doc_id: row.doc_id})
OPTIONAL MATCH (e:Event {event_id: row.event_id})
FOREACH (_ IN CASE WHEN d IS NULL THEN [] ELSE [1] END | MERGE (ev)-[:FROM_DOCUMENT]->(d))
FOREACH (_ IN CASE WHEN e IS NULL THEN [] ELSE [1] END | MERGE (ev)-[:SUPPORTS]->(e))
RETURN count(*) AS written"""

# Rows: {source_id, target_id}; the four (relation, target) pairs of evidence.relation.
LINK_EVENT_AFFECTS_INDICATOR = """
UNWIND $rows AS row
MATCH (e:Event {event_id: row.source_id})
MATCH (i:EconomicIndicator {indicator_code: row.target_id})
MERGE (e)-[:AFFECTS]->(i)
RETURN count(*) AS written"""

LINK_EVENT_AFFECTS_COMPANY = """
UNWIND $rows AS row
MATCH (e:Event {event_id: row.source_id})
MATCH (c:Company {security_id: row.target_id})
MERGE (e)-[:AFFECTS]->(c)
RETURN count(*) AS written"""

LINK_DOCUMENT_MENTIONS_INDICATOR = """
UNWIND $rows AS row
MATCH (d:Document {doc_id: row.source_id})
MATCH (i:EconomicIndicator {indicator_code: row.target_id})
MERGE (d)-[:MENTIONS]->(i)
RETURN count(*) AS written"""

LINK_DOCUMENT_MENTIONS_COMPANY = """
UNWIND $rows AS row
MATCH (d:Document {doc_id: row.source_id})
MATCH (c:Company {security_id: row.target_id})
MERGE (d)-[:MENTIONS]->(c)
RETURN count(*) AS written"""

LINK_DOCUMENT_THEMES = """
UNWIND $rows AS row
MATCH (d:Document {doc_id: row.doc_id})
MERGE (t:Tag {name: row.theme})
MERGE (d)-[:ABOUT_THEME]->(t)
RETURN count(*) AS written"""

# ---------------------------------------------------------------- document graph (§9.2-2, issue 35)

# Rows: one per evidence sentence; kind 'fact' (it quotes a measured figure) or 'claim'.
UPSERT_FACTS = """
UNWIND $rows AS row
MATCH (d:Document {doc_id: row.doc_id})
MERGE (f:Fact {fact_id: row.statement_id})
SET f.text = row.text, f.doc_id = row.doc_id, f.event_id = row.event_id,
    f.indicator_code = row.indicator_code, f.security_id = row.security_id,
    f.stated_on = row.stated_on
MERGE (d)-[:STATES]->(f)
RETURN count(*) AS written"""

UPSERT_CLAIMS = """
UNWIND $rows AS row
MATCH (d:Document {doc_id: row.doc_id})
MERGE (c:Claim {claim_id: row.statement_id})
SET c.text = row.text, c.doc_id = row.doc_id, c.event_id = row.event_id,
    c.indicator_code = row.indicator_code, c.security_id = row.security_id,
    c.stated_on = row.stated_on
MERGE (d)-[:CLAIMS]->(c)
RETURN count(*) AS written"""

# Rows: {label, statement_id, indicator_code, security_id}; label picks Fact or Claim.
LINK_STATEMENT_ABOUT = """
UNWIND $rows AS row
OPTIONAL MATCH (f:Fact {fact_id: row.statement_id})
OPTIONAL MATCH (c:Claim {claim_id: row.statement_id})
OPTIONAL MATCH (i:EconomicIndicator {indicator_code: row.indicator_code})
OPTIONAL MATCH (co:Company {security_id: row.security_id})
WITH coalesce(f, c) AS s, coalesce(i, co) AS t
WHERE s IS NOT NULL AND t IS NOT NULL
MERGE (s)-[:ABOUT]->(t)
RETURN count(*) AS written"""

# An event and the measured move its AFFECTS evidence ties to it ('결정 전후 환율은 … 움직였다').
LINK_EVENT_CAUSES_FACT = """
UNWIND $rows AS row
MATCH (e:Event {event_id: row.event_id})
MATCH (f:Fact {fact_id: row.statement_id})
MERGE (e)-[r:CAUSES]->(f)
SET r.evidence_id = row.statement_id
RETURN count(*) AS written"""

# Rows: one per entity with its aliases (entity_aliases: kind, target).
UPSERT_ENTITIES = """
UNWIND $rows AS row
MERGE (en:Entity {entity_key: row.entity_key})
SET en.kind = row.kind, en.target = row.target, en.name = row.name
WITH en, row
UNWIND row.aliases AS alias
MERGE (a:EntityAlias {alias_key: row.entity_key + '|' + alias})
SET a.alias = alias, a.alias_lower = toLower(alias)
MERGE (a)-[:ALIAS_OF]->(en)
RETURN count(*) AS written"""

LINK_ENTITY_REFERS = """
UNWIND $rows AS row
MATCH (en:Entity {entity_key: row.entity_key})
OPTIONAL MATCH (c:Company {security_id: row.target})
OPTIONAL MATCH (x:ETF {code: row.target})
WITH en, coalesce(c, x) AS t
WHERE t IS NOT NULL
MERGE (en)-[:REFERS_TO]->(t)
RETURN count(*) AS written"""

# An earnings release and the disclosure/earnings events and evidence about it (§9.2-4, §10-2).
LINK_EARNINGS_EVENTS = """
UNWIND $rows AS row
MATCH (ee:EarningsEvent {event_key: row.event_key})
MATCH (e:Event {event_id: row.event_id})
MERGE (ee)-[:REPORTED_AS]->(e)
WITH ee, row
MATCH (v:Evidence {evidence_id: row.evidence_id})
MERGE (ee)-[:SUPPORTED_BY]->(v)
RETURN count(*) AS written"""
