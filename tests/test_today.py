"""Today's Wordle (issue 39): answers beyond the list, a plain listing of the candidates, a step
missing its colours, options anywhere on the command line, and a preset played with no tree.

The case found in use: the answer was EMOJI, an allowed word but none of the 2315 original
answers; `next salet:BBBYB drone:BBGBY` offered epoch epoxy and refused epoch's real colours.
The exact engine is replaced by a stand-in here (it is compiled only by the slow test), except
where one candidate is left and no engine is asked."""

import orjson
import pytest

import reference
import reference_trees as rt
from wordtree.wordle import player
from wordtree.errors import UserError
from wordtree.games import get_game
from wordtree.play import play
from wordtree.wordle.player import WIDENED_NOTE, WordlePlay, lookup, play_answer, position_after
from wordtree.wordle.tree import read_tree

EMOJI_STEPS = ["salet:BBBYB", "drone:BBGBY", "epoch:GBGBB"]  # the real game's colours for EMOJI


def test_the_shipped_wordle_tree_is_there():
    """Every test here plays the shipped Wordle tree: one missing is a failure, not a skip."""
    assert player.DEFAULT_TREE.is_file(), f"{player.DEFAULT_TREE} is missing: the shipped Wordle tree"


@pytest.fixture(scope="module")
def doc():
    return read_tree(player.DEFAULT_TREE)


@pytest.fixture(scope="module")
def allowed():
    return list(get_game("wordle").guesses)


@pytest.fixture
def engine(monkeypatch):
    """A stand-in for the exact engine: records what it is asked, proposes the last candidate."""
    import wordtree.exact.solver

    calls = []

    def fake_best_guess(game, ids, guesses_left, mode="normal", matrix=None):
        calls.append(([game.answers[i] for i in ids], guesses_left, mode, matrix is not None))
        return game.answers[ids[-1]], 2 * len(ids) - 1

    monkeypatch.setattr(wordtree.exact.solver, "best_guess", fake_best_guess)
    return calls


def fitting(words, steps):
    pairs = [step.split(":") for step in steps]
    return [w for w in words if all(reference.wordle_feedback(g, w) == p for g, p in pairs)]


# --- answers beyond the list ---------------------------------------------------------------------
def test_the_list_still_fits_before_the_last_step(doc, engine):
    s = lookup(doc, EMOJI_STEPS[:2])
    assert (s.guess, s.source, s.candidates, s.note) == ("epoch", "tree", ["epoch", "epoxy"], None)


def test_feedback_no_answer_fits_widens_to_the_allowed_guesses(doc, allowed, engine):
    s = lookup(doc, EMOJI_STEPS)
    assert s.candidates == fitting(allowed, EMOJI_STEPS) == ["ebook", "emoji"]
    assert (s.source, s.note) == ("exact", WIDENED_NOTE)
    assert engine == [(["ebook", "emoji"], 3, "normal", True)]  # the candidates as the answers of its game
    assert (s.guess, s.expected_guesses) == ("emoji", 1.5)
    assert s.as_json()["note"] == WIDENED_NOTE


def test_widened_play_goes_on_and_is_checked_by_the_feedback_rule(doc, engine):
    s = lookup(doc, [*EMOJI_STEPS, "ebook:GBGBB"])
    assert (s.guess, s.source, s.candidates, s.note) == ("emoji", "exact", ["emoji"], WIDENED_NOTE)
    solved = lookup(doc, [*EMOJI_STEPS, "emoji:GGGGG"])
    assert (solved.source, solved.step) == ("solved", 4)
    with pytest.raises(UserError, match=r"step 4 \(ebook:GGGGB\): GGGGB cannot occur here"):
        lookup(doc, [*EMOJI_STEPS, "ebook:GGGGB"])


def test_a_large_widened_set_gets_a_heuristic_suggestion(doc, allowed, engine, monkeypatch):
    s = lookup(doc, EMOJI_STEPS, exact_limit=1)
    assert (s.source, s.note, s.expected_guesses) == ("heuristic", WIDENED_NOTE, None) and s.guess in allowed
    assert engine == []


