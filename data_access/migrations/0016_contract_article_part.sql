-- Annexed parts (issue 32): a published contract may carry annexed agreements that restart at
-- 제1조 (비밀유지계약서, 변경 합의서 …). An article's key is (contract_id, part_no, article_no,
-- branch_no); the main body is part 0, so existing rows stay valid. part_title names the annex.
ALTER TABLE contract_articles ADD COLUMN IF NOT EXISTS part_no integer NOT NULL DEFAULT 0;
ALTER TABLE contract_articles ADD COLUMN IF NOT EXISTS part_title text NOT NULL DEFAULT '';
ALTER TABLE contract_articles DROP CONSTRAINT IF EXISTS contract_articles_pkey;
ALTER TABLE contract_articles
    ADD CONSTRAINT contract_articles_pkey PRIMARY KEY (contract_id, part_no, article_no, branch_no);
ALTER TABLE contract_articles DROP CONSTRAINT IF EXISTS contract_articles_part_no_check;
ALTER TABLE contract_articles
    ADD CONSTRAINT contract_articles_part_no_check CHECK (part_no >= 0 AND part_no < 1000);
