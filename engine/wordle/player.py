"""Look a position up in a tree, and play with it: a walk down the tree, no numpy, no numba.

A position is the steps played so far. While they follow the tree, the next guess is the
node's, and each step is checked against the game's feedback rule: the answers the subtree holds
must be exactly those the feedback leaves, else the tree is broken and gives no advice. Once the
player guesses something else, the candidates are filtered by the game's own feedback and the
next guess comes from the exact engine when the set is small enough to solve within a second
(imported only then), else from a quick partition heuristic, and says which. A game may also be
played with no tree at all (a preset without a shipped tree): off the tree from the start.

The real game's answers may lie outside the list (the NYT adds answers): when the feedback rules
out every answer of the list, the allowed guesses that fit it become the candidates, and the
suggestions go on over them (`Position.widened`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..data import trees_dir
from ..errors import UserError
from .tree import check_lists, game_for, histogram_lines, named_game, path_text, read_tree, replay

DEFAULT_TREE = trees_dir() / "wordle-salet-normal.json"
EXACT_LIMIT = 60  # candidates the exact engine solves well within a second
MAX_STEPS = 32  # guesses `play --answer` tries without a cap
WIDENED_NOTE = "no answer of the list fits: treating the allowed guesses as possible answers"
HEURISTIC_OPTIONS = 150  # guesses scored by the heuristic (best letter coverage first)
HEURISTIC_SAMPLE = 150  # candidates they are scored against


class TreeDisagrees(UserError):
    """The tree holds other answers below a step than the feedback rule leaves: a broken or
    tampered tree, which must give no advice."""


@dataclass
class Suggestion:
    guess: str | None  # None once solved
    source: str  # "tree", "exact", "heuristic" or "solved"
    candidates: list[str]
    expected_guesses: float | None  # guesses still needed from here, on average (None: unknown)
    step: int  # guesses played so far
    note: str | None = None  # WIDENED_NOTE once the candidates are allowed guesses outside the list

    def as_json(self) -> dict:
        return {
            "guess": self.guess,
            "source": self.source,
            "candidates": len(self.candidates),
            "candidate_words": self.candidates,
            "expected_guesses": self.expected_guesses,
            "solved": self.source == "solved",
            "step": self.step,
            "note": self.note,
        }


# the shipped tree a game's lookups start from (normal mode), where one is shipped
GAME_TREES = {"wordle": "wordle-salet-normal.json", "wordle-nyt2023": "wordle-nyt2023-tarse-normal.json"}
TODAY_TREE = trees_dir() / GAME_TREES["wordle-nyt2023"]  # today's game (the NYT lists of 2023): play's default


def open_tree(path=None) -> dict:
    """A tree file, by default the shipped Wordle tree; a shipped tree's name (families.find_tree:
    e.g. wordle-nyt2023-tarse-hard, with or without .json) where it is no file here."""
    if path is None:
        if not DEFAULT_TREE.is_file():
            raise UserError(f"the default tree {DEFAULT_TREE} is missing; give a tree file")
        path = DEFAULT_TREE
    from ..families import tree_path

    return read_tree(tree_path(path))


def game_tree(game_name: str) -> dict | None:
    """The shipped tree of a game preset (GAME_TREES), None where none is shipped."""
    name = GAME_TREES.get(game_name)
    return read_tree(trees_dir() / name) if name and (trees_dir() / name).is_file() else None


@dataclass
class Position:
    """The state of one game played along a tree (`doc`), or with no tree on `treeless`, a Game."""

    doc: dict | None
    answers: str | None = None  # user's list files, if the tree's are not shipped
    guesses: str | None = None
    node: dict | None = None  # None once off the tree
    steps: list[tuple[str, str]] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    solved: bool = False
    treeless: object = None  # the game played when there is no tree
    widened: bool = False  # no answer of the list fits: the candidates are allowed guesses
    exact_limit: int = EXACT_LIMIT  # off the tree: candidates solved exactly, more get the heuristic
    _expected: float | None = field(default=None, init=False, repr=False)  # guesses still needed at `node`
    _full: object = field(default=None, init=False, repr=False)
    _light: object = field(default=None, init=False, repr=False)

    def __post_init__(self):
        if self.doc is None:
            self._full = self.treeless
        self.node = None if self.doc is None else self.doc["root"]
        self.candidates = list(self.game.answers)

    @property
    def game(self):
        """Feedback and pattern text only need the answers: a game whose guesses are the answers
        is loaded first, so an on-tree lookup never reads the long guess list."""
        if self._full is not None:
            return self._full
        if self.answers is not None:
            return self.full_game
        if self._light is None:
            self._light = named_game(self.doc, ("answers",))
            if self._light.identity()["answers_sha256"] != self.doc["game"]["answers_sha256"]:
                check_lists(self.doc, self.full_game)  # names the mismatching list
        return self._light

    @property
    def full_game(self):
        if self._full is None:
            self._full = game_for(self.doc, self.answers, self.guesses)
        return self._full

    @property
    def cap(self) -> int | None:
        return self.treeless.default_cap if self.doc is None else self.doc["game"]["max_guesses"]

    @property
    def mode(self) -> str:
        return "normal" if self.doc is None else self.doc["game"]["mode"]

    @property
    def name(self) -> str:
        """The game's name, and its answer list where it has one: how messages name the game."""
        ident = self.game.identity() if self.doc is None else self.doc["game"]
        return f"{ident['name']} ({ident['answers']})" if ident.get("answers") else ident["name"]

    def play(self, guess: str, pattern: str) -> None:
        """Apply one step: `guess` got `pattern` (B/Y/G, 0/1/2 or squares)."""
        n = len(self.steps) + 1
        where = f"step {n} ({guess}:{pattern})"
        if self.solved:
            raise UserError(f"{where}: the game is already solved")
        if self.cap is not None and n > self.cap:
            raise UserError(f"{where}: the game allows only {self.cap} guesses")
        guess = guess.strip().lower()
        try:
            code = self.game.parse_pattern(pattern)
            if self.node is None or guess != self.node["guess"]:
                guess = self.full_game.parse_guess(guess)
        except UserError as exc:
            raise UserError(f"{where}: {exc}") from None
        game = self.game
        text = game.pattern_text(code)
        on_tree = self.node is not None and guess == self.node["guess"]
        left = [a for a in self.candidates if game.feedback(guess, a) == code]
        node, expected = None, None
        if on_tree and code != game.win_code:
            path = self.steps + [(guess, text)]
            branches = self.node.get("next", {})
            node = branches.get(text) if isinstance(branches, dict) else None
            held, expected = self._subtree_answers(node, path) if node is not None else ([], None)
            if held != left:
                raise TreeDisagrees(disagreement(path, left, held))
        if not left and not self.widened:  # beyond the list: off the tree too
            left, node, expected = self._allowed_left(guess, code), None, None
            self.widened = bool(left)
        if not left:
            raise UserError(f"{where}: {text} cannot occur here: no answer left would give it")
        self.steps.append((guess, text))
        self.candidates, self.node, self._expected = left, node, expected
        self.solved = code == game.win_code

    def _allowed_left(self, guess: str, code: int) -> list[str]:
        """The allowed guesses that fit every step played and `guess` getting `code`: the possible
        answers once no answer of the list does (a word the game added to its answers)."""
        game = self.full_game
        left = list(game.guesses)
        for g, c in [(g, game.parse_pattern(p)) for g, p in self.steps] + [(guess, code)]:
            left = [w for w in left if game.feedback(g, w) == c]
        return left

    def _subtree_answers(self, node: dict, path: list[tuple[str, str]]) -> tuple[list[str], float]:
        """The answers still possible at `node` and the guesses they need on average, read off
        the subtree: an answer ends at the node that guesses it, and a node's guess is an answer
        ending there exactly when it agrees with every step on the way. This costs a few feedback
        calls per node below, instead of one per answer still in the list."""
        game, index = self.game, self.game.answer_index
        found: list[tuple[int, str, int]] = []
        stack = [(node, path, 1)]
        while stack:
            node, steps, depth = stack.pop()
            word = node.get("guess") if isinstance(node, dict) else None
            branches = node.get("next", {}) if isinstance(node, dict) else None
            if not isinstance(word, str) or not isinstance(branches, dict):
                raise TreeDisagrees(f"the tree is malformed at {path_text(steps)}: a node needs a guess word")
            if word in index and all(game.pattern_text(game.feedback(g, word)) == p for g, p in steps):
                found.append((index[word], word, depth))
            for key, child in branches.items():
                stack.append((child, steps + [(word, key)], depth + 1))
        found.sort()
        return [w for _, w, _ in found], round(sum(d for _, _, d in found) / len(found), 4) if found else None

    def suggest(self) -> Suggestion:
        n, note = len(self.steps), WIDENED_NOTE if self.widened else None
        if self.solved:
            return Suggestion(None, "solved", self.candidates, 0.0, n, note)
        if self.node is not None:
            expected = self.doc["stats"]["mean"] if not self.steps else self._expected
            return Suggestion(self.node["guess"], "tree", self.candidates, expected, n)
        left = None if self.cap is None else self.cap - n
        if left is not None and left < 1:
            raise UserError(f"no guesses left after {n} steps: the game allows {self.cap}")
        if len(self.candidates) == 1:
            return Suggestion(self.candidates[0], "exact", self.candidates, 1.0, n, note)
        if len(self.candidates) <= self.exact_limit and (not self.widened or self.full_game.kind == "wordle"):
            try:
                word, total = self._exact_guess(left)
                return Suggestion(word, "exact", self.candidates, round(total / len(self.candidates), 4), n, note)
            except UserError as exc:
                from ..exact.solver import Infeasible

                if isinstance(exc, Infeasible) or self.mode == "normal":
                    raise
                # a mode the exact search does not handle (yet): fall back to the heuristic
        return Suggestion(self._heuristic_guess(left), "heuristic", self.candidates, None, n, note)

    def _exact_guess(self, guesses_left: int | None) -> tuple[str, int]:
        """The exact engine's best guess for the candidates (numba: imported only off the tree) and
        its total. Widened, the candidates are not answers of the game: the search runs on a game
        whose answers they are, over the same guesses (its small matrix is built here, not cached)."""
        from ..exact.solver import best_guess

        game = self.full_game
        if not self.widened:
            return best_guess(game, [game.answer_index[a] for a in self.candidates], guesses_left, self.mode)
        sub = candidates_game(game, self.candidates)
        return best_guess(sub, list(range(len(self.candidates))), guesses_left, self.mode,
                          matrix=sub._compute_matrix())

    def _heuristic_guess(self, guesses_left: int | None) -> str:
        """The guess leaving the fewest candidates on average (sum of squared bucket sizes),
        among the guesses covering the most frequent unknown letters; only candidates in hard
        and ultra mode (they always obey the rules) and on the last guess. Scored on an even
        sample of candidates."""
        game, cands = self.full_game, self.candidates
        sample = cands[:: max(1, len(cands) // HEURISTIC_SAMPLE)]
        if self.mode == "normal" and guesses_left != 1:
            freq: dict[str, int] = {}
            for word in cands:
                for letter in set(word):
                    freq[letter] = freq.get(letter, 0) + 1
            options = sorted(game.guesses, key=lambda w: -sum(freq.get(ch, 0) for ch in set(w)))
            options = options[:HEURISTIC_OPTIONS] + cands[: HEURISTIC_OPTIONS // 3]
        else:
            options = cands[:: max(1, len(cands) // HEURISTIC_OPTIONS)]
        in_play = set(cands)

        def score(word):
            buckets: dict[int, int] = {}
            for answer in sample:
                code = game.feedback(word, answer)
                buckets[code] = buckets.get(code, 0) + 1
            return sum(v * v for v in buckets.values()), word not in in_play, word

        return min(options, key=score)


def candidates_game(game, words: list[str]):
    """A Wordle like `game` whose answers are `words` (allowed guesses), its guesses the same."""
    from ..games.wordle import Wordle
    from ..words import WordList, canonical_sha256

    def as_list(name, listed):
        return WordList(name=name, path="", words=tuple(listed), sha256=canonical_sha256(listed))

    return Wordle(game.name, as_list("candidates", words), as_list(game.guesses_list.name, game.guesses))


def disagreement(path, left: list[str], held: list[str]) -> str:
    """What a tree gets wrong below a step: the answers the feedback leaves, and those it holds."""
    missing = [w for w in left if w not in set(held)]
    extra = sorted(set(held) - set(left)) + sorted({w for w in held if held.count(w) > 1})
    detail = f"the feedback leaves {len(left)} answer{'s' * (len(left) != 1)}, the tree holds {len(held)} there"
    if missing:
        detail += f"; missing: {' '.join(missing[:5])}{' ...' * (len(missing) > 5)}"
    if extra:
        detail += f"; not left or repeated: {' '.join(extra[:5])}{' ...' * (len(extra) > 5)}"
    return f"the tree disagrees with the feedback rule at {path_text(path)}: {detail}"


def parse_step(text: str) -> tuple[str, str]:
    """`salet:BBYBB` -> ("salet", "BBYBB"); a word alone is missing its colours, and says so."""
    guess, sep, pattern = text.partition(":")
    if not sep and guess.strip():
        raise UserError(missing_pattern(guess.strip()))
    if not sep or not guess.strip() or not pattern.strip():
        raise UserError(f"bad step {text!r}: expected GUESS:PATTERN, e.g. salet:BBYBB")
    return guess, pattern


def missing_pattern(word: str) -> str:
    """What a guess given without its feedback lacks."""
    if word.isalpha():
        return f"{word}: give the colours you got, e.g. {word}:{('BBYBB' * 2)[:len(word)]}"
    return f"{word}: give the feedback you got for it, as GUESS:FEEDBACK"


def position_after(doc: dict | None, steps: list[str], answers=None, guesses=None, game=None,
                   exact_limit: int = EXACT_LIMIT) -> Position:
    """The position after `steps` (`GUESS:PATTERN` texts) along the tree `doc`, or with no tree on
    `game`; off the tree, sets of up to `exact_limit` candidates are solved exactly."""
    position = Position(doc, answers, guesses, treeless=game, exact_limit=exact_limit)
    for text in steps:
        position.play(*parse_step(text))
    return position


def lookup(doc: dict | None, steps: list[str], answers=None, guesses=None, game=None,
           exact_limit: int = EXACT_LIMIT) -> Suggestion:
    return position_after(doc, steps, answers, guesses, game, exact_limit).suggest()


# ------------------------------------------------------------------------------------------------
# text output
# ------------------------------------------------------------------------------------------------
TILE_COLOURS = {"G": "green", "Y": "yellow", "B": "grey"}  # a B/Y/G pattern's letters as play.py's tile colours


def feedback_cells(guess: str, pattern: str) -> list[tuple[str, str | None]]:
    """A guess and its B/Y/G pattern as the cells play.tile_row draws (a letter outside B/Y/G
    is a plain cell)."""
    return [(ch, TILE_COLOURS.get(c)) for ch, c in zip(guess, pattern)]


def coloured_row(guess: str, pattern: str, ansi: bool) -> str:
    """A row of `play --answer`: coloured tiles on a terminal (`ansi`), else `guess pattern`."""
    if not ansi:
        return f"{guess} {pattern}"
    from ..play import tile_row

    return tile_row(feedback_cells(guess, pattern))


def guess_line(s: Suggestion) -> str:
    """The suggestion in one line: the guess, where it comes from, the candidates left."""
    if s.source == "solved":
        return f"solved in {s.step}"
    expected = "" if s.expected_guesses is None else f", {s.expected_guesses:g} guesses expected"
    return f"{s.guess}  ({s.source}: {len(s.candidates)} candidate{'s' * (len(s.candidates) != 1)} left{expected})"


def suggestion_lines(s: Suggestion, every: bool = False) -> list[str]:
    """What `next` prints: the note when the candidates are beyond the list, the guess line, and
    the candidates when there are at most 10 of them (`every`: all of them)."""
    lines = [s.note] if s.note else []
    lines.append(guess_line(s))
    if s.source != "solved" and (every or len(s.candidates) <= 10):
        lines.append("candidates: " + " ".join(s.candidates))
    return lines


def candidate_lines(position: Position, width: int = 79) -> list[str]:
    """Every candidate left, with their count (and the note when they are beyond the list): a
    word filter's answer."""
    import textwrap

    n = len(position.candidates)
    lines = [WIDENED_NOTE] if position.widened else []
    lines.append(f"{n} candidate{'s' * (n != 1)} left")
    return lines + textwrap.wrap(" ".join(position.candidates), width, break_on_hyphens=False)


def summary_lines(doc: dict) -> list[str]:
    g, s = doc["game"], doc["stats"]
    cap = "no cap" if g["max_guesses"] is None else f"at most {g['max_guesses']} guesses"
    lines = [
        f"game: {g['name']}, {g['mode']} mode, {cap}, first guess {doc['root']['guess']}",
        f"answers: {g['answers']} ({g['answers_count']})  guesses: {g['guesses']} ({g['guesses_count']})",
        f"total {s['total']}  mean {s['mean']}  worst {s['worst']}",
        f"objective {s.get('objective')}  optimal {s.get('optimal')}"
        f"{' given the first guess' if s.get('first_guess') == 'given' else ''}  proof {s.get('proof')}"
        f"  {s.get('seconds')} s  {s.get('engine')}",
    ]
    return lines + histogram_lines(s["histogram"])


# ------------------------------------------------------------------------------------------------
# play
# ------------------------------------------------------------------------------------------------
def play_answer(position: Position, answer: str, ansi: bool) -> list[str]:
    """The rows the tree plays against `answer`, then `solved in N`. An allowed guess that is no
    answer of the list is played as the suggestions go (the tree while it can, then beyond the
    list), with the note said where the candidates widen."""
    word = position.game.normal_word(answer)
    if word in position.game.answer_index and position.doc is not None:
        steps = replay(position.game, position.doc["root"], word, position.cap)
        for guess, pattern in steps:  # each step checked against the feedback rule, as a player's would be
            position.play(guess, pattern)
        return [coloured_row(g, p, ansi) for g, p in steps] + [f"solved in {len(steps)}"]
    if word not in position.game.answer_index and word not in position.full_game.guess_index:
        raise UserError(f"{answer!r} is not an answer in {position.name}, nor an allowed guess")
    rows, game = [], position.full_game
    while not position.solved:
        if len(position.steps) >= MAX_STEPS:
            raise UserError(f"{answer!r}: not solved within {MAX_STEPS} guesses")
        suggestion = position.suggest()
        pattern = game.pattern_text(game.feedback(suggestion.guess, word))
        widened = position.widened
        position.play(suggestion.guess, pattern)
        rows.append(coloured_row(suggestion.guess, pattern, ansi))
        if position.widened and not widened:
            rows.append(WIDENED_NOTE)
    return rows + [f"solved in {len(position.steps)}"]


class WordlePlay:
    """A Position as play.py's loop plays it (play.Playable): the assistant proposes a guess and
    reads what the game showed (PATTERN for the proposed guess, or `WORD PATTERN` for one's own),
    until solved. The note of candidates beyond the list is said once."""

    prompt = "colours (e.g. BBYGB), or WORD COLOURS for your own guess; q to quit:"
    fatal = (TreeDisagrees,)

    def __init__(self, position: Position):
        self.position = position
        self.suggestion = position.suggest()
        self.noted = False

    def proposal(self) -> list[str]:
        return [f"guess {self.suggestion.step + 1}: {guess_line(self.suggestion)}"]

    def parse_reply(self, line: str) -> tuple[str, str]:
        parts = line.split()
        if len(parts) == 1:
            return self.suggestion.guess, parts[0]
        if len(parts) == 2:
            return parts[0], parts[1]
        raise UserError(f"expected COLOURS or WORD COLOURS, got {line.strip()!r}")

    def after(self, step: tuple[str, str]) -> WordlePlay:
        self.position.play(*step)
        self.suggestion = self.position.suggest()
        return self

    def tiles(self) -> list[tuple[str, str | None]]:
        if self.position.game.kind != "wordle":  # a code-breaker's score (2B1W) has no tiles
            return []
        return feedback_cells(*self.position.steps[-1])

    def finished(self) -> bool:
        return self.suggestion.source == "solved"

    def outcome_lines(self) -> list[str]:
        s, lines = self.suggestion, []
        if s.note and not self.noted:
            lines.append(s.note)
            self.noted = True
        if self.finished():
            return lines + [f"solved in {s.step}"]
        n = len(s.candidates)
        listing = ": " + " ".join(s.candidates) if n <= 10 else ""
        return lines + [f"{n} candidate{'s' * (n != 1)} left{listing}"]

    def stopped(self) -> str:
        return f"stopped after {len(self.position.steps)} guess(es)"
