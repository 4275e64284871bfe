#!/usr/bin/env python3
"""The oracle for crossat's sre differential test (tests/sre.rs).

Reads JSON lines {"p": pattern, "s": [string, ...]} on stdin and writes one JSON line
per input line:
  {"e": "message"}                 re.compile(pattern) raised re.error (or another error)
  {"r": [result, ...]}             one result per string:
      null                         re.fullmatch(pattern, s) is None
      [lastindex, [[a, b], ...]]   m.lastindex and m.span(g) for g = 1.. ([-1, -1]: unset)
      "error: ..."                 fullmatch raised (e.g. sre's "span of capturing group
                                   is wrong" SystemError)
      "timeout"                    fullmatch took longer than TIMEOUT seconds (sre checks
                                   for signals while it backtracks, so SIGALRM stops it)
It must be CPython 3.11: that is the meaning crossat's clues have.
"""
import json
import re
import signal
import sys
import warnings

TIMEOUT = 0.5


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout()

if sys.version_info[:2] != (3, 11):
    sys.exit("sre_oracle.py needs CPython 3.11, this is %s" % sys.version.split()[0])


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    out = sys.stdout
    for line in sys.stdin:
        req = json.loads(line)
        try:
            # re warns (FutureWarning) about sets such as `[[a]` that a later Python may
            # read as nested: the oracle reports what 3.11 does with them, so the warning
            # is caught here, for this one call, instead of reaching the test's stderr.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                pat = re.compile(req["p"])
        except Exception as e:  # re.error, RecursionError, OverflowError, ...
            out.write(json.dumps({"e": "%s: %s" % (type(e).__name__, e)}) + "\n")
            continue
        res = []
        for s in req["s"]:
            signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
            try:
                m = pat.fullmatch(s)
                signal.setitimer(signal.ITIMER_REAL, 0)
            except Timeout:
                res.append("timeout")
                continue
            except Exception as e:
                signal.setitimer(signal.ITIMER_REAL, 0)
                res.append("error: %s: %s" % (type(e).__name__, e))
                continue
            if m is None:
                res.append(None)
            else:
                res.append([m.lastindex, [list(r) for r in m.regs[1:]]])
        out.write(json.dumps({"r": res}) + "\n")
    out.flush()


main()
