"""Hangman lookups (`next` and `play` on a Hangman tree): the walk by the letters guessed, checked
against a hand walk of the shipped tree; off the tree, the exact letter against a slow expectimax
written here, and the heuristic label; the words left against a plain filter; contradictions and
hostile files as one-line errors through the command line; a scripted game of `play` to a win."""

import io
import random
import subprocess
import sys
from functools import lru_cache

import orjson
import pytest

import reference_trees as rt
from wordtree.commands import main
from wordtree.errors import UserError
from wordtree.hangman import lookup as L

TREES = rt.ROOT / "trees" / "hangman"
ENABLE = rt.ROOT / "wordlists" / "enable1.txt"


@pytest.fixture(scope="module")
def five():
    return L.HangmanTree.open(TREES / "hangman-5.json")


def feedback(letter: str, word: str) -> str:
    return "".join(ch if ch == letter else "-" for ch in word)


def plain_filter(words, pattern: str, missed: str) -> list[str]:
    """The words of a position, written the slow way: each guessed letter shows in the word
    exactly where the pattern shows it."""
    guessed = set(missed) | set(pattern) - {"_"}
    return [w for w in words if len(w) == len(pattern)
            and all(feedback(c, w) == feedback(c, pattern.replace("_", "-")) for c in guessed)]


def leaves(node, misses=0):
    """(word, wrong guesses, lost) of every word below `node`, by hand."""
    if isinstance(node, str):
        return [(node, misses, False)]
    if "lost" in node:
        return [(w, misses, True) for w in node["lost"]]
    return [leaf for key, child in node["next"].items()
            for leaf in leaves(child, misses + (node["guess"] not in key))]


def random_walk(root, rng):
    """A random path down the tree: its (letter, branch) steps and the node it ends at."""
    node, steps = root, []
    while isinstance(node, dict) and "lost" not in node and rng.random() < 0.85:
        key = rng.choice(sorted(node["next"]))
        steps.append((node["guess"], key))
        node = node["next"][key]
    return steps, node


def position_of(steps, length: int) -> tuple[str, str]:
    pattern, missed = ["_"] * length, ""
    for letter, key in steps:
        if letter in key:
            pattern = [letter if k == letter else p for p, k in zip(pattern, key)]
        else:
            missed += letter
    return "".join(pattern), missed


# ------------------------------------------------------------------------------------------------
# on the tree
# ------------------------------------------------------------------------------------------------
def test_the_walk_by_guessed_letters_gives_the_tree_letter(five):
    doc = orjson.loads((TREES / "hangman-5.json").read_bytes())
    rng = random.Random(5)
    seen_leaf = seen_node = 0
    for _ in range(40):
        steps, node = random_walk(doc["tree"], rng)
        if isinstance(node, dict) and "lost" in node:
            continue
        # the same letters guessed in a random order, each reply as the game would show it
        order = steps[:]
        rng.shuffle(order)
        pattern, missed = "_" * 5, ""
        for letter, key in order:
            shown = key if letter in key else rng.choice([key, "", "-"])
            pattern, missed = L.after_guess(five, pattern, missed, letter, shown)
        want = position_of(steps, 5)
        assert (pattern, sorted(missed)) == (want[0], sorted(want[1]))
        advice = five.advise(pattern, missed, max_nodes=1)
        if "_" not in pattern:  # the last letter guessed showed the whole word
            assert (advice.status, advice.word, advice.letter) == ("won", node, None)
            continue
        below = leaves(node, sum(letter not in key for letter, key in steps))
        words = sorted(w for w, _, _ in below)
        assert advice.source == "tree" and advice.words == words == plain_filter(five.words, pattern, missed)
        expected = sum(-m if lost else 20 - m for _, m, lost in below) / len(below)
        assert advice.expected_score == pytest.approx(expected, abs=1e-6)
        assert advice.wrong_guesses_left == 10 - len(missed)
        if isinstance(node, str):
            seen_leaf += 1
            assert advice.word == node and advice.letter in node and advice.letter not in pattern
            assert set(advice.to_guess) == set(node) - set(pattern)
        else:
            seen_node += 1
            assert advice.letter == node["guess"] and advice.word is None
    assert seen_leaf and seen_node


