-- Evaluation backend (seed 004 §5 Step 4, §6, §7-4, §13.2-16..21): golden-set regression runs,
-- one row per case result, reproducible failure reports, and the weekly summaries.

CREATE TABLE eval_runs (
    run_id        text PRIMARY KEY,          -- 20261122T031500-ab12cd
    kind          text NOT NULL,             -- run | rerun (one case run again)
    suites        jsonb NOT NULL,            -- ["macro", "etf", ...]
    status        text NOT NULL,             -- running | finished | error
    mode          text NOT NULL,             -- offline | llm
    model         text,
    case_count    int NOT NULL DEFAULT 0,
    passed_count  int NOT NULL DEFAULT 0,
    pass_rate     double precision,          -- percent; NULL while running or with no cases
    kpis          jsonb,                     -- KpiReport (§6 table, counts, per-suite stats)
    report_dir    text,                      -- WORKBENCH_HOME/eval/<run_id>
    error         text,
    started_at    timestamptz NOT NULL,
    finished_at   timestamptz
);
CREATE INDEX eval_runs_started ON eval_runs (started_at DESC);

CREATE TABLE eval_case_results (
    run_id                    text NOT NULL REFERENCES eval_runs (run_id) ON DELETE CASCADE,
    case_id                   text NOT NULL,
    suite                     text NOT NULL,
    question                  text NOT NULL,
    passed                    boolean NOT NULL,
    failure_category          text,          -- primary category; all problems in details
    status                    text,          -- the answer's status
    tool_mode                 text,
    expected_tool_mode        text,
    target_agents             jsonb NOT NULL DEFAULT '[]',
    expected_target_agents    jsonb,
    structured_citation_count int NOT NULL DEFAULT 0,
    citation_count            int NOT NULL DEFAULT 0,
    freshness_status          text NOT NULL DEFAULT 'none',
    latency_ms                int NOT NULL DEFAULT 0,
    fallback_calls            int NOT NULL DEFAULT 0,
    cypher_runs               int NOT NULL DEFAULT 0,
    cypher_schema_mismatch    int NOT NULL DEFAULT 0,
    cypher_direction_empty    int NOT NULL DEFAULT 0,
    answer_excerpt            text,
    error                     text,
    details                   jsonb NOT NULL, -- the whole CaseResult
    created_at                timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, case_id)
);
CREATE INDEX eval_case_results_failed ON eval_case_results (created_at DESC) WHERE NOT passed;
CREATE INDEX eval_case_results_case ON eval_case_results (case_id, created_at DESC);

CREATE TABLE eval_failure_reports (
    run_id     text NOT NULL REFERENCES eval_runs (run_id) ON DELETE CASCADE,
    case_id    text NOT NULL,
    suite      text NOT NULL,
    category   text NOT NULL,
    input      jsonb NOT NULL,               -- question, suite inputs, expectations
    route      jsonb NOT NULL DEFAULT '{}',
    queries    jsonb NOT NULL DEFAULT '[]',  -- SQL/Cypher/tool steps with their text
    evidence   jsonb NOT NULL DEFAULT '{}',  -- citations, structured citations, key points
    answer     text,
    report     jsonb NOT NULL,               -- the whole FailureReport
    file_path  text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, case_id)
);

CREATE TABLE eval_weekly_reports (
    report_id                bigserial PRIMARY KEY,
    days                     int NOT NULL,
    window_start             timestamptz NOT NULL,
    window_end               timestamptz NOT NULL,
    run_count                int NOT NULL,
    case_count               int NOT NULL,
    avg_pass_rate            double precision,
    routing_mismatch_count   int NOT NULL,
    avg_structured_citations double precision,
    top_failure_categories   jsonb NOT NULL DEFAULT '[]',
    top_failed_cases         jsonb NOT NULL DEFAULT '[]',
    status                   text NOT NULL,  -- healthy | warning
    details                  jsonb NOT NULL, -- the whole WeeklySummary
    created_at               timestamptz NOT NULL DEFAULT now()
);