def test_feedback_nothing_allowed_fits_still_cannot_occur(doc):
    with pytest.raises(UserError, match=r"step 1 \(salet:GGGGY\): GGGGY cannot occur here"):
        lookup(doc, ["salet:GGGGY"])


def test_play_interactive_says_so_once_and_goes_on(doc, engine):
    said = []
    lines = iter(["BBBYB", "drone BBGBY", "epoch GBGBB", "GGGGG"])
    assert play(WordlePlay(position_after(doc, [])), lines, said.append, interactive=False, colour=False) == 0
    assert said.count(WIDENED_NOTE) == 1
    note = said.index(WIDENED_NOTE)
    assert said[note + 1] == "2 candidates left: ebook emoji"
    assert said[note + 2].startswith("guess 4: emoji  (exact: 2 candidates left")
    assert said[-1] == "solved in 4"


def test_play_against_an_allowed_word_beyond_the_list(doc, engine):
    rows = play_answer(position_after(doc, []), "EMOJI", ansi=False)
    assert rows[:4] == ["salet BBBYB", "drone BBGBY", "epoch GBGBB", WIDENED_NOTE]
    assert rows[-2:] == ["emoji GGGGG", "solved in 4"]
    with pytest.raises(UserError, match="'qqqqq' is not an answer in wordle .*, nor an allowed guess"):
        play_answer(position_after(doc, []), "qqqqq", ansi=False)


def test_cli_next_beyond_the_list():
    out = rt.run_cli("next", *EMOJI_STEPS, "ebook:GBGBB")  # one candidate left: no engine asked
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [WIDENED_NOTE, "emoji  (exact: 1 candidate left, 1 guesses expected)",
                                       "candidates: emoji"]
    data = orjson.loads(rt.run_cli("next", *EMOJI_STEPS, "ebook:GBGBB", "--json").stdout)
    assert (data["guess"], data["candidate_words"], data["note"]) == ("emoji", ["emoji"], WIDENED_NOTE)


def test_cli_feedback_takes_any_allowed_word_as_the_answer():
    out = rt.run_cli("feedback", "drone", "emoji")
    assert out.returncode == 0 and out.stdout.strip() == "BBGBY", out.stderr
    out = rt.run_cli("feedback", "-", stdin="salet emoji\nepoch emoji\n")
    assert out.stdout.split() == ["BBBYB", "GBGBB"]
    rt.assert_one_line_error(rt.run_cli("feedback", "drone", "qqqqq"), "'qqqqq' is not an allowed word in wordle")


# --- the candidates, listed ----------------------------------------------------------------------
def test_cli_candidates_lists_every_one_with_the_count(doc):
    out = rt.run_cli("candidates", "salet:BBBBB")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    want = fitting(get_game("wordle").answers, ["salet:BBBBB"])
    assert lines[0] == f"{len(want)} candidates left" and " ".join(lines[1:]).split() == want
    assert max(len(line) for line in lines) <= 79
    out = rt.run_cli("candidates", *EMOJI_STEPS)
    assert out.stdout.splitlines() == [WIDENED_NOTE, "2 candidates left", "ebook emoji"]
    out = rt.run_cli("candidates", "--game", "wordle-nyt2023", *EMOJI_STEPS[:2])
    assert out.stdout.splitlines() == ["4 candidates left", "ebook emoji epoch epoxy"]


def test_cli_next_all_lists_every_candidate():
    out = rt.run_cli("next", "salet:BBBBB", "--all")
    assert out.returncode == 0, out.stderr
    listed = out.stdout.splitlines()[-1]
    assert listed.startswith("candidates: ") and len(listed.split()) - 1 == 221
    assert len(rt.run_cli("next", "salet:BBBBB").stdout.splitlines()) == 1  # more than 10: not listed


