#!/usr/bin/env python3
"""The oracle of `explain`'s line steps, for lines of any size: which letters a clue's
matching words use.

Reads JSON lines `{"p": PATTERN, "cands": [CHARS, ...]}` on stdin (one string of
candidate characters per cell of the line) and writes, per line, one of
- `{"ok": true, "used": [CHARS, ...], "how": HOW, "crosschecked": BOOL}`: for each cell,
  the characters that occur there in some string of the product of the candidates that
  CPython 3.11's `re.fullmatch(PATTERN, s)` matches;
- `{"ok": false, "error": "..."}` when Python refuses the pattern;
- `{"ok": false, "crash": "..."}` on the documented CPython 3.11 SystemError ("The span of
  capturing group is wrong");
- `{"ok": false, "skip": "..."}` when the line is too large for both ways below.

Two ways, independent of crossat's code:
- "enumeration": every string of the product (at most ENUMERATE of them) matched by
  `re.fullmatch` itself.
- "automaton": the clue as CPython parses it (`re._parser`) walked over the line's
  cells, forward then backward, as a set of threads of a nondeterministic machine. A
  thread carries the text of the groups that back-references read and the pending
  positive lookaheads it still has to satisfy, and the state whether the last letter
  is a word character (for `\\b` and `\\B`); every single-character test (literal,
  class, `.`) is decided by CPython's own compiler and matcher on that one node, so
  classes, categories and flags mean exactly what `re` says. Constructs whose meaning
  the walk does not follow exactly (negative lookarounds, lookbehinds, conditionals,
  atomic groups, possessive repeats, scoped flags, multiline anchors, newlines in the
  line, case-insensitive back-references, groups set in a lookahead and read outside)
  are refused, and the line falls back to enumeration.
Whenever both ways can answer a line (its product small enough to enumerate), both run
and must agree, or the script fails naming the line: the automaton is tested against
CPython on every such line. A line answered by the automaton alone is cross-checked the
same way on SAMPLES sub-lines small enough to enumerate, each keeping at every cell the
letter of a string the automaton says matches (which `re.fullmatch` must match), one more
letter it says is used and one it says is not ("crosschecked": true, "matched": whether
there was such a string).
"""
import itertools
import json
import random
import re
import re._compiler as sre_compile
import re._constants as C
import re._parser as sre_parse
import sys
import warnings

warnings.simplefilter("ignore")  # FutureWarning on "[[" and "--" in random classes

assert sys.version_info[:2] == (3, 11), "the oracle is CPython 3.11"

ENUMERATE = 20_000  # most strings matched one by one
MAX_EDGES = 3_000_000  # most moves between machine states kept over one line
MAX_COPIES = 64  # most copies of a counted repeat's body
SAMPLES = 3  # sub-lines small enough to enumerate, cross-checked per line answered by the automaton


NONE = frozenset()


class Refused(Exception):
    """A construct the automaton does not follow exactly."""


class TooLarge(Exception):
    """More moves than MAX_EDGES."""


