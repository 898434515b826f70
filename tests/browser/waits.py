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


def only_one(locator: Any) -> Any:
    """`locator` once exactly one element matches: during a rerun Streamlit keeps the previous
    run's widget on the page beside the new one for a moment (CI: 'get_by_label("질문") resolved
    to 2 elements'), so a test waits for the stale one to go before typing."""
    from playwright.sync_api import expect

    expect(locator).to_have_count(1, timeout=ANSWER_TIMEOUT_MS)
    return locator
