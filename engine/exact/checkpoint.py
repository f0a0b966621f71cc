"""The checkpoints of the exact search: a build's (its opener's finished subtrees and, in a
symmetric game, what the symmetric levels proved) and a rank's (each first guess's value or
bound), the headers each must match to be taken, and what a build checkpoint proves so far
(`finished_openers`, `checkpoint_status`).

Both are files.Checkpoint (`build_checkpoint`, `rank_checkpoint`): JSON documents whose top-level
fields hold the header. A checkpoint's header records the cap as a number: NO_CAP for a search with
no cap (None). A run whose header differs is refused (files.read_checkpoint names each field),
before the run plans any work (rank.rank reads its checkpoint first); a rank's own parameters
(how many first guesses it values exactly, how many it ranks) are kept beside the header instead,
because a resume with others can take what the checkpoint holds and do the rest (rank.plan). The
objective needs no field: only builds of the total keep checkpoints (a worst-case build is a build
of the total at the smallest cap, which the header's cap names).
"""

from __future__ import annotations


import numpy as np

from ..errors import NoCheckpoint  # noqa: F401 (errors.py's, importable here as before)
from ..files import Checkpoint, sealed
from .solver import INF, NO_CAP, Solver

BUILD_CHECKPOINT_FORMAT = "wordtree-build-checkpoint/1"
RANK_CHECKPOINT_FORMAT = "wordtree-rank/1"


def _cap_field(max_guesses: int | None) -> int:
    return NO_CAP if max_guesses is None else int(max_guesses)


# --- builds ---
def build_checkpoint_header(game, max_guesses: int | None, mode: str, history: list[tuple[str, int]]) -> dict:
    """What a build checkpoint must match to serve a build: the game, its cap, mode and history."""
    return {"format": BUILD_CHECKPOINT_FORMAT, "game": game.identity(), "max_guesses": _cap_field(max_guesses),
            "mode": mode, "history": [[word, game.pattern_text(code)] for word, code in history]}


def build_checkpoint(path, header: dict) -> Checkpoint:
    """The build checkpoint at `path` bound to `header` (build_checkpoint_header)."""
    return Checkpoint(path, "build", header)


def read_build_checkpoint(path, header: dict, resuming: bool = True) -> dict | None:
    """The build checkpoint at `path` if it matches `header` (None if there is none)."""
    return build_checkpoint(path, header).read(resuming)


def build_checkpoint_bytes(header: dict, seconds: float, subtrees: dict, proven: list) -> bytes:
    """A build checkpoint: `subtrees` {"WORD/guesses left": {code: {"value", "tree"}}}, `proven`
    the rows of Solver.proven_entries()."""
    return sealed({**header, "seconds": round(seconds, 3), "subtrees": subtrees, "proven": proven})


def _whole_game_openers(game, doc: dict, cap: int):
    """(word, guess id, {code: {"value", "tree"}}) for each opener whose subtrees a build
    checkpoint holds with the whole cap (keys "WORD/guesses left")."""
    for key, finished in doc.get("subtrees", {}).items():
        word, _, depth = key.rpartition("/")
        g = game.guess_index.get(word)
        if g is not None and depth == str(cap):
            yield word, g, finished


def finished_openers(game, matrix: np.ndarray, checkpoint, max_guesses: int | None, mode: str) -> dict[str, int]:
    """The exact totals of the openers whose every class a build checkpoint (of the whole game)
    holds: the answers plus the saved values of the classes, each an exact optimum. A rank can
    take them as they are instead of solving those openers again (a build of one opener with a
    checkpoint, then a build that ranks the other openers against it)."""
    cap = _cap_field(max_guesses)
    doc = read_build_checkpoint(checkpoint, build_checkpoint_header(game, cap, mode, [])) or {}
    n = len(game.answers)
    totals = {}
    for word, g, finished in _whole_game_openers(game, doc, cap):
        codes = {int(c) for c in np.unique(matrix[g])} - {game.win_code}
        if codes <= {int(c) for c in finished}:
            totals[word] = n + sum(item["value"] for item in finished.values())
    return totals


