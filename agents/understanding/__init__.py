"""Question understanding shared by the ETF, Macro and Stock planners and the Macro router.

    frame = understand("현대차 비중이 3% 넘는 ETF 전부", lexicon)
    frame.operation.kind, frame.operation.comparator, frame.operation.threshold  # filter, >, 3.0

One typed result (`QuestionFrame`) per question: linked entities with their spans, measures with
units, one operation, the period, the language and references to the previous turn. Each
screen's planner compiles the frame; what it cannot compile it says (`frame.unanswered`).
Nothing here imports a screen package.
"""

from agents.understanding.frame import Entity, Measure, Operation, Period, QuestionFrame
from agents.understanding.parse import understand

__all__ = ["Entity", "Measure", "Operation", "Period", "QuestionFrame", "understand"]
