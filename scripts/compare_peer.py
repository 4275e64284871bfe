#!/usr/bin/env python3
"""Side-by-side timing of crossat and antoine-trux/regex-crossword-solver.

Usage:
    scripts/compare_peer.py PEER_BINARY [--crossat PATH] [--reps N] [--sections LIST]
                            [--seeds N] [--sizes LIST] [--generate OPTIONS] [--timeout S]
                            [--gen-timeout S] [--workdir DIR]

One process per puzzle and program, both solving and proving uniqueness (crossat
`solve`, the peer with its defaults, which stop after two solutions). Runs are paired:
crossat then the peer, repeated --reps times (default 5), and each figure is the
median. Two clocks are reported for every run: wall time, and CPU time (user + sys of
the child, from wait4), which is the steadier one on a shared machine. Ratios are
crossat / peer (below 1: crossat is faster).

Sections (comma-separated, default all but `scaling`):
  grid     the 84 antoine-trux grid tests (puzzles/antoine-trux): totals and per puzzle
  good     player_puzzle_good_ol_days
  mit      the MIT 2013 hexagon
  sheep    player_puzzle_sheep, all 2304 solutions (crossat `solve --all`, the peer
           `--stop-after=-1`), with peak memory
  large    generated 16x16 and 20x20 puzzles, back-references, clues on 4 sides
           (crossat generate --sides 2 --backrefs, trux format; --generate OPTIONS
           replaces those options, e.g. --generate '--difficulty hard'), --seeds seeds each
  scaling  the same generator at n x n for --sizes (default 4,6,...,24)

Generated puzzles are kept in --workdir (one file per size, seed and options, reused by
later runs), with the CPU time their generation took beside them (`.cpu`). Generation
runs under crossat's own `--timeout` (--gen-timeout, default 900 s); a puzzle that is
not made in time is reported and left out. Medians over runs that hit --timeout
(either program) are lower bounds, marked `>=`.

Every run's exit status is checked, and each program's answer must agree: crossat
reports unique / not unique / the count, the peer `Found N solution(s)`.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_rusage(cmd, timeout):
    """Run cmd with its stdout in a temporary file; wait4 gives its own rusage."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        killed = []

        def kill():
            killed.append(True)
            proc.kill()

        timer = threading.Timer(timeout, kill)
        timer.start()
        _, status, ru = os.wait4(proc.pid, 0)
        timer.cancel()
        timed_out = bool(killed)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return {
        "wall": wall,
        "cpu": ru.ru_utime + ru.ru_stime,
        "out": text,
        "timed_out": timed_out,
        "rc": proc.returncode,
    }


def crossat_answer(r):
    """'unique', 'not unique', or the count with --all."""
    if r["rc"] != 0 or r["timed_out"]:
        return "error" if not r["timed_out"] else "timeout"
    for line in r["out"].splitlines()[::-1]:
        if line.startswith("unique:"):
            return "1"
        if line.startswith("not unique:"):
            return ">1"
        if "solutions; search exhausted" in line:
            return line.split()[0]
        if line.startswith("1 solution") or line.startswith("one solution"):
            return "1"
        if line.startswith("no solution"):
            return "0"
    return "?"


def peer_answer(r, all_solutions):
    if r["timed_out"]:
        return "timeout"
    if r["rc"] != 0:
        return "error"
    for line in r["out"].splitlines():
        low = line.lower()
        if low.startswith("first ") and "solution(s) found" in low:
            # Stopped after --stop-after solutions (default 2): not unique.
            n = low.split()[1]
            return ">1" if not all_solutions else f">={n}"
        if low.startswith("found "):
            n = line.split()[1]
            if all_solutions:
                return n
            return "1" if n == "1" else (">1" if n.isdigit() and int(n) > 1 else n)
        if "no solution" in line.lower():
            return "0"
    return "?"