def test_the_root_and_its_score(five):
    advice = five.advise("_____")
    doc = orjson.loads((TREES / "hangman-5.json").read_bytes())
    assert (advice.letter, advice.source) == (doc["tree"]["guess"], "tree")
    assert advice.expected_score == doc["result"]["expected_score"] and len(advice.words) == doc["game"]["words_count"]
    assert five.advise("._...").letter == five.advise("_____").letter  # "." is a hidden letter too


def test_a_free_hit_stays_on_the_tree_and_a_wasted_miss_leaves_it(five):
    doc = orjson.loads((TREES / "hangman-5.json").read_bytes())
    rng = random.Random(7)
    found = 0
    for _ in range(300):
        steps, node = random_walk(doc["tree"], rng)
        if not isinstance(node, dict) or "lost" in node:
            continue
        pattern, missed = position_of(steps, 5)
        words = plain_filter(five.words, pattern, missed)
        guessed = set(pattern) | set(missed)
        free = [c for c in L.LETTERS if c not in guessed and len({feedback(c, w) for w in words}) == 1
                and c in words[0]]
        absent = [c for c in L.LETTERS if c not in guessed and not any(c in w for w in words)]
        if not free or not absent:
            continue
        c = free[0]
        shown = "".join(c if k == c else p for p, k in zip(pattern, feedback(c, words[0])))
        advice = five.advise(shown, missed)
        assert (advice.source, advice.letter, advice.words) == ("tree", node["guess"], words)
        wasted = five.advise(pattern, missed + absent[0], max_nodes=1)
        assert wasted.source != "tree" and wasted.words == words and wasted.wrong_guesses_left == 9 - len(missed)
        found += 1
        if found == 3:
            break
    assert found


def test_the_words_left_are_a_plain_filter(five):
    rng = random.Random(11)
    for pattern, missed in [("_e___", "sa"), ("_ee__", ""), ("s___s", "e"), ("_____", "aeiou"), ("__a__", "")]:
        assert five.advise(pattern, missed, max_nodes=1).words == plain_filter(five.words, pattern, missed)
    for _ in range(20):  # a random word's position after random letters
        word = rng.choice(five.words)
        letters = rng.sample(L.LETTERS, rng.randint(1, 6))
        pattern = "".join(ch if ch in letters else "_" for ch in word)
        missed = "".join(c for c in letters if c not in word)
        if "_" in pattern and len(missed) <= 10:
            advice = five.advise(pattern, missed, max_nodes=1)
            assert word in advice.words and advice.words == plain_filter(five.words, pattern, missed)
    # a revealed letter is revealed wherever it stands: `_e___` leaves out words with e elsewhere
    assert "geese" not in five.advise("_e___", max_nodes=1).words


