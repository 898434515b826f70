"""How long browser tests wait for an answer to appear.

A wait, not a speed limit: the first answer on a cold machine loads models (kiwipiepy, sklearn)
and builds indexes while other tests share the same two cores. Speed is measured in bench/.
"""

ANSWER_TIMEOUT_MS = 180_000
