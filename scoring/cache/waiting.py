"""Waiting for another request's work (a page being rendered, standings being computed)."""

import time

FIRST_PAUSE = 0.01
LONGEST_PAUSE = 0.1


def wait_for(fetch, seconds):
    """Call `fetch` until it returns something other than None, for at most `seconds`; None
    if it never did. The pause between calls grows from 10 to 100 ms: fifty requests waiting
    for one page, each asking the cache every 10 ms, were 10,000 cache reads a second that
    took the CPU from the request they were waiting for."""
    deadline = time.monotonic() + seconds
    pause = FIRST_PAUSE
    while True:
        found = fetch()
        if found is not None or time.monotonic() >= deadline:
            return found
        time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
        pause = min(pause * 1.5, LONGEST_PAUSE)
