"""ETF chat (seed 000): ten smolagents tools over the graph and PostgreSQL, a CodeAgent driven by
litellm or by the offline planner, and one `stream_answer` the screen and the CLI share."""
