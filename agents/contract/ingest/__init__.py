"""Contract ingestion: file bytes → text (readers) → articles (parse)."""
