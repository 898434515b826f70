-- Numbered paragraphs (issue 32): a short agreement without 제N조 (the FTC 직접지급합의서) is read
-- by its top-level paragraphs '1.' … ('①' …, '가.' …), each stored as an article whose
-- article_no is the paragraph's number. `numbering` says how the document numbers them, so every
-- output cites '제3항' (not '제3조', which the document does not have); existing rows are 제N조.
ALTER TABLE contract_articles ADD COLUMN IF NOT EXISTS numbering text NOT NULL DEFAULT 'article';
ALTER TABLE contract_articles DROP CONSTRAINT IF EXISTS contract_articles_numbering_check;
ALTER TABLE contract_articles ADD CONSTRAINT contract_articles_numbering_check
    CHECK (numbering IN ('article', 'number', 'circled', 'letter'));
