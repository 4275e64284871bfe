#!/usr/bin/env python3
"""Python's own reading of regex clues, for the parser cross-check (tests/parser.rs).

Reads JSON lines {"p": PATTERN} on stdin and writes one JSON line per input:

    {"ok": true, "dump": TEXT}                 re._parser.parse(p), in the text form of
                                                crossat's `regex::syntax::dump`
    {"ok": false, "msg": MSG, "pos": POS}      re.error (from the parser or the compiler)
    {"ok": false, "other": "Type: text"}       any other exception (OverflowError, ...)

Each pattern also goes through re.compile, so the refusals of re._compiler count. It must
run on CPython 3.11 (the dialect crossat implements); warnings are silenced.
"""
import json
import re
import sys
import warnings
from re import _constants as C
from re import _parser

assert sys.version_info[:2] == (3, 11), "run with CPython 3.11"


def dump_seq(data, depth, out):
    for op, av in data:
        dump_item(op, av, depth, out)


def line(out, depth, text):
    out.append("  " * depth + text + "\n")


def dump_item(op, av, d, out):
    if op in (C.LITERAL, C.NOT_LITERAL, C.GROUPREF):
        line(out, d, f"{op} {av}")
    elif op is C.ANY:
        line(out, d, "ANY")
    elif op is C.IN:
        line(out, d, "IN")
        for sop, sav in av:
            if sop is C.NEGATE:
                line(out, d + 1, "NEGATE")
            elif sop is C.LITERAL:
                line(out, d + 1, f"LITERAL {sav}")
            elif sop is C.RANGE:
                line(out, d + 1, f"RANGE {sav[0]} {sav[1]}")
            elif sop is C.CATEGORY:
                line(out, d + 1, f"CATEGORY {sav}")
            else:
                raise AssertionError(f"set member {sop}")
    elif op is C.AT:
        line(out, d, f"AT {av}")
    elif op is C.BRANCH:
        line(out, d, "BRANCH")
        for alt in av[1]:
            line(out, d + 1, "OR")
            dump_seq(alt.data, d + 2, out)
    elif op is C.SUBPATTERN:
        group, add, dele, p = av
        line(out, d, f"SUBPATTERN {group} {add} {dele}")
        dump_seq(p.data, d + 1, out)
    elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        lo, hi, p = av
        line(out, d, f"{op} {lo} {int(hi)}")
        dump_seq(p.data, d + 1, out)
    elif op is C.ATOMIC_GROUP:
        line(out, d, "ATOMIC_GROUP")
        dump_seq(av.data, d + 1, out)
    elif op is C.GROUPREF_EXISTS:
        group, yes, no = av
        line(out, d, f"GROUPREF_EXISTS {group}")
        line(out, d + 1, "YES")
        dump_seq(yes.data, d + 2, out)
        if no is not None:
            line(out, d + 1, "NO")
            dump_seq(no.data, d + 2, out)
    elif op in (C.ASSERT, C.ASSERT_NOT):
        direction, p = av
        line(out, d, f"{op} {direction}")
        dump_seq(p.data, d + 1, out)
    else:
        raise AssertionError(f"op {op}")


def dump(p):
    out = [f"FLAGS {p.state.flags}\n", f"GROUPS {p.state.groups - 1}\n"]
    dump_seq(p.data, 0, out)
    return "".join(out)


def read(pattern):
    try:
        tree = _parser.parse(pattern)
        re.compile(pattern)
        return {"ok": True, "dump": dump(tree)}
    except re.error as e:
        return {"ok": False, "msg": e.msg, "pos": e.pos}
    except Exception as e:  # noqa: BLE001 (OverflowError, ValueError, RecursionError, ...)
        return {"ok": False, "other": f"{type(e).__name__}: {e}"}


def main():
    warnings.simplefilter("ignore")
    out = sys.stdout
    for raw in sys.stdin:
        if not raw.strip():
            continue
        pattern = json.loads(raw)["p"]
        out.write(json.dumps(read(pattern)) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
