"""Contract clauses screen (seed 002): ingestion, per-contract hybrid index, four clause tools,
a plan → parallel execution → synthesis agent."""
