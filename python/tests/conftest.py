"""Shared paths: the repository root and the command-line program the differential
tests compare with (CROSSAT_CLI, default target/debug/crossat, built by cargo test)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
CLI = Path(os.environ.get("CROSSAT_CLI", str(ROOT / "target" / "debug" / "crossat")))
MIT = PUZZLES / "antoine-trux" / "MIT.input.txt"
BEATLES = {"left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}
# A puzzle whose exact count takes minutes, for timeouts, Ctrl-C and the GIL: every row
# and column of 12 cells holds a multiple of five As (too wide for the counting sweep,
# minutes for the branching search; its listing is long too).
_FIVE = "(?:B*AB*AB*AB*AB*A)*B*"
SLOW = Path(tempfile.mkdtemp(prefix="crossat-slow-")) / "fives.json"
SLOW.write_text(json.dumps({"left": [_FIVE] * 12, "top": [_FIVE] * 12, "alphabet": "AB"}))
