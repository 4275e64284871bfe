"""Ctrl-C: a Python process sent SIGINT while crossat counts stops with
KeyboardInterrupt promptly (the issue's target is 100 ms; this test allows more for a
loaded machine and prints what it measured)."""

from __future__ import annotations

import selectors
import signal
import subprocess
import sys
import time
from typing import List

import pytest

from conftest import SLOW

# The child installs Python's own SIGINT handler: a process started in the background
# by a non-interactive shell (nohup, `cmd &` in a script) inherits SIGINT ignored, and
# Python then leaves it ignored.
CHILD = """
import signal, sys, time, crossat
signal.signal(signal.SIGINT, signal.default_int_handler)
p = crossat.Puzzle.from_file(sys.argv[1])
call = sys.argv[2]
print("ready", flush=True)
try:
    if call == "count":
        p.count()
    elif call == "solutions":
        for _ in p.solutions():
            pass
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", time.time(), flush=True)
"""


def _read_line(child: "subprocess.Popen[str]", timeout: float) -> List[str]:
    """The child's next line, split; fails (rather than hangs) after ``timeout`` s."""
    assert child.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(child.stdout, selectors.EVENT_READ)
        if not sel.select(timeout):
            raise AssertionError(f"the child printed nothing within {timeout} s of SIGINT")
    return child.stdout.readline().split()


@pytest.mark.parametrize("call", ["count", "solutions"])
def test_sigint_stops_a_running_call(call: str) -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(SLOW), call], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        sent = time.time()
        child.send_signal(signal.SIGINT)
        line = _read_line(child, timeout=60)
        assert child.wait(timeout=30) == 0
    finally:
        if child.poll() is None:
            child.kill()
    assert line[0] == "interrupted", line
    delay = float(line[1]) - sent
    print(f"{call}: KeyboardInterrupt {delay * 1e3:.0f} ms after SIGINT")
    assert delay < 1.0
