"""The shared play loop (engine/play.py) with a tiny fake game: stopping (q, the end of the input),
a bad line in a terminal and in a pipe, a fatal error, a finished game, Ctrl-C, and the colour
rules (a terminal, NO_COLOR, a pipe)."""

import pytest

from wordtree.errors import UserError
from wordtree.play import ANSI, RESET, Playable, colour_wanted, play, tile_row


class Broken(UserError):
    """The fake's fatal error."""


class Fake:
    """Guess the word "ab": the proposal is "ab"; a reply is a word of one's own and its hits as
    G/B (`xy BB`), or the hits alone for the proposal. "boom" is fatal, anything else odd a
    UserError. Won on GG."""

    prompt = "hits (GB), or WORD HITS; q to quit:"
    fatal = (Broken,)

    def __init__(self):
        self.steps = []

    def proposal(self):
        return [f"guess {len(self.steps) + 1}: ab"]

    def parse_reply(self, line):
        parts = line.split()
        if parts == ["boom"]:
            raise Broken("the fake is broken")
        if len(parts) == 1:
            parts = ["ab", parts[0]]
        if len(parts) != 2 or len(parts[1]) != 2 or set(parts[1]) - set("GB"):
            raise UserError(f"expected HITS or WORD HITS, got {line.strip()!r}")
        return tuple(parts)

    def after(self, step):
        self.steps.append(step)
        return self

    def tiles(self):
        word, hits = self.steps[-1]
        return [(ch, "green" if h == "G" else "grey") for ch, h in zip(word, hits)]

    def finished(self):
        return bool(self.steps) and self.steps[-1][1] == "GG"

    def outcome_lines(self):
        return [f"won in {len(self.steps)}"] if self.finished() else [f"{len(self.steps)} played"]

    def stopped(self):
        return f"stopped after {len(self.steps)}"


def run(lines, interactive=False, colour=False, position=None):
    said = []
    code = play(position or Fake(), iter(lines), said.append, interactive, colour)
    return code, said


@pytest.fixture(autouse=True)
def colour_allowed(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)


def test_the_fake_follows_the_protocol():
    position: Playable = Fake()  # what a type checker checks; here, that every method is there
    assert all(callable(getattr(position, name)) for name in
               ("proposal", "parse_reply", "after", "tiles", "finished", "outcome_lines", "stopped"))


@pytest.mark.parametrize("stop", ["q", " Q \n", "quit", "EXIT\n"])
def test_q_stops(stop):
    code, said = run(["xy BB\n", stop, "GG"])
    assert code == 0 and said == ["guess 1: ab", "1 played", "guess 2: ab", "stopped after 1"]


def test_the_end_of_the_input_stops():
    assert run([]) == (0, ["guess 1: ab", "stopped after 0"])
    assert run(["BG\n"]) == (0, ["guess 1: ab", "1 played", "guess 2: ab", "stopped after 1"])


def test_a_finished_game_reads_no_more():
    lines = iter(["BB", "GG", "not read"])
    said = []
    assert play(Fake(), lines, said.append, False, False) == 0
    assert said == ["guess 1: ab", "1 played", "guess 2: ab", "won in 2"]
    assert next(lines) == "not read"


def test_a_bad_line_in_a_pipe_is_raised():
    with pytest.raises(UserError, match="expected HITS or WORD HITS, got 'GGG'"):
        run(["GGG\n", "GG\n"])
    with pytest.raises(UserError, match="got ''"):  # an empty line is a reply too: the fake refuses it
        run(["\n"])


def test_a_bad_line_in_a_terminal_is_asked_again():
    code, said = run(["GGG\n", "\n", "GG\n"], interactive=True)
    ask = ["guess 1: ab", Fake.prompt]
    assert code == 0 and said == ask + ["wordtree: expected HITS or WORD HITS, got 'GGG'"] + ask + \
        ["wordtree: expected HITS or WORD HITS, got ''"] + ask + ["won in 1"]


def test_a_fatal_error_ends_the_game_in_a_terminal_too():
    with pytest.raises(Broken):
        run(["boom\n", "GG\n"], interactive=True)


def test_ctrl_c_reaches_the_caller():
    def lines():
        yield "BB"
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play(Fake(), lines(), lambda text: None, True, False)


# --- colours -----------------------------------------------------------------------------------
def test_tiles_on_a_terminal():
    code, said = run(["xb BG", "GG"], colour=True)
    tiles = [f"{ANSI['grey']} X {RESET}{ANSI['green']} B {RESET}", f"{ANSI['green']} A {RESET}{ANSI['green']} B {RESET}"]
    assert code == 0 and said == ["guess 1: ab", tiles[0], "1 played", "guess 2: ab", tiles[1], "won in 2"]


@pytest.mark.parametrize("no_color, terminal, coloured", [(None, True, True), ("", True, True), ("1", True, False),
                                                         ("0", True, False), (None, False, False)])
def test_the_colour_rules(monkeypatch, no_color, terminal, coloured):
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert colour_wanted(terminal) is coloured
    code, said = run(["xb BG", "GG"], colour=terminal)
    assert code == 0 and any("\x1b[" in text for text in said) is coloured
    plain = ["guess 1: ab", "1 played", "guess 2: ab", "won in 2"]
    assert [text for text in said if "\x1b[" not in text] == plain  # colours add tiles, change no text


def test_colour_wanted_reads_the_environment_given():
    assert colour_wanted(True, {}) and colour_wanted(True, {"NO_COLOR": ""})
    assert not colour_wanted(True, {"NO_COLOR": "yes"}) and not colour_wanted(False, {})


def test_a_tile_row():
    assert tile_row([("a", "yellow"), (" ", None), ("=", None)]) == f"{ANSI['yellow']} A {RESET}    = "
    assert tile_row([]) == ""


def test_no_tiles_no_line():
    class Plain(Fake):
        def tiles(self):
            return []

    assert run(["GG"], colour=True, position=Plain()) == (0, ["guess 1: ab", "won in 1"])
