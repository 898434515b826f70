"""PostgreSQL → graph projection (seed 000 graph schema, seed 004 §9 macro/equity projection).

report = project_all(get_graph_store(), holdings_days=20)
print(report.to_text())

python -m data_access.projection [--holdings-days N]
"""

from data_access.projection.models import ProjectionReport, ProjectionStep
from data_access.projection.runner import ALL_STEPS, project_all
from data_access.projection.runs import latest_projection_runs

__all__ = [
    "ALL_STEPS",
    "ProjectionReport",
    "ProjectionStep",
    "latest_projection_runs",
    "project_all",
]
