#!/usr/bin/env python3
"""The oracle of the counting tests: Ganak's exact count of a puzzle's grids.

Reads JSON lines `{"cnf": DIMACS, "timeout": SECONDS}` on stdin, where DIMACS is the
text `crossat dimacs` writes, and writes per line `{"count": "N"}`: the number of
models of the CNF projected onto its `c cell` variables (the variables that say which
letter each cell holds; the automata's state variables are existentially quantified),
counted by Ganak (`pip install pyganak`); or `{"count": null}` when Ganak does not
finish within SECONDS of CPU time (each count runs in a child process whose CPU limit
is SECONDS, rounded up), so the machine's load does not decide what is compared.

Fails (exit 1, with the reason) when pyganak is missing: the tests that call this
script need it and never skip.
"""
import json
import math
import multiprocessing
import resource
import signal
import sys

try:
    import pyganak
except ImportError:
    sys.exit("error: the Ganak comparison needs pyganak (pip install pyganak; .ci/run installs it)")


def parse(text):
    """The clauses of a DIMACS text and its `c cell` variables."""
    clauses, cells, current = [], [], []
    for line in text.splitlines():
        if line.startswith("c cell "):
            cells.append(int(line.split()[2]))
        elif not line or line[0] in "cp%":
            continue
        else:
            for lit in map(int, line.split()):
                if lit == 0:
                    clauses.append(current)
                    current = []
                else:
                    current.append(lit)
    return clauses, cells


def count(text, answer, seconds):
    # The bound is CPU time (SIGXCPU past it), so a loaded machine does not change
    # which puzzles are counted.
    cpu = max(1, math.ceil(seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    clauses, cells = parse(text)
    # An empty clause (crossat's export of a puzzle decided unsatisfiable before any SAT
    # call) has no model; pyganak counts one for it, so it is answered here.
    if any(not c for c in clauses):
        answer.put("0")
        return
    counter = pyganak.Counter()
    top = max((abs(lit) for c in clauses for lit in c), default=0)
    counter.new_vars(max([top] + cells))
    counter.add_clauses(clauses)
    # No cell variable at all: one grid (every cell decided) if the CNF is satisfiable.
    counter.set_sampling_set(cells)
    answer.put(str(counter.count()))


def main():
    ctx = multiprocessing.get_context("fork")
    for line in sys.stdin:
        case = json.loads(line)
        answer = ctx.Queue()
        child = ctx.Process(target=count, args=(case["cnf"], answer, case["timeout"]))
        child.start()
        # Wall time only as a safety net, a generous multiple of the CPU bound.
        child.join(20 * case["timeout"] + 30)
        if child.is_alive():
            child.kill()
            child.join()
            result = None
        elif child.exitcode == -signal.SIGXCPU:
            result = None
        else:
            result = answer.get() if child.exitcode == 0 else "error"
        if result == "error":
            sys.exit(f"error: Ganak failed (exit {child.exitcode})")
        print(json.dumps({"count": result}), flush=True)


if __name__ == "__main__":
    main()
