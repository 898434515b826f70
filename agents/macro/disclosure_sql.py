"""SQL of OpenDART filings for the Equity agent (issue 35): registered as a template in
`agents.macro.templates`, answered by `agents.macro.disclosures`."""

from __future__ import annotations

# One company's filings in a window, newest first, with the document/evidence the importer wrote
# ('doc-dart-{rcept_no}'); theme '*' for every filing, '가이던스' for guidance only.
COMPANY_DISCLOSURES = (
    "SELECT d.rcept_no, d.rcept_dt, d.report_nm, d.flr_nm, d.corp_name, d.url, d.security_id, "
    "doc.doc_id, v.evidence_id, v.text, e.theme FROM dart_disclosures d "
    "LEFT JOIN documents doc ON doc.doc_id = 'doc-dart-' || d.rcept_no "
    "LEFT JOIN evidence v ON v.doc_id = doc.doc_id "
    "LEFT JOIN events e ON e.event_id = v.event_id "
    "WHERE d.security_id = %(security_id)s AND d.rcept_dt >= %(start)s "
    "AND d.rcept_dt <= %(as_of)s AND (%(theme)s = '*' OR e.theme = %(theme)s) "
    "ORDER BY d.rcept_dt DESC, d.rcept_no DESC LIMIT %(n)s"
)