class Machine:
    """A clue compiled to a program: instructions are tuples whose first item names them:
    ("char", test, next), ("split", [next, ...]), ("open", g, next), ("close", g, next),
    ("ref", g, next), ("at", code, next), ("assert", body, next), ("lookend",), ("match",).
    """

    def __init__(self, parsed):
        self.state = parsed.state
        if self.state.flags & C.SRE_FLAG_MULTILINE:
            raise Refused("multiline")
        self.refs_outside = set()
        self.refs = sorted(self._refs(parsed.data))
        self.slot = {g: k for k, g in enumerate(self.refs)}
        if self.refs and self.state.flags & C.SRE_FLAG_IGNORECASE:
            raise Refused("case-insensitive back-reference")
        self.prog = []
        self.tests = []
        self.boundaries = False
        # Whether a character is a word character for `\b`, decided by CPython.
        word = sre_compile.compile(sre_parse.parse(r"\w", self.state.flags & (C.SRE_FLAG_ASCII | C.SRE_FLAG_UNICODE)))
        self.word = lambda ch: word.fullmatch(ch) is not None
        self.inside_assert = False
        self.open_groups = set()
        self.assert_groups = set()
        self.start = self._seq(parsed.data, self._emit(("match",)))
        if self.assert_groups & set(self.refs_outside):
            raise Refused("a group set in a lookahead and read outside it")

    def _refs(self, data, out=None):
        out = set() if out is None else out
        for op, av in data:
            if op == C.GROUPREF:
                out.add(av)
            for sub in self._children(op, av):
                self._refs(sub, out)
        return out

    @staticmethod
    def _children(op, av):
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            return [av[2]]
        if op == C.SUBPATTERN:
            return [av[3]]
        if op == C.BRANCH:
            return av[1]
        if op in (C.ASSERT, C.ASSERT_NOT):
            return [av[1]]
        if op == C.ATOMIC_GROUP:
            return [av]
        if op == C.GROUPREF_EXISTS:
            return [x for x in av[1:] if x is not None]
        return []

    def _emit(self, ins):
        self.prog.append(ins)
        return len(self.prog) - 1

    def _test(self, node):
        # CPython compiles and matches the one-character node itself.
        one = sre_compile.compile(sre_parse.SubPattern(self.state, [node]))
        cache = {}

        def test(ch):
            if ch not in cache:
                cache[ch] = one.fullmatch(ch) is not None
            return cache[ch]

        self.tests.append(test)
        return len(self.tests) - 1

    def _seq(self, data, nxt):
        for node in reversed(list(data)):
            nxt = self._node(node, nxt)
        return nxt

    def _node(self, node, nxt):
        op, av = node
        if op in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN):
            return self._emit(("char", self._test(node), nxt))
        if op == C.BRANCH:
            return self._emit(("split", [self._seq(alt, nxt) for alt in av[1]]))
        if op == C.SUBPATTERN:
            group, add, rem, body = av
            if add or rem:
                raise Refused("scoped flags")
            if group is None or group not in self.slot:
                if group is not None and self.inside_assert:
                    self.assert_groups.add(group)
                return self._seq(body, nxt)
            if self.inside_assert:
                self.assert_groups.add(group)
            close = self._emit(("close", self.slot[group], nxt))
            self.open_groups.add(group)
            inner = self._seq(body, close)
            self.open_groups.discard(group)
            return self._emit(("open", self.slot[group], inner))
        if op in (C.MAX_REPEAT, C.MIN_REPEAT):
            lo, hi, body = av
            if lo > MAX_COPIES or (hi != C.MAXREPEAT and hi > MAX_COPIES):
                raise Refused("a repeat counted past the copies kept")
            cur = nxt
            if hi == C.MAXREPEAT:
                loop = self._emit(None)
                self.prog[loop] = ("split", [self._seq(body, loop), nxt])
                cur = loop
            else:
                for _ in range(hi - lo):
                    cur = self._emit(("split", [self._seq(body, cur), nxt]))
            for _ in range(lo):
                cur = self._seq(body, cur)
            return cur
        if op == C.GROUPREF:
            if av in self.open_groups:
                raise Refused("a back-reference inside its own group")
            if not self.inside_assert:
                self.refs_outside.add(av)
            return self._emit(("ref", self.slot[av], nxt))
        if op == C.AT:
            if av in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY):
                self.boundaries = True
            elif av not in (C.AT_BEGINNING, C.AT_BEGINNING_STRING, C.AT_END, C.AT_END_STRING):
                raise Refused(f"anchor {av}")
            return self._emit(("at", av, nxt))
        if op == C.ASSERT:
            direction, body = av
            if direction != 1 or self.inside_assert:
                raise Refused("lookbehind or nested lookaround")
            self.inside_assert = True
            start = self._seq(body, self._emit(("lookend",)))
            self.inside_assert = False
            return self._emit(("assert", start, nxt))
        raise Refused(f"construct {op}")

    # A thread: (pc, caps, opens, pending, need): caps the last text of each group read
    # by a back-reference (None before it matched), opens the text of each such group
    # open now, pending what a back-reference still has to read, need whether the next
    # character must be a word character (a `\b` or `\B` passed; None: free; the end of
    # the line counts as not one). A state: (main thread, frozenset of obligations,
    # whether the last character read is a word character: None at the start or when
    # the clue has no `\b` or `\B`).

    def eps(self, thread, pos, n, prev, memo):
        """The settled threads reachable from `thread` without reading, each with the
        frozenset of obligations (lookahead threads, unsettled) it spawned; an obligation
        that is met settles to None."""
        key = (thread, pos, prev)
        if key in memo:
            return memo[key]
        out = set()
        seen = set()
        stack = [(thread, NONE)]
        while stack:
            t, spawned = stack.pop()
            if (t, spawned) in seen:
                continue
            seen.add((t, spawned))
            pc, caps, opens, pend, need = t
            ins = self.prog[pc]
            kind = ins[0]
            if kind == "char" or kind == "match":
                out.add((t, spawned))
            elif kind == "lookend":
                # Met, unless a `\b` in it still constrains the next character.
                out.add((None if need is None or (pos == n and not need) else t, spawned))
            elif kind == "split":
                for nx in ins[1]:
                    stack.append(((nx, caps, opens, pend, need), spawned))
            elif kind == "open":
                g = ins[1]
                stack.append(((ins[2], caps, opens[:g] + ("",) + opens[g + 1 :], pend, need), spawned))
            elif kind == "close":
                g = ins[1]
                stack.append(((ins[2], caps[:g] + (opens[g],) + caps[g + 1 :], opens[:g] + (None,) + opens[g + 1 :], pend, need), spawned))
            elif kind == "ref":
                if pend is not None:
                    out.add((t, spawned))
                elif caps[ins[1]] is not None:
                    if caps[ins[1]] == "":
                        stack.append(((ins[2], caps, opens, None, need), spawned))
                    else:
                        out.add(((pc, caps, opens, caps[ins[1]], need), spawned))
            elif kind == "at":
                code = ins[1]
                if code in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY):
                    # A boundary: the next character is a word character exactly when
                    # the last is not (`\b`), or is (`\B`).
                    want = (not prev) if code == C.AT_BOUNDARY else bool(prev)
                    if (need is None or need == want) and not (want and pos == n):
                        stack.append(((ins[2], caps, opens, pend, want), spawned))
                    continue
                ok = pos == 0 if code in (C.AT_BEGINNING, C.AT_BEGINNING_STRING) else pos == n
                if ok:
                    stack.append(((ins[2], caps, opens, pend, need), spawned))
            elif kind == "assert":
                stack.append(((ins[2], caps, opens, pend, need), spawned | {(ins[1], caps, opens, None, None)}))
        memo[key] = out
        return out

    def step(self, thread, ch):
        """The thread after reading `ch`, or None."""
        pc, caps, opens, pend, need = thread
        if need is not None and self.word(ch) != need:
            return None
        ins = self.prog[pc]
        if ins[0] == "lookend":
            return (pc, caps, opens, pend, None)
        if ins[0] == "char":
            if not self.tests[ins[1]](ch):
                return None
            nxt = ins[2]
        elif ins[0] == "ref":
            if pend[0] != ch:
                return None
            if len(pend) > 1:
                return (pc, caps, tuple(o if o is None else o + ch for o in opens), pend[1:], None)
            nxt = ins[2]
        else:
            return None
        return (nxt, caps, tuple(o if o is None else o + ch for o in opens), None, None)

    def close(self, main, obligations, pos, n, prev, memo):
        """The settled states from an unsettled one."""
        out = set()
        for m, spawned in self.eps(main, pos, n, prev, memo):
            if not obligations and not spawned:
                out.add((m, NONE, prev))
                continue
            options = []
            for o in set(obligations) | spawned:
                settled = {s for s, sp in self.eps(o, pos, n, prev, memo)}
                options.append(settled)
            for pick in itertools.product(*options):
                out.add((m, frozenset(x for x in pick if x is not None), prev))
        return out

    def support(self, cands, rng=None):
        """The letters used at each cell; with `rng`, also a random matching string
        (None if there is none)."""
        n = len(cands)
        memo = {}
        empty = tuple(None for _ in self.refs)
        layer = self.close((self.start, empty, empty, None, None), (), 0, n, None, memo)
        edges = []  # per position: {state: [(ch, next state), ...]}
        count = 0
        for pos in range(n):
            here = {}
            nxt_layer = set()
            allowed = {}
            for state in layer:
                main, obls, _ = state
                out = []
                ins = self.prog[main[0]]
                if ins[0] == "char":
                    if ins[1] not in allowed:
                        allowed[ins[1]] = [ch for ch in cands[pos] if self.tests[ins[1]](ch)]
                    letters = allowed[ins[1]]
                elif ins[0] == "ref":
                    letters = [main[3][0]] if main[3][0] in cands[pos] else []
                else:
                    letters = []
                for ch in letters:
                    m2 = self.step(main, ch)
                    if m2 is None:
                        continue
                    o2 = [self.step(o, ch) for o in obls]
                    if any(o is None for o in o2):
                        continue
                    prev = self.word(ch) if self.boundaries else None
                    for s2 in self.close(m2, o2, pos + 1, n, prev, memo):
                        out.append((ch, s2))
                        nxt_layer.add(s2)
                if out:
                    here[state] = out
                    count += len(out)
            edges.append(here)
            if count > MAX_EDGES:
                raise TooLarge(f"more than {MAX_EDGES} moves")
            layer = nxt_layer
        alive = {s for s in layer if self.prog[s[0][0]][0] == "match" and not s[1] and not s[0][4]}
        used = [set() for _ in range(n)]
        alives = [alive]
        for pos in range(n - 1, -1, -1):
            before = set()
            for state, out in edges[pos].items():
                for ch, s2 in out:
                    if s2 in alive:
                        used[pos].add(ch)
                        before.add(state)
            alive = before
            alives.append(alive)
        used = ["".join(sorted(u)) for u in used]
        if rng is None:
            return used
        alives.reverse()
        if not alives[0]:
            return used, None
        state, word = rng.choice(sorted(alives[0], key=stable)), ""
        for pos in range(n):
            ch, state = rng.choice(sorted((x for x in edges[pos][state] if x[1] in alives[pos + 1]), key=lambda x: (x[0], stable(x[1]))))
            word += ch
        return used, word


