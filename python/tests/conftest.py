"""Shared paths: the repository root and the command-line program the differential
tests compare with (CROSSAT_CLI, default target/debug/crossat, built by cargo test)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
CLI = Path(os.environ.get("CROSSAT_CLI", str(ROOT / "target" / "debug" / "crossat")))
MIT = PUZZLES / "antoine-trux" / "MIT.input.txt"
BEATLES = {"left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}
# A hexagon whose exact count takes minutes: for timeouts, Ctrl-C and the GIL.
SLOW = PUZZLES / "binoternary" / "1389923839891520.json"