# ------------------------------------------------------------------------------------------------
# off the tree: the exact search against a slow expectimax, and the heuristic
# ------------------------------------------------------------------------------------------------
LIVES = 2


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A small game (3-letter words, 2 lives) with a frequency-rule tree: most positions are off it."""
    from wordtree.hangman.driver import build_length

    folder = tmp_path_factory.mktemp("tiny")
    threes = sorted({w for w in ENABLE.read_text().split() if len(w) == 3 and set(w) <= set("abcdeilnorst")})
    words = sorted(random.Random(3).sample(threes, 22))
    (folder / "w.txt").write_text("\n".join(words) + "\n")
    build_length(3, folder / "t.json", words=str(folder / "w.txt"), lives=LIVES, strategy="frequency", progress=False)
    return L.HangmanTree.open(folder / "t.json", str(folder / "w.txt")), words, folder


def expectimax(words, lives: int):
    """best(candidates, guessed, misses) -> (total score, total wrong guesses) of the best play,
    largest score then fewest wrong guesses, over every letter a candidate holds."""

    @lru_cache(maxsize=None)
    def best(cands: frozenset, guessed: frozenset, misses: int) -> tuple[int, int]:
        if misses > lives:
            return -misses * len(cands), misses * len(cands)
        if len(cands) == 1 and set(next(iter(cands))) <= guessed:
            return 20 - misses, misses
        return max((opening(cands, guessed, misses, c) for c in sorted(set("".join(cands)) - guessed)),
                   key=lambda v: (v[0], -v[1]))

    def opening(cands, guessed, misses, letter) -> tuple[int, int]:
        groups: dict[str, list[str]] = {}
        for w in cands:
            groups.setdefault(feedback(letter, w), []).append(w)
        score = wrong = 0
        for key, group in groups.items():
            s, m = best(frozenset(group), guessed | {letter}, misses + (letter not in key))
            score, wrong = score + s, wrong + m
        return score, wrong

    return best, opening


def test_off_the_tree_the_exact_letter_is_best(tiny):
    tree, words, _ = tiny
    best, opening = expectimax(words, LIVES)
    rng = random.Random(2)
    checked = set()
    for _ in range(400):
        word = rng.choice(words)
        letters = rng.sample(sorted(set("abcdeilnorst") | {"z"}), rng.randint(1, 4))
        pattern = "".join(ch if ch in letters else "_" for ch in word)
        missed = "".join(sorted(c for c in letters if c not in word))
        if "_" not in pattern or len(missed) > LIVES or (pattern, missed) in checked:
            continue
        checked.add((pattern, missed))
        advice = tree.advise(pattern, missed)
        cands = plain_filter(words, pattern, missed)
        assert advice.words == cands
        if advice.source == "tree":
            continue
        guessed = frozenset(missed) | frozenset(pattern) - {"_"}
        optimum = best(frozenset(cands), guessed, len(missed))
        assert advice.source == "exact"
        assert advice.expected_score == pytest.approx(optimum[0] / len(cands), abs=1e-6), (pattern, missed)
        if len(cands) > 1:
            assert opening(frozenset(cands), guessed, len(missed), advice.letter) == optimum, (pattern, missed)
    assert len(checked) > 20


def test_heuristic_when_the_budget_runs_out(tiny, monkeypatch):
    tree, words, _ = tiny
    monkeypatch.setattr(L, "EXACT_NODES", 1)
    pattern, missed = "___", "z"  # a wasted miss: off the tree, with nearly every word left
    cands = plain_filter(words, pattern, missed)
    advice = tree.advise(pattern, missed)
    assert (advice.source, advice.expected_score, advice.words) == ("heuristic", None, cands)
    # the frequency rule: the letter that splits the words and misses fewest, ties alphabetical
    useful = [c for c in L.LETTERS if len({feedback(c, w) for w in cands}) > 1]
    assert advice.letter == min(useful, key=lambda c: (sum(c not in w for w in cands), c))
    assert tree.advise(pattern, missed, max_nodes=10**7).source == "exact"  # the budget, not the set


def test_the_game_over(five):
    won = five.advise("hello", "ab")
    assert (won.status, won.letter, won.word, won.expected_score) == ("won", None, "hello", 18)
    lost = five.advise("_e___", "abcdfghijkm")
    assert (lost.status, lost.letter, lost.wrong_guesses_left) == ("lost", None, 0)
    last = five.advise("_e___", "abcdfghijk", max_nodes=1)
    assert last.status == "playing" and last.wrong_guesses_left == 0


@pytest.mark.parametrize(("pattern", "missed", "needle"), [
    ("_e___", "se", "both missed and revealed"),
    ("_e__", "", "has 4 letters"),
    ("_e_1_", "", "'1' is neither a letter"),
    ("_e___", "s!", "'!' is not a letter"),
    ("xq___", "", "no word of the tree's list fits"),
    ("hello", "abcdfgijkmn", "lose with 10 lives"),
    ("qzqzq", "", "no word of the tree's list"),  # revealed, but no word: not won
    ("hellz", "a", "no word of the tree's list"),
])
def test_contradictions(five, pattern, missed, needle):
    with pytest.raises(UserError, match=needle):
        five.advise(pattern, missed)


def test_replies_that_do_not_follow(five):
    for (letter, shown), needle in [(("e", "_e___"), "guessed already"), (("s", "_s___"), "does not follow"),
                                    (("s", "_____s"), "expected 5 letters"), (("ss", "-"), "not a letter")]:
        with pytest.raises(UserError, match=needle):
            L.after_guess(five, "_e___", "", letter, shown)
    assert L.after_guess(five, "_e___", "", "s", "-") == ("_e___", "s")
    assert L.after_guess(five, "_e___", "", "s", "____s") == ("_e__s", "")
    assert L.after_guess(five, "_e___", "", "s", "_e__s") == ("_e__s", "")
    assert L.after_guess(five, "_e___", "", "s", "-----") == ("_e___", "s")


# ------------------------------------------------------------------------------------------------
# through the command line
# ------------------------------------------------------------------------------------------------
def run(capsys, *args, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(result, code: int, *needles):
    got, _, err = result
    lines = err.strip().splitlines()
    assert got == code and len(lines) == 1 and lines[0].startswith("wordtree: error: "), result
    assert all(n in lines[0] for n in needles), (needles, lines[0])


def test_cli_next_text_and_json(capsys):
    code, out, _ = run(capsys, "next", TREES / "hangman-5.json", "_e___")
    assert code == 0 and out.startswith("t  (tree: 747 words left, 10 wrong guesses left")
    assert out.splitlines()[1].startswith("words: ") and "(737 more: --all lists them)" in out
    code, out, _ = run(capsys, "next", "--game", "hangman", "_e___", "--json", "--missed", "t")
    data = orjson.loads(out)
    assert code == 0 and data["source"] == "tree" and data["wrong_guesses_left"] == 9 and data["missed"] == "t"
    assert data["candidates"] == len(data["candidate_words"]) and data["status"] == "playing"
    code, out, _ = run(capsys, "next", "--game", "hangman", "--all", "--missed", "t", "--", "-e---")  # '-' after --
    assert code == 0 and out.startswith(f"{data['letter']}  (tree:") and "--all" not in out
    assert out.splitlines()[1].split()[1:] == data["candidate_words"]
    code, out, _ = run(capsys, "next", "hangman-3.json")  # a shipped tree by its name
    root = orjson.loads((TREES / "hangman-3.json").read_bytes())["tree"]
    assert code == 0 and out.startswith(f"{root['guess']}  (tree:")


def test_cli_next_on_the_tree_imports_no_numba_or_numpy():
    res = subprocess.run([sys.executable, "-X", "importtime", str(rt.ROOT / "cli.py"), "next", "--game", "hangman",
                          "_e___", "--missed", "t"], capture_output=True, text=True)
    assert res.returncode == 0 and "wordtree.hangman.lookup" in res.stderr and "(tree:" in res.stdout
    imported = {line.split("|")[-1].strip().split(".")[0] for line in res.stderr.splitlines() if "|" in line}
    assert not imported & {"numpy", "numba"}


def test_cli_next_errors(capsys, tmp_path):
    tree = TREES / "hangman-3.json"
    one_line_error(run(capsys, "next", "--game", "hangman", "_e___", "--missed", "e"), 1, "both missed and revealed")
    one_line_error(run(capsys, "next", tree, "_e___"), 1, "has 5 letters", "3-letter words")
    one_line_error(run(capsys, "next", tree, "a1_"), 1, "'1' is neither")
    one_line_error(run(capsys, "next", "--game", "hangman", "_" * 26), 1, "no Hangman tree of 26-letter words",
                   "no word of 26 letters")  # 16 to 28 are searched without a tree; ENABLE has no 26
    one_line_error(run(capsys, "next", "--game", "hangman", "_" * 65), 1, "no Hangman tree of 65-letter words")
    one_line_error(run(capsys, "next", "--game", "hangman", "xq___"), 1, "no word of the tree's list fits")
    one_line_error(run(capsys, "next", "--game", "hangman", tree, "___"), 2, "not both")
    one_line_error(run(capsys, "next", "--game", "wordle", "--missed", "s"), 2, "for Hangman")
    one_line_error(run(capsys, "next", tree, "___", "--guesses", tree), 2, "one word list")
    one_line_error(run(capsys, "next", tree, "a__", "b__"), 2, "not steps")
    # hostile files: a folder, a device, a broken node, a word list named out of the file
    one_line_error(run(capsys, "next", tmp_path, "_e___", "--missed", "s"), 1, "not a regular file")
    one_line_error(run(capsys, "next", "/dev/null", "--missed", "s"), 1, "not a regular file")
    one_line_error(run(capsys, "next", TREES / "hangman-5.json", "--missed", "s", "--answers", "/dev/null"), 1,
                   "not a regular file")
    doc = orjson.loads(tree.read_bytes())
    breaks = {
        "no branches": lambda d: d["tree"].update(next=[]),
        "bad or repeated guess": lambda d: d["tree"].update(guess="1"),
        "is under": lambda d: swap_a_leaf(d["tree"]),
        "tree: not a node": lambda d: d.update(tree=5),
        "word_length": lambda d: d["game"].update(word_length="3"),
        "not a wordtree-hangman/1": lambda d: d.update(format="wordtree/1"),
    }
    for needle, brk in breaks.items():
        broken = orjson.loads(orjson.dumps(doc))
        brk(broken)
        path = tmp_path / "broken.json"
        path.write_bytes(orjson.dumps(broken))
        one_line_error(run(capsys, "next", path, "___", "--missed", ""), 1, needle)
    path.write_text('{"format": "wordtree-hangman/1", ')
    one_line_error(run(capsys, "next", path, "--missed", "s"), 1, "not JSON")
    named = orjson.loads(orjson.dumps(doc))
    named["game"]["words"] = "/etc/passwd"
    path.write_bytes(orjson.dumps(named))
    one_line_error(run(capsys, "next", path, "___"), 1, "word list not found", "--answers FILE")


def test_cli_candidates_lists_the_words_that_fit(capsys):
    """`candidates` on a Hangman tree: the words of its list with each revealed letter exactly
    where it stands, and no missed letter (checked against the list filtered here), with their
    count; the same words `next --all` lists; no search, so no numba; errors as `next` words them."""
    tree = L.HangmanTree.open(TREES / "hangman-5.json")
    expected = [w for w in tree.words if w[1] == "e" and "e" not in w[:1] + w[2:] and "t" not in w]
    code, out, _ = run(capsys, "candidates", "--game", "hangman", "_e___", "--missed", "t")
    lines = out.splitlines()
    assert code == 0 and lines[0] == f"{len(expected)} words left" and " ".join(lines[1:]).split() == expected
    code, listed, _ = run(capsys, "next", "--game", "hangman", "_e___", "--missed", "t", "--all")  # on the tree
    assert "(tree:" in listed and listed.splitlines()[1].split()[1:] == expected
    code, out, _ = run(capsys, "candidates", TREES / "hangman-3.json")  # nothing revealed: the whole list
    assert code == 0 and out.splitlines()[0] == f"{len(L.HangmanTree.open(TREES / 'hangman-3.json').words)} words left"
    res = subprocess.run([sys.executable, "-X", "importtime", str(rt.ROOT / "cli.py"), "candidates", "--game",
                          "hangman", "xq___"], capture_output=True, text=True)
    imported = {line.split("|")[-1].strip().split(".")[0] for line in res.stderr.splitlines() if "|" in line}
    assert res.returncode == 0 and res.stdout == "0 words left\n" and not imported & {"numpy", "numba"}
    one_line_error(run(capsys, "candidates", "--game", "hangman", "_e___", "--missed", "e"), 1, "both missed")
    one_line_error(run(capsys, "candidates", "--game", "hangman"), 2, "the word as revealed", "candidates --game")
    one_line_error(run(capsys, "candidates", "--missed", "s"), 2, "give a Hangman tree file")


def swap_a_leaf(node):
    """Two leaf words of one node swapped: a tree whose leaves disagree with their branches."""
    while True:
        words = [k for k, v in node["next"].items() if isinstance(v, str)]
        if len(words) >= 2:
            a, b = words[:2]
            node["next"][a], node["next"][b] = node["next"][b], node["next"][a]
            return
        node = next(v for v in node["next"].values() if isinstance(v, dict) and "guess" in v)


def test_cli_play_to_a_win(capsys, monkeypatch):
    doc = orjson.loads((TREES / "hangman-5.json").read_bytes())
    word = "hello"
    code, out, _ = run(capsys, "play", "--game", "hangman", "--length", "5", "--answer", word)
    rows = out.splitlines()
    assert code == 0 and rows[0].startswith(f"{doc['tree']['guess']} ") and rows[-1].startswith("won: hello with")
    # the same game typed in: the pattern for a hit, '-' or an empty line for a miss
    replies, pattern = [], "_____"
    for row in rows[:-1]:
        shown = row.split()[1]
        replies.append(shown if shown != pattern else rng_miss(len(replies)))
        pattern = shown
    typed = "\n".join(replies) + "\n"
    code, out, _ = run(capsys, "play", TREES / "hangman-5.json", stdin=typed, monkeypatch=monkeypatch)
    assert code == 0 and out.splitlines()[-1] == rows[-1]
    assert out.startswith(f"guess 1: {doc['tree']['guess']}  (tree:")
    # a letter of one's own first (a miss the tree would not risk), then the assistant's
    monkeypatch.setattr(L, "EXACT_NODES", 1000)  # off the tree with 8425 words: the heuristic at once
    five_letters = ("play", "--game", "hangman", "--length", "5")
    code, out, err = run(capsys, *five_letters, stdin="z -\nq\n", monkeypatch=monkeypatch)
    assert code == 0 and "missed: z;" in out and "guess 2: " in out
    assert out.splitlines()[-1].startswith("stopped after 1")
    assert "(heuristic: 8425 words left, 9 wrong guesses left)" in out and "off the tree: searching" in err
    one_line_error(run(capsys, *five_letters, stdin="e\n", monkeypatch=monkeypatch), 1, "give what the game showed")
    one_line_error(run(capsys, "play", "--game", "hangman", stdin="", monkeypatch=monkeypatch), 2, "--length N")
    one_line_error(run(capsys, "play", TREES / "hangman-5.json", "--length", "4"), 2, "5-letter words")


def test_cli_play_draws_the_revealed_word_as_tiles_on_a_terminal(capsys, monkeypatch):
    from wordtree.play import tile_row

    rows = L.play_word(L.HangmanTree.open(TREES / "hangman-5.json"), "hello")
    typed = "".join(row.split()[1] + "\n" for row in rows[:-1])  # each letter's pattern, a miss's unchanged
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, plain, _ = run(capsys, "play", TREES / "hangman-5.json", stdin=typed, monkeypatch=monkeypatch)
    assert code == 0 and plain.splitlines()[-1] == rows[-1] and "\x1b[" not in plain  # not a terminal
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, _ = run(capsys, "play", TREES / "hangman-5.json", stdin=typed, monkeypatch=monkeypatch)
    tiles = [tile_row([("_", "grey") if ch == "_" else (ch, "green") for ch in row.split()[1]]) for row in rows[:-1]]
    assert code == 0 and [line for line in out.splitlines() if "\x1b[" in line] == tiles
    assert [line for line in out.splitlines() if "\x1b[" not in line] == plain.splitlines()
    assert "\x1b[1;97;42m H \x1b[0m" in tiles[-1]  # the word, green once revealed
    monkeypatch.setenv("NO_COLOR", "1")
    assert run(capsys, "play", TREES / "hangman-5.json", stdin=typed, monkeypatch=monkeypatch)[1] == plain


def rng_miss(i: int) -> str:
    return ("-", "", "-----", "_____")[i % 4]