# --- ranks ---
def _rank_header(game, max_guesses: int | None, mode: str) -> dict:
    return {"format": RANK_CHECKPOINT_FORMAT, "game": game.identity(), "max_guesses": _cap_field(max_guesses),
            "mode": mode}


def rank_checkpoint(path, game, max_guesses: int | None, mode: str) -> Checkpoint:
    """The rank checkpoint at `path` of this game, cap and mode."""
    return Checkpoint(path, "rank", _rank_header(game, max_guesses, mode))


def _read_rank(path, game, max_guesses: int | None, mode: str, resuming: bool = True) -> dict:
    return rank_checkpoint(path, game, max_guesses, mode).read(resuming) or {}


def read_rank(path, game, max_guesses: int | None, mode: str, resuming: bool = True) -> dict:
    """A rank checkpoint as rank.plan takes it ({} if there is none): "results" word -> (value or
    lower bound, exact?), "proven", "seconds", and the "top" and "limit" of the run that saved it
    last (None if not recorded, or no limit). `resuming`: read to continue it, not to show it."""
    doc = _read_rank(path, game, max_guesses, mode, resuming)
    if not doc:
        return {}
    return {"results": {w: (int(v), bool(e)) for w, (v, e) in doc.get("results", {}).items()},
            "proven": doc.get("proven", []), "seconds": float(doc.get("seconds", 0.0)),
            "top": doc.get("top"), "limit": doc.get("limit")}


def load_checkpoint(path, game, max_guesses: int | None, mode: str) -> dict[str, tuple[int, bool]]:
    """A rank checkpoint's results: word -> (value or lower bound, exact?)."""
    doc = _read_rank(path, game, max_guesses, mode)
    return {w: (int(v), bool(e)) for w, (v, e) in doc.get("results", {}).items()}


def load_proven(path, game, max_guesses: int | None, mode: str) -> list:
    """The rows of Solver.proven a rank of a symmetric game saved (see rank.rank)."""
    return _read_rank(path, game, max_guesses, mode).get("proven", [])


def checkpoint_bytes(game, max_guesses: int | None, mode: str, values, proven: list | None = None,
                     seconds: float = 0.0, top: int | None = None, limit: int | None = None) -> bytes:
    """A rank checkpoint: `values` word -> (value or lower bound, exact?), `proven` (symmetric
    games) and the run's `top` and `limit`, which a resume reports when its own differ."""
    doc = _rank_header(game, max_guesses, mode)
    doc["seconds"] = round(seconds, 3)
    if top is not None:
        doc["top"] = top
        doc["limit"] = limit
    doc["results"] = {w: [v, e] for w, (v, e) in sorted(values.items())}
    if proven:
        doc["proven"] = proven
    return sealed(doc)


# --- what a build checkpoint proves so far ---
def checkpoint_status(game, matrix: np.ndarray, checkpoint, max_guesses: int | None, mode: str) -> list[str]:
    """What a build checkpoint proves so far, as lines of text: for each opener it holds, each
    class's exact value or a proven lower bound, and so a lower bound on the opener's total that
    only rises as the build goes on. A long class shows how far it has got: in a symmetric game,
    a class is solved by trying one second guess per orbit, and each orbit's bound is |class| plus
    what is proven of its parts (their saved values, else the bounds the search refutes with,
    Solver.set_bound); the class costs at least the least of these, and it is settled once no
    orbit's bound is below the best orbit whose every part is exact.

    A build with the opener found exactly ranks the openers first, in FILE.rank: in a symmetric
    game each opener orbit is then shown too, with its exact total, or a lower bound (its classes'
    as above), and whether that bound already puts it no better than the best exact total."""
    solver = Solver(game, matrix, max_guesses, mode=mode)
    doc = build_checkpoint(checkpoint, build_checkpoint_header(game, solver.cap, mode, [])).shown()
    solver.load_proven(doc.get("proven", []))
    rank_file = f"{checkpoint}.rank"
    rank_doc = read_rank(rank_file, game, solver.cap, mode, resuming=False)
    ranked = rank_doc.get("results", {})
    if ranked:
        solver.load_proven(rank_doc["proven"])
    S = np.arange(len(game.answers), dtype=np.int32)
    lines = [f"{checkpoint}: {len(solver.proven)} proven values of sets "
             f"({sum(e for _, e, _ in solver.proven.values())} exact)"]
    for word, g, finished in _whole_game_openers(game, doc, solver.cap):
        lines += _opener_lines(solver, S, word, g, finished)
    if ranked and solver.symmetric:
        lines += _rank_lines(solver, S, rank_file, ranked)
    return lines


