"""How long browser tests wait for an answer to appear.

A wait, not a speed limit: the first answer on a cold machine loads models (kiwipiepy, sklearn)
and builds indexes while other tests share the same two cores. Speed is measured in bench/.
"""

from typing import Any

ANSWER_TIMEOUT_MS = 180_000


def wait_idle(page: Any) -> None:
    """The script run the last action started has finished (Streamlit marks the app root); asked
    twice a moment apart, as a rerun (st.rerun after a turn) starts right after a run ends."""
    for _ in range(2):
        page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(
            timeout=ANSWER_TIMEOUT_MS
        )
        page.wait_for_timeout(300)