def stable(state):
    """A sort key of a state that does not depend on string hashing (the order of a
    frozenset does), so that the sub-lines cross-checked are the same on every run."""
    main, obligations, prev = state
    return repr((main, sorted(map(repr, obligations)), prev))


def enumerate_support(rx, cands):
    used = [set() for _ in cands]
    fm = rx.fullmatch
    for w in itertools.product(*cands):
        if fm("".join(w)):
            for k, ch in enumerate(w):
                used[k].add(ch)
    return ["".join(sorted(u)) for u in used]


def product(cands):
    p = 1
    for c in cands:
        p *= len(c)
    return p


def answer(p, cands, cache):
    if p not in cache:
        try:
            rx = re.compile(p)
        except Exception as e:  # re.error, OverflowError, RecursionError, ...
            cache[p] = (f"{type(e).__name__}: {e}", None)
        else:
            try:
                machine = Machine(sre_parse.parse(p))
            except Refused as e:
                machine = str(e)
            cache[p] = (rx, machine)
    rx, machine = cache[p]
    if isinstance(rx, str):
        return {"ok": False, "error": rx}
    newline = any("\n" in c for c in cands)
    if isinstance(machine, str) or newline:
        machine, refused = None, machine if isinstance(machine, str) else "a newline in the line"
    else:
        refused = None
    small = product(cands) <= ENUMERATE
    by_machine = None
    if machine is not None:
        try:
            by_machine, witness = machine.support(cands, random.Random(json.dumps([p, cands])))
        except TooLarge as e:
            refused = str(e)
    if small:
        try:
            by_enumeration = enumerate_support(rx, cands)
        except SystemError as e:
            # Only the documented CPython 3.11 bug (a lookbehind moving a group's start
            # past its end) is "no verdict"; any other exception stops the oracle.
            if "The span of capturing group is wrong" not in str(e):
                raise
            return {"ok": False, "crash": f"{type(e).__name__}: {e}"}
        if by_machine is not None and by_machine != by_enumeration:
            sys.exit(f"line_support.py: the automaton and re.fullmatch disagree on {p!r} over {cands}: {by_machine} vs {by_enumeration}")
        return {"ok": True, "used": by_enumeration, "how": "enumeration", "crosschecked": by_machine is not None}
    if by_machine is not None:
        # The same clue on sub-lines small enough for re.fullmatch: each cell keeps its
        # letter of a string the automaton says matches, one more it says is used and
        # one it says is not.
        rng = random.Random(json.dumps([p, cands]))
        if witness is not None and not rx.fullmatch(witness):
            sys.exit(f"line_support.py: the automaton's string {witness!r} does not match {p!r}")
        for _ in range(SAMPLES):
            sub = []
            for k, (c, u) in enumerate(zip(cands, by_machine)):
                keep = [witness[k]] if witness else []
                more = [ch for ch in u if ch not in keep]
                rest = [ch for ch in c if ch not in u]
                sub.append("".join(keep + rng.sample(more, min(1, len(more))) + rng.sample(rest, min(1, len(rest)))))
            while product(sub) > ENUMERATE:
                k = max(range(len(sub)), key=lambda k: len(sub[k]))
                sub[k] = sub[k][:-1]
            want = enumerate_support(rx, sub)
            if machine.support(sub) != want:
                sys.exit(f"line_support.py: the automaton and re.fullmatch disagree on {p!r} over {sub}: {machine.support(sub)} vs {want}")
        return {"ok": True, "used": by_machine, "how": "automaton", "crosschecked": True, "matched": witness is not None}
    return {"ok": False, "skip": f"{product(cands)} strings, and the automaton refuses: {refused}"}


def main():
    cache = {}
    out = sys.stdout
    for line in sys.stdin:
        case = json.loads(line)
        out.write(json.dumps(answer(case["p"], case["cands"], cache)) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