def test_a_guess_without_its_colours_says_what_is_missing():
    rt.assert_one_line_error(rt.run_cli("next", "salet"), "salet: give the colours you got, e.g. salet:BBYBB")
    rt.assert_one_line_error(rt.run_cli("next", "salet:BBBBB", "courd"), "courd: give the colours you got")
    rt.assert_one_line_error(rt.run_cli("candidates", "salet"), "salet: give the colours you got")
    rt.assert_one_line_error(rt.run_cli("next", "missing.json"), "tree file not found")


def test_options_anywhere_among_the_steps():
    tree = str(player.DEFAULT_TREE)
    before = rt.run_cli("next", tree, "salet:BBBBB", "--json")
    after = rt.run_cli("next", tree, "--json", "salet:BBBBB")
    assert after.returncode == 0, after.stderr
    assert orjson.loads(after.stdout) == orjson.loads(before.stdout)
    assert orjson.loads(after.stdout)["guess"] == "courd"
    out = rt.run_cli("candidates", "salet:BBBYB", "--game", "wordle-nyt2023", "drone:BBGBY")
    assert out.stdout.splitlines()[0] == "4 candidates left", out.stderr
    rt.assert_one_line_error(rt.run_cli("next", tree, "--game", "wordle-nyt2023"), "a tree file or --game")


# --- today's game, with no tree -------------------------------------------------------------------
def test_next_on_todays_preset_with_no_tree():
    out = rt.run_cli("next", "--game", "wordle-nyt2023", *EMOJI_STEPS, "ebook:GBGBB")  # emoji is one of its answers
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["emoji  (exact: 1 candidate left, 1 guesses expected)", "candidates: emoji"]
    first = orjson.loads(rt.run_cli("next", "--game", "wordle-nyt2023", "--json").stdout)
    assert (first["source"], first["candidates"], first["guess"]) == ("tree", 3158, "tarse")  # its shipped tree
    first = orjson.loads(rt.run_cli("next", "--game", "wordle-nyt", "--json").stdout)  # a preset with no tree
    assert (first["source"], first["candidates"]) == ("heuristic", 2309)
    assert first["guess"] in get_game("wordle-nyt").guesses


def test_play_on_todays_preset_with_no_tree(engine):
    game = get_game("wordle-nyt2023")
    position = position_after(None, ["salet:BBBYB", "drone:BBGBY"], game=game)
    assert position.candidates == ["ebook", "emoji", "epoch", "epoxy"] and position.cap == 6
    s = position.suggest()
    assert (s.source, s.note) == ("exact", None) and engine[0][:2] == (position.candidates, 4)
    said = []
    lines = iter(["salet BBBYB", "drone BBGBY", "epoch GBGBB", "ebook GBGBB", "GGGGG"])
    assert play(WordlePlay(position_after(None, [], game=game)), lines, said.append, interactive=False,
                colour=False) == 0
    assert "1 candidate left: emoji" in said and said[-1] == "solved in 5" and WIDENED_NOTE not in said


@pytest.mark.slow
def test_the_real_exact_engine_beyond_the_list(doc):
    s = lookup(doc, EMOJI_STEPS)
    assert (s.source, s.candidates, s.expected_guesses) == ("exact", ["ebook", "emoji"], 1.5)
    assert s.guess in ("ebook", "emoji")


# ------------------------------------------------------------------------------------------------
# today's lists have shipped trees: --game finds them, and a shipped tree opens by its name
# ------------------------------------------------------------------------------------------------
def test_game_nyt2023_advises_from_its_shipped_tree(tmp_path):
    out = rt.run_cli("next", "--game", "wordle-nyt2023", "tarse:BBBBB", cwd=tmp_path)
    assert out.returncode == 0 and "(tree: 319 candidates left" in out.stdout, out
    doc = read_tree(rt.ROOT / "trees" / "wordle-nyt2023-tarse-normal.json")
    assert out.stdout.split()[0] == doc["root"]["next"]["BBBBB"]["guess"]