def paired(crossat_cmd, peer_cmd, reps, timeout, all_solutions=False):
    """Alternate crossat and peer runs; return medians and answers."""
    cs, ps = [], []
    for _ in range(reps):
        cs.append(run_rusage(crossat_cmd, timeout))
        ps.append(run_rusage(peer_cmd, timeout))
    ca = {crossat_answer(r) for r in cs}
    pa = {peer_answer(r, all_solutions) for r in ps}

    def med(rs, key):
        return statistics.median(r[key] for r in rs)

    return {
        "c_wall": med(cs, "wall"),
        "c_cpu": med(cs, "cpu"),
        "p_wall": med(ps, "wall"),
        "p_cpu": med(ps, "cpu"),
        "c_ans": ",".join(sorted(ca)),
        "p_ans": ",".join(sorted(pa)),
        "p_timeout": any(r["timed_out"] for r in ps),
        "c_timeout": any(r["timed_out"] for r in cs),
    }


def ms(x):
    return f"{x * 1000:.1f}"


def ratio(a, b):
    return f"{a / b:.2f}" if b > 0 else "inf"


def header(title):
    print()
    print(f"## {title}")
    print()


def row_table(rows, extra=""):
    print(
        "| puzzle | crossat wall ms | peer wall ms | wall ratio | crossat CPU ms | peer CPU ms "
        "| CPU ratio | answers (crossat / peer) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for name, m in rows:
        flag = "" if m["c_ans"] == m["p_ans"] else " **DISAGREE**"
        pt = " (peer timed out)" if m["p_timeout"] else ""
        ct = " (crossat timed out)" if m["c_timeout"] else ""
        print(
            f"| {name} | {ms(m['c_wall'])}{ct} | {ms(m['p_wall'])}{pt} | {ratio(m['c_wall'], m['p_wall'])} "
            f"| {ms(m['c_cpu'])} | {ms(m['p_cpu'])} | {ratio(m['c_cpu'], m['p_cpu'])} "
            f"| {m['c_ans']} / {m['p_ans']}{flag} |"
        )


def section_grid(a):
    folder = os.path.join(ROOT, "puzzles", "antoine-trux")
    files = sorted(f for f in os.listdir(folder) if f.endswith(".input.txt"))
    header(f"The {len(files)} antoine-trux grid tests, one process each, median of {a.reps} paired runs")
    # Whole-corpus runs: the 84 one after another, alternating programs, a.reps times.
    totals = {"c_wall": [], "c_cpu": [], "p_wall": [], "p_cpu": []}
    per = {f: {"c": [], "p": []} for f in files}
    for _ in range(a.reps):
        for who in ("c", "p"):
            wall = cpu = 0.0
            for f in files:
                path = os.path.join(folder, f)
                cmd = [a.crossat, "solve", path] if who == "c" else [a.peer, path]
                r = run_rusage(cmd, a.timeout)
                per[f][who].append(r)
                wall += r["wall"]
                cpu += r["cpu"]
            totals[f"{who}_wall"].append(wall)
            totals[f"{who}_cpu"].append(cpu)
    print("| all 84, one after another | crossat | peer | ratio |")
    print("|---|---:|---:|---:|")
    for k, label in (("wall", "wall s"), ("cpu", "CPU s")):
        c = statistics.median(totals[f"c_{k}"])
        p = statistics.median(totals[f"p_{k}"])
        cr = ", ".join(f"{x:.3f}" for x in totals[f"c_{k}"])
        pr = ", ".join(f"{x:.3f}" for x in totals[f"p_{k}"])
        print(f"| {label} (runs: crossat {cr}; peer {pr}) | {c:.3f} | {p:.3f} | {c / p:.2f} |")
    rows = []
    for f in files:
        cs, ps = per[f]["c"], per[f]["p"]
        m = {
            "c_wall": statistics.median(r["wall"] for r in cs),
            "c_cpu": statistics.median(r["cpu"] for r in cs),
            "p_wall": statistics.median(r["wall"] for r in ps),
            "p_cpu": statistics.median(r["cpu"] for r in ps),
            "c_ans": ",".join(sorted({crossat_answer(r) for r in cs})),
            "p_ans": ",".join(sorted({peer_answer(r, False) for r in ps})),
            "p_timeout": any(r["timed_out"] for r in ps),
            "c_timeout": any(r["timed_out"] for r in cs),
        }
        rows.append((f.replace(".input.txt", ""), m))
    wall_ratios = [m["c_wall"] / m["p_wall"] for _, m in rows]
    cpu_ratios = [m["c_cpu"] / m["p_cpu"] if m["p_cpu"] > 0 else 0 for _, m in rows]
    slower = sum(1 for x in wall_ratios if x > 1)
    over2 = [(n, m["c_wall"] / m["p_wall"]) for n, m in rows if m["c_wall"] / m["p_wall"] > 2]
    disagree = [n for n, m in rows if m["c_ans"] != m["p_ans"]]
    print()
    print(
        f"Per puzzle (wall): crossat slower on {slower} of {len(rows)}; median ratio "
        f"{statistics.median(wall_ratios):.2f}; worst {max(wall_ratios):.2f} "
        f"({rows[wall_ratios.index(max(wall_ratios))][0]}); more than 2x: {len(over2)}"
        + (" (" + ", ".join(f"{n} {x:.2f}" for n, x in over2) + ")" if over2 else "")
    )
    print(f"Per puzzle (CPU): median ratio {statistics.median(cpu_ratios):.2f}; worst {max(cpu_ratios):.2f}")
    print(f"Answers that disagree: {len(disagree)}" + (f" ({', '.join(disagree)})" if disagree else ""))
    print()
    worst = sorted(rows, key=lambda nm: nm[1]["c_wall"] / nm[1]["p_wall"], reverse=True)
    if a.all_rows:
        row_table(worst)
    else:
        print("The 10 worst ratios (wall):")
        print()
        row_table(worst[:10])


def one(a, title, name, crossat_cmd, peer_cmd, all_solutions=False, reps=None):
    header(title)
    m = paired(crossat_cmd, peer_cmd, reps or a.reps, a.timeout, all_solutions)
    row_table([(name, m)])
    print()
    print(f"peak memory (one more run each, /usr/bin/time): crossat {peak_mib(crossat_cmd):.1f} MiB, "
          f"peer {peak_mib(peer_cmd):.1f} MiB")
    return m


def peak_mib(cmd):
    """Peak resident memory of one run. wait4's ru_maxrss cannot be used: Linux keeps the
    high-water mark of the forked Python parent across exec."""
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    return int(r.stderr.strip().splitlines()[-1]) / 1024


def generate(a, n, seed):
    """The puzzle's path and its generation's CPU seconds (None if unknown), or
    (None, reason) when crossat generate did not make it."""
    tag = "_".join(x.strip("-") for x in a.generate.split())
    path = os.path.join(a.workdir, f"gen_{n}x{n}_s{seed}_{tag}.txt")
    if not os.path.exists(path):
        cmd = [
            a.crossat, "generate", "--size", f"{n}x{n}", *a.generate.split(),
            "--seed", str(seed), "--output-format", "trux", "-q", "--timeout", str(a.gen_timeout),
        ]
        # crossat stops itself at --timeout (exit 4); the kill is a backstop.
        r = run_rusage(cmd, a.gen_timeout + 30)
        if r["rc"] != 0 or r["timed_out"]:
            why = "timeout" if r["rc"] == 4 or r["timed_out"] else f"exit {r['rc']}"
            return None, f"not generated ({why} after {r['cpu']:.1f} s CPU)"
        with open(path + ".tmp", "w") as out:
            out.write(r["out"])
        os.rename(path + ".tmp", path)
        with open(path + ".cpu", "w") as out:
            out.write(f"{r['cpu']}\n")
    try:
        with open(path + ".cpu") as f:
            return path, float(f.read())
    except (OSError, ValueError):
        return path, None


def section_generated(a, sizes, title):
    header(title)
    print(
        f"crossat generate --size NxN {a.generate} --seed S --output-format trux; "
        f"seeds 1..{a.seeds}; median of {a.large_reps} paired runs per puzzle; timeout {a.timeout:.0f} s "
        f"wall per run (both programs); generation timeout {a.gen_timeout:.0f} s"
    )
    print()
    summary = []
    for n in sizes:
        rows = []
        gens = []
        for seed in range(1, a.seeds + 1):
            path, gen = generate(a, n, seed)
            if path is None:
                print(f"{n}x{n} seed {seed}: {gen}")
                continue
            gens.append(gen)
            m = paired([a.crossat, "solve", path], [a.peer, path], a.large_reps, a.timeout)
            rows.append((f"{n}x{n} seed {seed}", m))
        if not rows:
            summary.append((n, None, gens))
            continue
        row_table(rows)
        print()
        summary.append((n, rows, gens))
    print(
        "| n | puzzles | generation CPU s (median) | crossat wall ms (median) | peer wall ms (median) | peer / crossat "
        "| crossat CPU ms | peer CPU ms | peer / crossat (CPU) | crossat timeouts | peer timeouts |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, rows, gens in summary:
        known = [g for g in gens if g is not None]
        gen = f"{statistics.median(known):.2f}" if known else "?"
        if rows is None:
            print(f"| {n} | 0 of {a.seeds} | | | | | | | | | |")
            continue
        ct = sum(m["c_timeout"] for _, m in rows)
        pt = sum(m["p_timeout"] for _, m in rows)
        # A median over runs cut short by the timeout is a lower bound.
        cb = ">=" if ct else ""
        pb = ">=" if pt else ""
        cw, pw, cc, pc = (statistics.median(m[k] for _, m in rows) for k in ("c_wall", "p_wall", "c_cpu", "p_cpu"))
        print(
            f"| {n} | {len(rows)} of {a.seeds} | {gen} | {cb}{ms(cw)} | {pb}{ms(pw)} | {pw / cw:.1f} "
            f"| {cb}{ms(cc)} | {pb}{ms(pc)} | {pc / cc if cc else 0:.1f} | {ct} | {pt} |"
        )


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("peer")
    p.add_argument("--crossat", default=os.path.join(ROOT, "target", "release", "crossat"))
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--large-reps", type=int, default=3)
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--sizes", default="4,6,8,10,12,14,16,18,20,22,24")
    p.add_argument("--generate", default="--sides 2 --backrefs",
                   help="options of crossat generate for the large and scaling sections "
                        "(e.g. '--difficulty hard' for puzzles only search decides)")
    p.add_argument("--sections", default="grid,good,mit,sheep,large")
    p.add_argument("--timeout", type=float, default=60.0, help="wall seconds per solving run, either program")
    p.add_argument("--gen-timeout", type=float, default=900.0,
                   help="crossat generate's --timeout for each generated puzzle")
    p.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "crossat-compare-peer"))
    p.add_argument("--all-rows", action="store_true", help="print every grid test, not the 10 worst")
    a = p.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    sections = a.sections.split(",")
    at = os.path.join(ROOT, "puzzles", "antoine-trux")
    print(f"# crossat vs antoine-trux/regex-crossword-solver")
    print()
    print(f"crossat: {a.crossat}; peer: {a.peer}; load average at start: {os.getloadavg()[0]:.2f}")
    if "grid" in sections:
        section_grid(a)
    if "good" in sections:
        f = os.path.join(at, "player_puzzle_good_ol_days.input.txt")
        one(a, "player_puzzle_good_ol_days", "good_ol_days", [a.crossat, "solve", f], [a.peer, f])
    if "mit" in sections:
        f = os.path.join(at, "MIT.input.txt")
        one(a, "MIT 2013 hexagon", "MIT", [a.crossat, "solve", f], [a.peer, f])
    if "sheep" in sections:
        f = os.path.join(at, "player_puzzle_sheep.input.txt")
        one(
            a, "player_puzzle_sheep, every solution", "sheep (all)",
            [a.crossat, "solve", "--all", f], [a.peer, "--stop-after=-1", f], all_solutions=True,
        )
    if "large" in sections:
        section_generated(a, [16, 20], "Large generated puzzles")
    if "scaling" in sections:
        section_generated(a, [int(x) for x in a.sizes.split(",")], "Scaling, n x n")
    print()
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
