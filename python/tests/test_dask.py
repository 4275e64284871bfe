"""Batches on a Dask cluster: 100 puzzles generated, proved unique and rated on a
``LocalCluster(n_workers=2, processes=True)`` give exactly the sequential results.
Puzzles travel between processes pickled (as their source text and options)."""

from __future__ import annotations

import sys
from typing import Any, Dict, Optional, Tuple

import cloudpickle  # type: ignore[import-untyped]
from dask.distributed import Client, LocalCluster

import crossat

N = 100


def make(seed: int) -> crossat.Puzzle:
    """A small puzzle per seed: sizes from 3×3 to 5×5."""
    return crossat.generate(size=(3 + seed % 3, 3 + (seed // 3) % 3), seed=seed)


def rate(p: crossat.Puzzle) -> Tuple[Optional[int], bool, Optional[str], int, Dict[str, Any]]:
    ex = p.explain()
    return p.seed, p.is_unique(), ex.difficulty, len(ex.steps), ex.to_dict()


def test_dask_local_cluster_equals_sequential() -> None:
    # The workers import this module by value, not by name (tests/ is not a package).
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    sequential = [rate(make(s)) for s in range(N)]
    # dask.distributed is not typed: its two constructors are called untyped.
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)  # type: ignore[no-untyped-call]
    with cluster, Client(cluster) as client:  # type: ignore[no-untyped-call]
        puzzles = client.map(make, range(N))
        rated = client.gather(client.map(rate, puzzles))
        # The puzzles themselves come back to this process, pickled.
        here = client.gather(puzzles)
    assert rated == sequential
    assert all(r[1] for r in rated), "every generated puzzle is unique"
    assert [p.seed for p in here] == list(range(N))
    assert [p.clues for p in here] == [make(s).clues for s in range(N)]
