"""Wordle on word lists of any alphabet (Spanish with ñ, Russian, Greek, Portuguese with accents
folded): lists read as NFC code points, the pattern matrix and the exact search against plain
references, trees replayed by the verifier, hard mode, and --fold-accents / --keep-letters."""

import unicodedata
from pathlib import Path

import numpy as np
import orjson
import pytest

import reference
from wordtree.commands import main
from wordtree.errors import UserError
from wordtree.exact.build import build
from wordtree.exact.solver import Infeasible, Solver
from wordtree.games import get_game
from wordtree.games.wordle import A_TO_Z, letters_array
from wordtree.words import LETTERS, fold_text, folding, letter_folding, load_words

DATA = Path(__file__).parent / "data"
SPANISH, RUSSIAN, GREEK = DATA / "spanish-5.txt", DATA / "russian-5.txt", DATA / "greek-5.txt"
PORTUGUESE, PORTUGUESE_FOLDED = DATA / "portuguese-5.txt", DATA / "portuguese-5-folded.txt"


class ReferenceGame:
    """The game as tests/reference.py's oracle sees it, with the reference's own feedback (B/Y/G
    text) instead of the engine's, so the totals are checked by an independent rule."""

    def __init__(self, words):
        self.guesses = self.answers = list(words)
        self.win_code = "G" * len(words[0])

    feedback = staticmethod(reference.wordle_feedback)

    @staticmethod
    def pattern_text(code):
        return code


def game_on(path, **folded):
    with letter_folding(**folded):
        return get_game("wordle", str(path), str(path))


def cli(capsys, *args):
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_shipped_test_lists_are_there():
    """A missing list fails here, never skips."""
    for path in (SPANISH, RUSSIAN, GREEK, PORTUGUESE, PORTUGUESE_FOLDED):
        words = path.read_text(encoding="utf-8").split()
        assert 20 <= len(words) <= 60 and len(set(words)) == len(words), path


def test_lists_read_as_nfc_code_points_any_case(tmp_path):
    """A list in NFD (as macOS writes ñ: n + combining tilde) or in capitals is the same list as in
    NFC lowercase: same words, same fingerprint; a word's length is its letters, not its bytes."""
    nfc = load_words(SPANISH, length=5, alphabet=LETTERS)
    nfd = tmp_path / "nfd.txt"
    nfd.write_text(unicodedata.normalize("NFD", SPANISH.read_text(encoding="utf-8")).upper(), encoding="utf-8")
    assert len(nfd.read_bytes()) > len(SPANISH.read_bytes())
    again = load_words(nfd, length=5, alphabet=LETTERS)
    assert again.words == nfc.words and again.sha256 == nfc.sha256
    assert "señor" in nfc.words and all(len(w) == 5 for w in nfc.words)
    russian = load_words(RUSSIAN, length="first", alphabet=LETTERS)
    assert len(russian) == 37 and "ёжики" in russian.words


