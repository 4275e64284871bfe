"""Copy the bundled puzzle collections into the page's output folder and write the
index the page lists them from (puzzles/index.json).

Usage: python3 web/page/bundle.py REPO OUT
"""

import json
import pathlib
import shutil
import sys


def main(repo: pathlib.Path, out: pathlib.Path) -> None:
    src = repo / "puzzles"
    dst = out / "puzzles"
    if dst.exists():
        shutil.rmtree(dst)

    def add(path: pathlib.Path, name: str) -> dict:
        rel = path.relative_to(src)
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dst / rel)
        return {"name": name, "path": f"puzzles/{rel.as_posix()}"}

    def trux_name(p: pathlib.Path) -> str:
        return p.name.removesuffix(".input.txt")

    trux = sorted((src / "antoine-trux").glob("*.input.txt"))
    hex_trux = [p for p in trux if b"shape = hexagonal" in p.read_bytes()]
    for lic in ["antoine-trux/LICENSE.txt", "regexcrossword-com/LICENSE", "binoternary/LICENSE",
                "hexregex/LICENSE", "hesselink/LICENSE", "dkesler/LICENSE",
                "bbc/LICENSE-blukat29.txt", "solrabizna/LICENSE-NOTE.txt"]:
        add(src / lic, lic)

    challenges = add(src / "regexcrossword-com/challenges.json", "challenges.json")
    collections = [
        {
            "title": "regexcrossword.com challenges",
            "kind": "challenges",
            "path": challenges["path"],
            "default": {"path": challenges["path"], "id": "beginner/1"},
        },
        {
            "title": "antoine-trux tests",
            "kind": "files",
            "files": [add(p, trux_name(p)) for p in trux],
        },
        {
            "title": "Hexagons (MIT 2013 and others)",
            "kind": "files",
            "files": [add(p, trux_name(p)) for p in hex_trux]
            + [add(src / "hesselink/puzzle.txt", "MIT 2013 (hesselink's list)")]
            + [add(p, f"binoternary {p.stem}") for p in sorted((src / "binoternary").glob("*.json"))
               if not p.stem.endswith("_solution")]
            + [add(p, f"hexregex {p.stem}") for p in sorted((src / "hexregex").glob("unique_*.json"))]
            + [add(p, f"regexle-style {p.stem}") for p in sorted((src / "regexle").glob("*.json"))],
        },
        {
            "title": "More rectangles",
            "kind": "files",
            "files": [add(p, f"dkesler {p.stem}") for p in sorted((src / "dkesler").glob("*.dat"))]
            + [add(src / "bbc/bbc-2017-07-05.antoine-format.input.txt", "BBC Puzzle for Today 2017-07-05")]
            + [add(p, f"Hamlet {p.stem}") for p in sorted((src / "solrabizna").glob("*.json"))]
            + [add(src / "hexregex/rect_easy_1000.json", "hexregex 5x5")],
        },
    ]
    (dst / "index.json").write_text(json.dumps({"collections": collections}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