def _known(solver: Solver, part: np.ndarray, d: int, history: list[int]) -> tuple[int, bool]:
    """(what is proven of V(part, d), whether it is exact), with the bound one guess deeper that
    the search itself refutes guesses with (Solver.set_bound)."""
    value, exact = solver.proven_bound(part, d)
    if exact or not solver.symmetric:
        return value, exact
    return solver.set_bound(part, d, history), False


def _class_state(solver: Solver, part: np.ndarray, d: int, g: int) -> tuple[int, bool, str]:
    """(value or lower bound, exact?, detail) of the class `part` below opener g, not saved as a
    subtree: in a symmetric game, settled from its second-guess orbits where they prove it."""
    value, exact = _known(solver, part, d, [g])
    if exact or not solver.symmetric or len(part) <= 2:
        return value, exact, ""
    orbits = []
    for g2 in solver._orbit_bounds(part, d, [g])[0]:
        parts = [_known(solver, p, d - 1, [g, g2]) for _, p in solver.classes(part, g2)]
        orbits.append((len(part) + sum(v for v, _ in parts), all(e for _, e in parts)))
    best = min((v for v, e in orbits if e), default=None)
    least = min(v for v, _ in orbits)
    if best is not None and least >= best:
        return best, True, ""
    still = sum(1 for v, e in orbits if not e and (best is None or v < best))
    so_far = f"best second guess so far {best}; " if best is not None else ""
    return max(value, least), False, f" ({so_far}{still} of {len(orbits)} second-guess orbits still open)"


def _opener_lines(solver: Solver, S: np.ndarray, word: str, g: int, finished: dict) -> list[str]:
    """The opener's summary line, then one line per class, largest first."""
    game, d = solver.game, solver.cap - 1
    rows, total, done = [], len(S), 0
    classes = sorted(solver.classes(S, g), key=lambda item: -len(item[1]))
    width = max((len(game.pattern_text(code)) for code, _ in classes), default=0)
    for code, part in classes:
        label = f"  {game.pattern_text(code):<{width}} {len(part):6} answers:"
        if str(code) in finished:
            value, exact, detail = finished[str(code)]["value"], True, " (subtree saved)"
        else:
            value, exact, detail = _class_state(solver, part, d, g)
        rows.append(f"{label} {'exact' if exact else 'at least'} {value}{detail}")
        done += exact
        total += value
    state = "exact" if done == len(classes) else "at least"
    return [f"opener {word}: {done} of {len(classes)} classes exact; total {state} {total} "
            f"(mean {state} {total / len(S):.4f})"] + rows


def _rank_lines(solver: Solver, S: np.ndarray, rank_file: str, ranked: dict[str, tuple[int, bool]]) -> list[str]:
    """One line per opener orbit of a symmetric game: its exact total from the rank, else a lower bound."""
    from ..games.symmetry import orbit_representatives

    game = solver.game
    best = min((v for v, exact in ranked.values() if exact), default=INF)
    lines = [f"{rank_file}: the first guesses, one per orbit"]
    for o in orbit_representatives(game, []):
        word = game.guesses[o]
        value, exact = ranked.get(word, (None, False))
        if value is None:
            value = len(S) + sum(_known(solver, part, solver.cap - 1, [int(o)])[0] for _, part in solver.classes(S, o))
        verdict = "exact" if exact else "at least"
        refuted = " (no better than the best)" if not exact and value >= best else ""
        lines.append(f"  {word}: {verdict} {value}{refuted}")
    return lines