def test_a_character_that_is_no_letter_is_refused_and_a_to_z_lists_still_are_a_to_z(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("señor\nba1os\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"bad.txt:2: 'ba1os' has a character that is not a letter: '1'"):
        load_words(path, length=5, alphabet=LETTERS)
    with pytest.raises(UserError, match="outside a-z: 'ñ'"):  # the default alphabet (Hangman's lists)
        load_words(SPANISH, length=5)


def test_folding_drops_marks_but_keeps_the_letters_asked_for():
    assert fold_text("nação força saúde órgão") == "nacao forca saude orgao"
    assert fold_text("über straße") == "uber straße"  # ß has no mark to drop
    assert fold_text("φίλος ψυχή") == "φιλοσ ψυχη"  # tonos dropped, ς is σ as the capitals Σ show
    assert fold_text("señor cañón", keep="ñ") == "señor cañon"
    assert fold_text("señor cañón") == "senor canon"
    assert folding(True, "Ñ").keep == "ñ"
    with pytest.raises(UserError, match="is not a letter"):
        folding(True, "ñ1")


@pytest.mark.parametrize("path", [SPANISH, RUSSIAN, GREEK])
def test_pattern_matrix_matches_the_reference_feedback(path):
    game = game_on(path)
    assert game.alphabet != A_TO_Z and len(game.alphabet) > 20
    matrix = game._compute_matrix()
    for g, guess in enumerate(game.guesses):
        for a, answer in enumerate(game.answers):
            assert game.pattern_text(int(matrix[g, a])) == reference.wordle_feedback(guess, answer), (guess, answer)


def test_a_to_z_lists_keep_their_letter_numbers():
    game = get_game("wordle", str(DATA.parent.parent / "wordlists" / "wordle-answers-every40-58.txt"),
                    str(DATA.parent.parent / "wordlists" / "wordle-answers-every40-58.txt"))
    assert game.alphabet == A_TO_Z
    letters = letters_array(game.guesses, 5, game.alphabet)
    assert letters.tolist() == [[ord(c) - ord("a") for c in w] for w in game.guesses]
    solver = Solver(game, game._compute_matrix(), 6, mode="hard")
    assert solver.state_size == 5 + 26 and solver.counts.shape == (len(game.guesses), 26)


@pytest.mark.parametrize("path", [SPANISH, RUSSIAN, GREEK])
def test_exact_tree_is_the_brute_force_optimum_and_verifies(path):
    from wordtree.wordle.tree import make_document
    from wordtree.wordle.verify import load_lists, verify

    game = game_on(path)
    result = build(game, game._compute_matrix(), max_guesses=6, progress=False)
    assert result.total == reference.optimal_total(ReferenceGame(game.answers), game.answers, 6)
    doc = make_document(game, result.root, depths=result.depths)
    report = verify(doc, *load_lists(doc, str(path), str(path)))
    assert report.ok and report.total == result.total, report


def test_hard_mode_on_cyrillic_matches_the_brute_force():
    words = load_words(RUSSIAN, length=5, alphabet=LETTERS).words[:22]  # the oracle's hard mode is slow
    from wordtree.games.wordle import Wordle
    from wordtree.words import WordList, canonical_sha256

    lst = WordList("ru", "ru", words, canonical_sha256(words))
    game = Wordle("wordle", lst, lst)
    solver = Solver(game, game._compute_matrix(), 6, mode="hard")
    assert solver.state_size == 5 + len(game.alphabet) and solver.counts.shape[1] == len(game.alphabet)
    hard = build(game, game._compute_matrix(), max_guesses=6, mode="hard", progress=False).total
    assert hard == reference.optimal_total(ReferenceGame(words), words, 6, hard=True)
    for cap in (3, 4):  # tight caps, where hard mode's constraints decide
        try:
            value = build(game, game._compute_matrix(), max_guesses=cap, mode="hard", progress=False).total
        except Infeasible:
            value = float("inf")
        assert value == reference.optimal_total(ReferenceGame(words), words, cap, hard=True), cap


def test_cli_build_verify_next_feedback_on_spanish(tmp_path, capsys):
    out = tmp_path / "es.json"
    code, stdout, err = cli(capsys, "build", "--answers", SPANISH, "--guesses", SPANISH, "--first", "auto",
                            "-o", out, "--quiet", "--cache-dir", tmp_path)
    assert code == 0, err
    doc = orjson.loads(out.read_bytes())
    game = game_on(SPANISH)
    assert doc["stats"]["total"] == reference.optimal_total(ReferenceGame(game.answers), game.answers, 6)
    assert "fold_accents" not in doc["game"]
    lists = ("--answers", SPANISH, "--guesses", SPANISH)
    code, stdout, err = cli(capsys, "verify", out, *lists)
    assert code == 0, err
    opener = doc["root"]["guess"]
    pattern = reference.wordle_feedback(opener, "señor")
    typed = unicodedata.normalize("NFD", opener.upper())  # typed in capitals, decomposed: the same word
    code, stdout, err = cli(capsys, "candidates", out, *lists, f"{typed}:{pattern}")
    assert code == 0, err and "señor" in stdout
    code, stdout, err = cli(capsys, "feedback", *lists, "SEÑOR", "baños")
    assert (code, stdout.strip()) == (0, reference.wordle_feedback("señor", "baños"))
    code, stdout, err = cli(capsys, "grade", out, *lists, f"{opener}:{pattern}", "--json")
    assert code == 0, err
    assert orjson.loads(stdout)["moves"][0]["loss"] == 0
    code, stdout, err = cli(capsys, "grade", out, *lists, "--fold-accents", f"{opener}:{pattern}")
    assert code == 2 and "a tree says itself how its lists are read" in err
    code, stdout, err = cli(capsys, "play", out, *lists, "--answer", "SEÑOR")
    assert code == 0 and stdout.strip().endswith(f"solved in {len(doc_path(doc['root'], 'señor'))}"), err


def doc_path(node, answer):
    """The guesses the tree plays against `answer`, by the reference feedback."""
    steps = [node["guess"]]
    while node["guess"] != answer:
        node = node["next"][reference.wordle_feedback(node["guess"], answer)]
        steps.append(node["guess"])
    return steps


def test_fold_accents_gives_the_tree_of_the_list_folded_by_hand(tmp_path, capsys):
    """Portuguese as Termo plays it: the list with accents, folded, is the hand-folded list: the
    same fingerprint and tree; the tree records the folding, and every reader applies it."""
    trees = {}
    for name, path, flags in (("folded", PORTUGUESE, ["--fold-accents"]), ("by-hand", PORTUGUESE_FOLDED, [])):
        out = tmp_path / f"{name}.json"
        code, stdout, err = cli(capsys, "build", "--answers", path, "--guesses", path, "--first", "auto", "-o", out,
                                "--quiet", "--cache-dir", tmp_path, *flags)
        assert code == 0, err
        trees[name] = orjson.loads(out.read_bytes())
    folded, by_hand = trees["folded"], trees["by-hand"]
    assert folded["root"] == by_hand["root"] and folded["stats"]["total"] == by_hand["stats"]["total"]
    assert folded["game"]["answers_sha256"] == by_hand["game"]["answers_sha256"]
    assert folded["game"]["fold_accents"] is True and "fold_accents" not in by_hand["game"]
    words = load_words(PORTUGUESE_FOLDED, length=5, alphabet=LETTERS).words
    assert folded["stats"]["total"] == reference.optimal_total(ReferenceGame(words), words, 6)
    lists = ("--answers", PORTUGUESE, "--guesses", PORTUGUESE)  # the accented list: the tree folds it
    code, stdout, err = cli(capsys, "verify", tmp_path / "folded.json", *lists)
    assert code == 0, err
    code, stdout, err = cli(capsys, "candidates", tmp_path / "folded.json", *lists,
                            f"{folded['root']['guess']}:{reference.wordle_feedback(folded['root']['guess'], 'nacao')}")
    assert code == 0 and "nacao" in stdout, err
    code, stdout, err = cli(capsys, "feedback", *lists, "--fold-accents", "NAÇÃO", "nacao")
    assert (code, stdout.strip()) == (0, "GGGGG")
    olson = tmp_path / "folded.olson"
    code, _, err = cli(capsys, "export", tmp_path / "folded.json", *lists, "--format", "olson", "-o", olson)
    assert code == 0, err
    back = tmp_path / "back.json"
    code, _, err = cli(capsys, "import", olson, "--format", "olson", *lists, "--fold-accents", "-o", back)
    assert code == 0, err
    assert orjson.loads(back.read_bytes())["root"] == folded["root"]
    assert orjson.loads(back.read_bytes())["game"]["fold_accents"] is True
    # unfolded, the accented list is another game: the tree is refused, in one line
    code, stdout, err = cli(capsys, "verify", tmp_path / "by-hand.json", *lists)
    assert code == 1 and "not the one the tree was made for" in err and "Traceback" not in err


def test_position_commands_fold_with_game_and_refuse_folding_with_a_tree(tmp_path, capsys):
    lists = ("--answers", PORTUGUESE, "--guesses", PORTUGUESE)
    pattern = reference.wordle_feedback("nacao", "irmao")
    code, stdout, err = cli(capsys, "candidates", "--game", "wordle", *lists, "--fold-accents", f"NAÇÃO:{pattern}")
    assert code == 0, err
    game = game_on(PORTUGUESE, fold=True)
    fits = [w for w in game.answers if reference.wordle_feedback("nacao", w) == pattern]
    assert "irmao" in fits and all(w in stdout for w in fits) and "irmão" not in stdout
    code, stdout, err = cli(capsys, "next", "--game", "wordle", *lists, "--fold-accents", "--json")
    assert code == 0, err
    assert orjson.loads(stdout)["guess"] in game.guesses
    out = tmp_path / "pt.json"
    assert cli(capsys, "build", *lists, "--fold-accents", "-o", out, "--quiet", "--first", "auto")[0] == 0
    for command in ("next", "candidates"):
        code, _, err = cli(capsys, command, out, *lists, "--fold-accents")
        assert code == 2 and "a tree says itself how its lists are read" in err
    code, _, err = cli(capsys, "next", "--game", "hangman", "--fold-accents", "_e___")
    assert code == 2 and "not a Hangman position" in err


def test_spanish_keeps_n_tilde_apart_when_folding(tmp_path, capsys):
    out = tmp_path / "es.json"
    code, _, err = cli(capsys, "build", "--answers", SPANISH, "--guesses", SPANISH, "--fold-accents",
                       "--keep-letters", "ñ", "-o", out, "--quiet", "--cache-dir", tmp_path, "--first", "auto")
    assert code == 0, err
    doc = orjson.loads(out.read_bytes())
    assert doc["game"]["keep_letters"] == "ñ"
    with letter_folding(True, "ñ"):
        words = load_words(SPANISH, length=5, alphabet=LETTERS).words
    assert "señor" in words and "arbol" in words and "cañon" in words
    assert doc["stats"]["total"] == reference.optimal_total(ReferenceGame(words), words, 6)
    code, _, err = cli(capsys, "verify", out, "--answers", SPANISH, "--guesses", SPANISH)
    assert code == 0, err


@pytest.mark.parametrize("args, message", [
    (["info", "--keep-letters", "ñ"], "--keep-letters needs --fold-accents"),
    (["info", "--fold-accents", "--keep-letters", "ñ1"], "is not a letter"),
    (["feedback", "--game", "mastermind", "--fold-accents", "1234", "1234"], "not of mastermind"),
    (["rank", "--answers", PORTUGUESE, "--guesses", PORTUGUESE, "--fold-accents", "--scheduler", "local"],
     "does not reach the workers"),
    (["info", "--fold-accents", "--keep-letters", " "], "needs the letters to keep"),
])
def test_folding_flags_refused_where_they_mean_nothing(capsys, args, message):
    code, _, err = cli(capsys, *args)
    assert code == 2 and message in err and "Traceback" not in err


def test_a_tree_whose_folding_fields_are_of_the_wrong_type_is_one_line(tmp_path, capsys):
    out = tmp_path / "pt.json"
    code, _, err = cli(capsys, "build", "--answers", PORTUGUESE, "--guesses", PORTUGUESE, "--fold-accents",
                       "-o", out, "--quiet", "--cache-dir", tmp_path, "--first", "auto")
    assert code == 0, err
    for key, value, wanted in (("fold_accents", "yes", "true or false"), ("keep_letters", ["ñ"], "a string of letters"),
                               ("keep_letters", "1", "a string of letters")):
        doc = orjson.loads(out.read_bytes())
        doc["game"][key] = value
        bad = tmp_path / "bad.json"
        bad.write_bytes(orjson.dumps(doc))
        code, _, err = cli(capsys, "verify", bad, "--answers", PORTUGUESE, "--guesses", PORTUGUESE)
        assert code == 1 and f"game.{key} must be {wanted}" in err, err
