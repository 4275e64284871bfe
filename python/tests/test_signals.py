"""Ctrl-C: a Python process sent SIGINT while crossat counts stops with
KeyboardInterrupt promptly (the issue's target is 100 ms; this test allows more for a
loaded machine and prints what it measured)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from conftest import SLOW

CHILD = """
import sys, time, crossat
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


@pytest.mark.parametrize("call", ["count", "solutions"])
def test_sigint_stops_a_running_call(call: str) -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(SLOW), call], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        sent = time.time()
        child.send_signal(signal.SIGINT)
        line = child.stdout.readline().split()
        assert child.wait(timeout=30) == 0
    finally:
        if child.poll() is None:
            child.kill()
    assert line[0] == "interrupted", line
    delay = float(line[1]) - sent
    print(f"{call}: KeyboardInterrupt {delay * 1e3:.0f} ms after SIGINT")
    assert delay < 1.0