def test_a_shipped_tree_opens_by_its_name_from_any_folder(tmp_path):
    for name in ("wordle-nyt2023-tarse-hard", "wordle-nyt2023-tarse-hard.json"):
        out = rt.run_cli("next", name, "tarse:BBBBB", cwd=tmp_path)
        assert out.returncode == 0 and "(tree: 319 candidates left" in out.stdout, out


def test_the_kept_rank_proves_tarse_the_best_opener_of_the_2023_lists():
    """runs/wordle-nyt2023-rank.tsv (runs/README.md): the full rank of the 14855 openers of the
    NYT 2023 lists, normal mode, cap 6: TARSE 11219 exact, every other opener valued or bounded
    at 11219 or more. Its header names the shipped lists and every opener is there once."""
    rt.assert_kept_rank("wordle-nyt2023-rank.tsv", "wordle-nyt2023", 6,
                        ("nyt-answers-3158-20230701.txt", "nyt-allowed-14855-20220830.txt"), 14855, ("tarse", 11219))


def test_the_kept_hard_mode_rank_proves_tarse_the_best_hard_opener_of_the_2023_lists():
    """runs/wordle-nyt2023-hard-rank.tsv (runs/README.md): the full rank of the 14855 openers of
    the NYT 2023 lists in hard mode, cap 6: TARSE 11627 exact (Selby's published best, with the
    same total), every other opener valued or bounded at 11627 or more, or impossible within 6."""
    rt.assert_kept_rank("wordle-nyt2023-hard-rank.tsv", "wordle-nyt2023", 6,
                        ("nyt-answers-3158-20230701.txt", "nyt-allowed-14855-20220830.txt"), 14855, ("tarse", 11627),
                        mode="hard")


def test_the_preset_and_the_shipped_tree_claim_only_what_the_kept_rank_proves():
    """The opener a build of wordle-nyt2023 takes without --first is TARSE, the kept ranks' best
    in normal and in hard mode; the shipped trees open with it and claim the best opener."""
    from wordtree.data import trees_dir

    rows = [line.split("\t") for line in (rt.ROOT / "runs" / "wordle-nyt2023-rank.tsv").read_text().splitlines()
            if not line.startswith("#")]
    best = min(rows, key=lambda r: (int(r[1]), r[2] != "exact"))
    game = get_game("wordle-nyt2023")
    assert best[2] == "exact" and game.proven_first("normal") == best[0]
    hard_rows = [line.split("\t") for line in (rt.ROOT / "runs" / "wordle-nyt2023-hard-rank.tsv").read_text()
                 .splitlines() if not line.startswith("#")]
    hard_best = [r for r in hard_rows if r[2] == "exact"]
    assert len(hard_best) == 1 and game.proven_first("hard") == game.default_opener("hard") == hard_best[0][0]
    assert game.proven_first("ultra") is None
    normal = orjson.loads((trees_dir() / "wordle-nyt2023-tarse-normal.json").read_bytes())
    assert normal["root"]["guess"] == best[0] and normal["stats"]["total"] == int(best[1])
    assert normal["stats"]["optimal"] is True and "first_guess" not in normal["stats"]
    hard = orjson.loads((trees_dir() / "wordle-nyt2023-tarse-hard.json").read_bytes())
    assert hard["root"]["guess"] == hard_best[0][0] and hard["stats"]["total"] == int(hard_best[0][1])
    assert hard["stats"]["optimal"] is True and "first_guess" not in hard["stats"]


# ------------------------------------------------------------------------------------------------
# `play` plays today's game by default; `next` keeps the original lists, and says how to pick today's
# ------------------------------------------------------------------------------------------------
TODAY_LINE = ("today's Wordle: the NYT lists of 2023 (3158 answers, 14855 guesses), from wordle-nyt2023-tarse-normal; "
              "the original lists: wordtree play wordle-salet-normal")


def test_the_tree_of_todays_game_is_there():
    """play's default: one missing is a failure, not a skip."""
    assert player.TODAY_TREE.is_file(), f"{player.TODAY_TREE} is missing: the tree of today's game"
    assert player.TODAY_TREE.name == "wordle-nyt2023-tarse-normal.json"


