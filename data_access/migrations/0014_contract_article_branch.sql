-- Branch articles (제N조의M, issue 22): an article's key is (contract_id, article_no, branch_no);
-- 제3조 is (3, 0), 제3조의2 is (3, 2). Existing rows (all read before branches were stored apart)
-- get branch 0 and stay valid; the preamble (0) and exhibits (-N) keep branch 0.
ALTER TABLE contract_articles ADD COLUMN IF NOT EXISTS branch_no integer NOT NULL DEFAULT 0;
ALTER TABLE contract_articles DROP CONSTRAINT IF EXISTS contract_articles_pkey;
ALTER TABLE contract_articles
    ADD CONSTRAINT contract_articles_pkey PRIMARY KEY (contract_id, article_no, branch_no);
ALTER TABLE contract_articles DROP CONSTRAINT IF EXISTS contract_articles_branch_no_check;
ALTER TABLE contract_articles
    ADD CONSTRAINT contract_articles_branch_no_check CHECK (branch_no >= 0 AND branch_no < 1000);
