"""The file of a multi-board player's measurement (format wordtree-multiboard-sample/1).

Fields: `game` (the lists, as the Wordle family's identity, and `boards`, `max_guesses`,
`preset`), `player` (the heuristic's name and shortlist; `heuristic`: true), `sample` (`kind`:
"sample" with `seed`, `games` and the generator, or "every" tuple), `lengths` (each game's
length, one character of spec.ALPHABET a game, in the order drawn), `results` (figures of the
lengths: mean, its 95 % interval for a sample, games won within the cap, histogram),
`lower_bound` (lower.py's proven bound on any strategy's mean, with how) and `opener`.

`read` checks every field's type and size; `verify` re-derives the results from the lengths and
replays games (a seeded subsample, or all) with the player, the feedback of each game computed
by the plain feedback rule, each length checked against the file's.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from ..errors import UserError
from ..files import write_atomic
from .spec import ALPHABET, MAX_BOARDS, MultiSpec

FORMAT = "wordtree-multiboard-sample/1"
MAX_BYTES = 16 << 20
MAX_GAMES = 10_000_000
PLAYERS = {"fewest-expected-left/1": 1, "fewest-expected-left+exact-endgame/2": 2}  # name: player.Player version
PLAYER = "fewest-expected-left+exact-endgame/2"  # what a build measures now
LABEL = ("a heuristic player (not proven optimal) measured on {what}: the mean over a sample is an estimate, "
         "with its 95 % interval")


def _field(doc: dict, key: str, kind, where: str = ""):
    value = doc.get(key) if isinstance(doc, dict) else None
    name = f"{where}{key}"
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise UserError(f"{name} must be a whole number, got {type(value).__name__}")
    if kind is float and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise UserError(f"{name} must be a number, got {type(value).__name__}")
    if kind not in (int, float) and not isinstance(value, kind):
        raise UserError(f"{name} must be {kind.__name__}, got {type(value).__name__}")
    return value


def build_document(game, spec: MultiSpec, result: dict, seed: int | None, bound: dict) -> dict:
    from . import sample

    ident = game.identity()
    n = result["figures"]["games"]
    what = f"every one of the {n} tuples of different answers (exact for this player)" if seed is None else \
        f"a uniform sample of {n} tuples of different answers (seed {seed})"
    return {
        "format": FORMAT,
        "game": {**ident, "preset": spec.name, "boards": spec.boards, "max_guesses": spec.cap},
        "player": {"name": PLAYER, "shortlist": result["shortlist"], "heuristic": True},
        "sample": {"kind": "every", "games": n} if seed is None else
                  {"kind": "sample", "seed": seed, "games": n, "generator": sample.GENERATOR},
        "label": LABEL.format(what=what),
        "opener": result["opener"],
        "results": result["figures"],
        "lower_bound": bound,
        "seconds": result["seconds"],
        "lengths": sample.encode(result["lengths"]),
    }


def write(path, doc: dict) -> None:
    write_atomic(Path(path), orjson.dumps(doc))


def read(path) -> dict:
    from ..words import read_bounded

    raw = read_bounded(path, MAX_BYTES, "multi-board sample")
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise UserError(f"{path}: not JSON ({exc})") from None
    try:
        check(doc)
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    return doc


def check(doc) -> None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UserError(f"not a {FORMAT} document")
    game = _field(doc, "game", dict)
    for key in ("name", "answers", "guesses", "answers_sha256", "guesses_sha256", "preset"):
        _field(game, key, str, "game.")
        if len(game[key]) > 256:
            raise UserError(f"game.{key} is longer than 256 characters")
    for key in ("word_length", "answers_count", "guesses_count", "boards", "max_guesses"):
        _field(game, key, int, "game.")
    if not 2 <= game["boards"] <= MAX_BOARDS:
        raise UserError(f"game.boards must lie in 2..{MAX_BOARDS}, got {game['boards']}")
    if not game["boards"] <= game["max_guesses"] <= 4 * MAX_BOARDS:
        raise UserError(f"game.max_guesses must lie in {game['boards']}..{4 * MAX_BOARDS}, got {game['max_guesses']}")
    from .spec import PRESETS, spec_for

    k, cap = game["boards"], game["max_guesses"]
    names = {spec_for("multiboard", k, cap).name}
    names |= {spec_for(p, None, cap).name for p, (b, _) in PRESETS.items() if b == k}
    if game["preset"] not in names:
        raise UserError(f"game.preset {game['preset'][:64]!r} is not the game of {k} boards and {cap} guesses "
                        f"({' or '.join(sorted(names))})")
    player = _field(doc, "player", dict)
    if _field(player, "name", str, "player.") not in PLAYERS:
        raise UserError(f"player.name must be one of {', '.join(PLAYERS)}, got {player['name'][:64]!r}")
    _field(player, "shortlist", int, "player.")
    if player.get("heuristic") is not True:
        raise UserError("player.heuristic must be true")
    spl = _field(doc, "sample", dict)
    kind = _field(spl, "kind", str, "sample.")
    games = _field(spl, "games", int, "sample.")
    if kind not in ("sample", "every"):
        raise UserError(f"sample.kind must be sample or every, got {kind[:32]!r}")
    if kind == "sample":
        seed = _field(spl, "seed", int, "sample.")
        if not 0 <= seed < 2**63:
            raise UserError(f"sample.seed must lie in 0..2**63-1, got {seed}")
    if not 1 <= games <= MAX_GAMES:
        raise UserError(f"sample.games must lie in 1..{MAX_GAMES}, got {games}")
    lengths = _field(doc, "lengths", str)
    if len(lengths) != games:
        raise UserError(f"lengths holds {len(lengths)} games, sample.games says {games}")
    if set(lengths) - set(ALPHABET):
        raise UserError("lengths holds a character that is no game length")
    _field(doc, "opener", str)
    _field(doc, "results", dict)
    bound = _field(doc, "lower_bound", dict)
    _field(bound, "mean", float, "lower_bound.")
    _field(bound, "how", str, "lower_bound.")


def spec_of(doc: dict) -> MultiSpec:
    g = doc["game"]
    return MultiSpec(g["preset"], g["boards"], g["max_guesses"])


def game_of(doc: dict, answers=None, guesses=None):
    """The game the document was made for, its lists checked against the recorded fingerprints."""
    from ..games import get_game

    spec = doc["game"]
    try:
        game = get_game(spec["name"], answers, guesses)
    except UserError as exc:
        raise UserError(f"the document's lists ({spec['name'][:64]!r}): {exc}") from None
    ident = game.identity()
    for key in ("answers_sha256", "guesses_sha256", "word_length"):
        if ident.get(key) != spec.get(key):
            raise UserError(f"the document was made for other lists ({key} differs): it names "
                            f"{spec['answers'][:64]} and {spec['guesses'][:64]}")
    return game


def verify(doc: dict, game, matrix, replay: int | None, seed: int = 0, progress=None) -> list[str]:
    """The problems found (none: valid). The results are re-derived from the lengths; then
    `replay` games (None: all) are replayed, chosen by default_rng(seed) among the file's."""
    import numpy as np

    from . import sample

    problems = []
    spec = spec_of(doc)
    n, k = len(game.answers), spec.boards
    for key, value in (("answers_count", n), ("guesses_count", len(game.guesses))):
        if doc["game"][key] != value:
            problems.append(f"game.{key} is {doc['game'][key]}, the lists have {value}")
    if n < k:
        return [f"{k} boards need {k} different answers: the list has {n}"]
    lengths = sample.decode(doc["lengths"])
    exact = doc["sample"]["kind"] == "every"
    if exact and len(lengths) != sample.every_tuple_count(n, k):
        return [f"every tuple is {sample.every_tuple_count(n, k)} games, the file holds {len(lengths)}"]
    want = sample.figures(lengths, spec.cap, exact)
    got = doc["results"]
    for key, value in want.items():
        if got.get(key) != value:
            problems.append(f"results.{key} is {str(got.get(key))[:80]}, the lengths give {value}")
    from .player import Player

    player = Player(game, matrix, doc["player"]["shortlist"], PLAYERS[doc["player"]["name"]])
    opener = player.choose([np.arange(n, dtype=np.int64)] * k, list(range(k)), spec.cap)
    if game.guesses[opener] != doc["opener"]:
        problems.append(f"opener is {doc['opener'][:16]!r}, the player opens with {game.guesses[opener]}")
    from .lower import lower_bound

    bound = lower_bound(game, matrix, k)
    if abs(bound["mean"] - doc["lower_bound"]["mean"]) > 1e-9 or bound["mean"] > want["mean"] + 1e-9:
        problems.append(f"lower_bound.mean is {doc['lower_bound']['mean']}, re-derived {bound['mean']} "
                        f"(and at most the mean {want['mean']})")
    count = len(lengths)
    picks = np.arange(count) if replay is None or replay >= count else \
        np.sort(np.random.default_rng(seed).choice(count, replay, replace=False))
    if exact:
        wanted = set(picks.tolist())
        tuples = ((i, t) for i, t in enumerate(sample.every_tuple(n, k)) if i in wanted)
    else:
        drawn = sample.draw(n, k, doc["sample"]["seed"], count)
        tuples = ((int(i), drawn[i]) for i in picks)
    feedback = _plain_feedback(game, matrix)
    for done, (i, answers) in enumerate(tuples, 1):
        try:
            length, _ = sample.play_game(player, answers, spec.cap, feedback)
        except (sample.PlayerLost, _Mismatch) as exc:
            problems.append(f"game {i}: {exc}")
            continue
        if length != lengths[i]:
            problems.append(f"game {i} ({' '.join(game.answers[a] for a in answers)}): the player takes {length} "
                            f"guesses, the file says {lengths[i]}")
        if progress is not None:
            progress(done, len(picks))
        if len(problems) > 50:
            break
    return problems


class _Mismatch(Exception):
    pass


def _plain_feedback(game, matrix):
    """Feedback by the plain rule (game.feedback), each code checked against the matrix's."""
    def feedback(g: int, a: int) -> int:
        code = game.feedback(game.guesses[g], game.answers[a])
        if code != int(matrix[g, a]):
            raise _Mismatch(f"the pattern matrix gives {game.guesses[g]} on {game.answers[a]} a wrong pattern")
        return code

    return feedback


def describe(doc: dict) -> dict:
    game, results = doc["game"], doc["results"]
    return {"format": FORMAT, "game": game["preset"], "lists": {key: game.get(key) for key in ("answers", "guesses")},
            "answers": game["answers_count"], "boards": game["boards"], "max_guesses": game["max_guesses"],
            "opener": doc["opener"], "total": results.get("total"),
            "measure": f"guesses to solve every board, over {doc['sample']['games']} "
                       f"{'games sampled' if doc['sample']['kind'] == 'sample' else 'games (every tuple)'}",
            "mean": results.get("mean"), "optimal": False}


def describe_file(path) -> dict:
    return describe(read(path))
