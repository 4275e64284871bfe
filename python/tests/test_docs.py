"""The examples of docs/python.md and README.md, run: every ```python block in order,
each in a fresh namespace from the repository root; the Dask example's ``batch`` on a
small LocalCluster of threads."""

from __future__ import annotations

import re
from typing import Any, Dict, List

import pytest

from conftest import ROOT

DOCS = [ROOT / "docs" / "python.md", ROOT / "README.md"]


def blocks() -> List[str]:
    return [b for doc in DOCS for b in re.findall(r"```python\n(.*?)```", doc.read_text(), flags=re.S)]


def test_there_are_examples() -> None:
    assert len(blocks()) >= 5


@pytest.mark.parametrize("index", range(len(blocks())))
def test_example(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code = blocks()[index]
    ns: Dict[str, Any] = {"__name__": "docs"}
    exec(compile(code, f"python block {index + 1} of docs/python.md, README.md", "exec"), ns)
    if "batch" in ns:
        from dask.distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None)  # type: ignore[no-untyped-call]
        with cluster, Client(cluster) as client:  # type: ignore[no-untyped-call]
            results = ns["batch"](client, 6)
        assert [r["seed"] for r in results] == list(range(6)) and all(r["unique"] for r in results)