def test_play_with_no_tree_plays_todays_lists_and_says_so_first():
    tarse = read_tree(player.TODAY_TREE)
    out = rt.run_cli("play", stdin="BYYBB\ncrane GYYBB\n")  # the example of play --help, as written there
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == TODAY_LINE
    assert lines[1] == "guess 1: tarse  (tree: 3158 candidates left, 3.5526 guesses expected)"
    assert tarse["root"]["guess"] == "tarse" and "BYYBB" in tarse["root"]["next"]
    assert "2 candidates left: cigar cobra" in lines and lines[-1] == "stopped after 2 guess(es)"
    assert "BYYBB\\ncrane GYYBB\\n' | wordtree play" in rt.run_cli("play", "--help").stdout


def test_play_answer_with_no_tree_walks_the_tarse_tree():
    out = rt.run_cli("play", "--answer", "emoji")  # an answer of today's lists only (not of the 2315)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == TODAY_LINE and lines[1].startswith("tarse ") and lines[-1].startswith("solved in ")
    original = rt.run_cli("play", "wordle-salet-normal", "--answer", "crane")
    assert original.returncode == 0 and original.stdout.splitlines()[0].startswith("salet ")
    assert "today's" not in original.stdout
    preset = rt.run_cli("play", "--game", "wordle", "--answer", "crane")  # a preset named: its own tree, no line
    assert preset.stdout.splitlines()[0].startswith("salet ") and "today's" not in preset.stdout


def test_next_keeps_the_original_lists_and_its_help_says_how_to_pick_todays():
    out = rt.run_cli("next", "salet:BBYBB")  # README: the best next guess after SALET scored BBYBB -> courd
    assert out.returncode == 0 and out.stdout.split()[0] == "courd", out
    today = rt.run_cli("next", "--game", "wordle-nyt2023", "tarse:BBYBB")
    named = rt.run_cli("next", "wordle-nyt2023-tarse-normal", "tarse:BBYBB")
    assert today.returncode == 0 and today.stdout == named.stdout and "(tree: " in today.stdout


@pytest.mark.parametrize("command", ["next", "candidates", "play", "grade"])
def test_help_says_what_is_shipped_for_todays_game(command):
    """No help says that today's game has no shipped tree (it has: TARSE's), and each names it."""
    text = " ".join(rt.run_cli(command, "--help").stdout.split())
    assert "no tree of it is shipped" not in text and "wordle-nyt2023-tarse-normal" in text.replace("- ", "-")
    if command == "play":
        assert "default: today's game" in text
    else:
        assert "default: wordle-salet-normal, the original lists" in text.replace("- ", "-")


def test_a_missing_tree_of_todays_game_is_one_line(monkeypatch, tmp_path, capsys):
    from wordtree.commands import main

    monkeypatch.setattr(player, "TODAY_TREE", tmp_path / "wordle-nyt2023-tarse-normal.json")
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("q\n"))
    assert main(["play"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the tree of today's game" in err[0] and "is missing" in err[0]


def test_info_names_the_proven_openers_of_each_mode(tmp_path):
    """`wordtree info` says which first guess a full rank proved the best, in each mode that has
    one: TARSE in normal and in hard mode for the 2023 lists, SALET in normal mode only for the
    original lists."""
    out = rt.run_cli("info", "wordle-nyt2023", cwd=tmp_path)
    assert out.returncode == 0, out
    assert "proven best first guess (normal mode): tarse" in out.stdout
    assert "proven best first guess (hard mode): tarse" in out.stdout
    data = orjson.loads(rt.run_cli("info", "wordle-nyt2023", "--json", cwd=tmp_path).stdout)
    assert data["proven_first"] == data["proven_first_hard"] == "tarse"
    plain = rt.run_cli("info", cwd=tmp_path)
    assert "(normal mode): salet" in plain.stdout and "(hard mode)" not in plain.stdout
    assert orjson.loads(rt.run_cli("info", "--json", cwd=tmp_path).stdout)["proven_first_hard"] is None
