"""The extension module: one puzzle prepared (``Core``), a search's stream of
records (``Stream``) and ``generate``. The records are ``--json``'s, as dicts."""

from typing import Any, Dict, List, Optional, Tuple

__version__: str

_State = Tuple[str, bytes, Optional[str], Optional[str], Optional[str], Optional[str], Optional[Tuple[str, bytes]]]

class Core:
    @staticmethod
    def open(
        name: str,
        data: bytes,
        format: Optional[str] = None,
        id: Optional[str] = None,
        alphabet: Optional[str] = None,
        dialect: Optional[str] = None,
        pool: Optional[Tuple[str, bytes]] = None,
    ) -> Core: ...
    @staticmethod
    def read_file(path: str) -> Tuple[str, bytes, Optional[Tuple[str, bytes]]]: ...
    def state(self) -> _State: ...
    def info(self) -> Dict[str, Any]: ...
    def solutions(self, limit: Optional[int] = None, timeout: Optional[float] = None) -> Stream: ...
    def count(self, timeout: Optional[float] = None) -> Dict[str, Any]: ...
    def explain(self, timeout: Optional[float] = None) -> List[Dict[str, Any]]: ...
    def check(self, rows: List[str]) -> List[str]: ...
    def hint(self, rows: List[str], timeout: Optional[float] = None) -> Optional[Dict[str, Any]]: ...
    def to_dimacs(self) -> str: ...
    def lint(self, timeout: Optional[float] = None) -> List[Dict[str, Any]]: ...

class Stream:
    def __iter__(self) -> Stream: ...
    def __next__(self) -> Dict[str, Any]: ...
    def close(self) -> None: ...

def generate(
    rows: int = 0,
    cols: int = 0,
    hex: Optional[Tuple[int, int, int]] = None,
    sides: int = 1,
    text: Optional[str] = None,
    backrefs: bool = False,
    lookarounds: bool = False,
    difficulty: Optional[str] = None,
    seed: Optional[int] = None,
    timeout: Optional[float] = None,
) -> Dict[str, Any]: ...

def squares(
    width: int,
    height: int,
    dictionary: Optional[str] = None,
    seed: Optional[int] = None,
    count: int = 1,
    timeout: Optional[float] = None,
) -> Tuple[int, List[Dict[str, Any]]]: ...
