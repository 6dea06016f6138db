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

# Double Solitaire's search (core/src/python_double_solitaire.rs): options are
# (passes, auto_stop), moves the engine's action numbers.
def ds_legal_actions(options: tuple[int, bool], parts: Parts) -> list[int]: ...
def ds_apply(options: tuple[int, bool], parts: Parts, action: int) -> RawParts: ...
def ds_inspect(
    options: tuple[int, bool], parts: Parts
) -> tuple[list[int], int | None, list[float], list[float], list[float]]: ...
def ds_sample(parts: Parts, seed: int) -> RawParts: ...
def ds_ismcts(
    options: tuple[int, bool],
    parts: Parts,
    seat: int,
    iterations: int,
    seconds: float | None,
    exploration: float,
    bias: float,
    playout_turns: int,
    seed: int,
    costs: float = 1.0,
    root_exploration: float | None = None,
) -> tuple[list[tuple[int, int, float, float]], int]: ...
