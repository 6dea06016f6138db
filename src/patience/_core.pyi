"""Type stubs of the compiled search core (core/src/python.rs)."""

Parts = tuple[list[list[int]], list[int], list[int]]
#: Piles come back as bytes (card numbers), the rest as lists.
RawParts = tuple[list[bytes], list[int], list[int]]

VERSION: str

def solve(
    game: str,
    options: list[tuple[str, str]],
    root: Parts,
    history: list[Parts],
    seconds: float | None,
    nodes: int | None,
    max_states: int,
    cpu_time: bool,
    dominance: bool = True,
    table: bool = True,
) -> tuple[str, list[str], int, float, str, int]: ...
def candidate_moves(game: str, options: list[tuple[str, str]], state: Parts) -> list[str]: ...
def apply(
    game: str, options: list[tuple[str, str]], state: Parts, index: int
) -> tuple[RawParts, list[str]]: ...
def steps(
    game: str, options: list[tuple[str, str]], state: Parts, dominance: bool
) -> list[tuple[list[str], RawParts]]: ...
def keys(game: str, options: list[tuple[str, str]], state: Parts) -> tuple[int, int, bool]: ...
def games() -> list[str]: ...
