"""Absurdle's challenge mode (engine/absurdle/challenge.py): the table against a brute force of
every guess sequence on small random lists (reference_absurdle.challenge_brute), every line
replayed by the independent adversary, the kernels against plain twins, the table's verifier
against damaged tables, and the commands."""

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import orjson
import pytest

import reference_absurdle as ref
from test_absurdle import wordle, word_list
from wordtree.absurdle import challenge
from wordtree.absurdle.document import check_challenge, verify_challenge
from wordtree.absurdle.rule import code_rank
from wordtree.errors import UserError
from wordtree.games.wordle import Wordle

ROOT = Path(__file__).resolve().parents[1]
CAP = 4  # guesses before the target's, enumerated by the brute force


def small(seed):
    rng = random.Random(seed)
    game = wordle()
    centre = rng.choice(game.answers)
    near = sorted(game.answers, key=lambda w: (-sum(x == y for x, y in zip(w, centre)), rng.random()))
    answers = sorted(near[: rng.randint(5, 10)])
    guesses = sorted(set(rng.sample(game.guesses, rng.randint(4, 6))) | set(rng.sample(answers, 2)))
    return Wordle("wordle", word_list("answers", answers), word_list("guesses", guesses))


def quiet(*args):
    pass


@pytest.mark.parametrize("seed", range(16))
def test_the_table_is_the_brute_force_of_every_sequence(seed):
    game = small(seed)
    doc = challenge.build(game, say=quiet)
    brute = ref.challenge_brute(game.guesses, game.answers, CAP)
    for word, row in doc["rows"].items():
        if brute[word] is not None:
            assert row.get("fewest") == brute[word], word
        else:  # none within the cap: the table's is longer, or none can be (every layer expanded)
            assert row.get("unreachable") or row["fewest"] > CAP + 1, word
        if "line" in row:
            assert ref.challenge_replay(row["line"].split(), game.answers) == word
            assert len(row["line"].split()) == row["fewest"]
    assert doc["targets"]["complete"] and verify_challenge(doc, game) == []


def test_unreachable_rows_are_so_by_a_deeper_brute_force():
    for seed in (8, 16):  # games with a target no sequence reaches (the lists also hold the answers)
        game = small(seed)
        doc = challenge.build(game, say=quiet)
        gone = [w for w, r in doc["rows"].items() if r.get("unreachable")]
        assert gone
        deep = ref.challenge_brute(game.guesses, game.answers, CAP + 1)
        assert all(deep[w] is None for w in gone)


@pytest.mark.parametrize("seed", range(4))
def test_the_targeted_search_finds_the_exhaustive_depth(seed):
    game = small(seed + 100)
    whole = challenge.build(game, say=quiet)
    for layers in (0, 1):
        part = challenge.build(game, expand_layers=layers, say=quiet)
        for word, row in part["rows"].items():
            best = whole["rows"][word]
            if "fewest" in row:
                assert row["fewest"] == best["fewest"]
                assert ref.challenge_replay(row["line"].split(), game.answers) == word
            elif "at_least" in row:
                assert best.get("unreachable") or best["fewest"] >= row["at_least"]


def test_the_kernels_are_their_plain_twins():
    rng = random.Random(3)
    game = wordle()
    from wordtree.wordle.patterns import pattern_matrix

    M = pattern_matrix(game).matrix
    rank = code_rank(5)
    cnt = np.zeros(243, np.int64)
    seen = np.zeros(243, np.int64)
    epoch = 0
    for _ in range(200):
        S = np.array(sorted(rng.sample(range(len(game.answers)), rng.randint(2, 12))), dtype=np.int32)
        words = tuple(game.answers[a] for a in S)
        g = rng.randrange(len(game.guesses))
        code, size = challenge._kept(M, S, g, rank, cnt)
        (pattern, kept), = ref.kept(game.guesses[g], words, False)
        assert game.pattern_text(int(code)) == pattern and size == len(kept)
        open_ = np.ones(len(game.answers), np.int8)
        bound = np.full(len(game.guesses), S.size, np.int64)
        order = np.arange(len(game.guesses), dtype=np.int64)
        out_t, out_g = np.empty(S.size, np.int64), np.empty(S.size, np.int64)
        k, epoch = challenge._scan(M, S, order, bound, rank, open_, seen, epoch, out_t, out_g)
        plain = {}
        for h, guess in enumerate(game.guesses):
            if len(plain) == len(words):  # the scan stops there too: every answer listed
                break
            groups = ref.kept(guess, words, False)[0][1]
            if len(groups) == 1 and groups[0] not in plain:
                plain[groups[0]] = h
        assert {game.answers[int(t)]: int(h) for t, h in zip(out_t[:k], out_g[:k])} == plain


def test_the_verifier_refuses_a_damaged_table():
    game = small(5)
    doc = challenge.build(game, say=quiet)
    assert verify_challenge(doc, game) == []
    word, row = next((w, r) for w, r in doc["rows"].items() if "line" in r)
    for how in ("longer", "other", "shorter", "count"):
        bad = orjson.loads(orjson.dumps(doc))
        if how == "longer":
            bad["rows"][word]["fewest"] += 1
        elif how == "other":
            other = next(w for w in game.answers if w != word)
            bad["rows"][word]["line"] = " ".join(row["line"].split()[:-1] + [other])
        elif how == "shorter":
            bad["rows"][word]["line"] = word
        else:
            bad["targets"]["proven"] -= 1
        assert verify_challenge(bad, game) != []
    for field, value in (("rows", []), ("rule", "any"), ("exhaustive_through", "x")):
        bad = orjson.loads(orjson.dumps(doc))
        bad[field] = value
        with pytest.raises(UserError):
            check_challenge(bad)
    bad = orjson.loads(orjson.dumps(doc))
    bad["rows"][word] = {"fewest": 3}
    with pytest.raises(UserError):
        check_challenge(bad)


def cli(*args):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True, timeout=900)


def test_the_commands(tmp_path):
    game = small(2)
    (tmp_path / "a.txt").write_text("\n".join(game.answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(game.guesses) + "\n")
    lists = ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]
    out = tmp_path / "c.json"
    done = cli("build", "absurdle", *lists, "--challenge", "-o", str(out), "--quiet", "--json")
    assert done.returncode == 0, done.stderr
    report = orjson.loads(done.stdout)
    brute = ref.challenge_brute(game.guesses, game.answers, CAP)
    values = [v for v in brute.values() if v is not None]
    shown = {d: n for d, n in report["fewest_counts"].items() if int(d) <= CAP + 1}
    assert shown == {str(d): values.count(d) for d in sorted(set(values))}
    checked = cli("verify", str(out), *lists)
    assert checked.returncode == 0 and "replayed" in checked.stdout, checked.stdout + checked.stderr
    doc = orjson.loads(out.read_bytes())  # a row one guess sooner than its line: one error line, as in every family
    word = next(w for w, row in doc["rows"].items() if row.get("fewest", 0) > 1)
    doc["rows"][word]["fewest"] -= 1
    (tmp_path / "edited.json").write_bytes(orjson.dumps(doc))
    for flags in ([], ["--json"]):
        refused = cli("verify", str(tmp_path / "edited.json"), *lists, *flags)
        assert refused.returncode == 1 and refused.stdout == "", refused.stdout + refused.stderr
        assert refused.stderr.strip().splitlines()[-1].startswith(f"wordtree: error: {tmp_path / 'edited.json'}: ")
    for bad in (("--challenge", "--rule", "any"), ("--challenge", "--every-opener"), ("--expand-layers", "1")):
        refused = cli("build", "absurdle", *lists, *bad)
        assert refused.returncode == 2 and "Traceback" not in refused.stderr


@pytest.mark.parametrize("seed", range(8))
def test_the_target_line_from_a_position_is_the_brute_force(seed):
    """next --target's search (position.target_line): from the start and from each bucket one
    guess leaves, the fewest guesses toward each target are the brute force's over every
    sequence from that bucket, and its line replays (reference_absurdle) to end on the target."""
    from wordtree.absurdle.position import target_line
    from wordtree.absurdle.search import Board
    from wordtree.absurdle.rule import RULES

    game = small(seed)
    board = Board.of(game, RULES["qntm"])
    index = game.answer_index
    starts = [tuple(game.answers)] + sorted({ref.kept(g, tuple(game.answers), False)[0][1] for g in game.guesses})
    checked = 0
    for S in starts:
        if len(S) < 2:
            continue
        brute = ref.challenge_brute(game.guesses, S, CAP)
        for x in S:
            line = target_line(game, board.matrix, [index[a] for a in S], index[x], most=CAP)
            if brute[x] is None:
                assert line is None, (S, x)
                continue
            assert line is not None and len(line) + 1 == brute[x], (S, x)
            words = [game.guesses[g] for g in line] + [x]
            assert ref.challenge_replay(words, S) == x
            checked += 1
    assert checked > 0


def test_next_target_command(tmp_path):
    """next PROOF --target X: the guess proposed starts a fewest line (the brute force's count,
    and one fewer from the bucket it leaves); refused where it does not apply."""
    game = small(3)
    (tmp_path / "a.txt").write_text("\n".join(game.answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(game.guesses) + "\n")
    lists = ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]
    proof = tmp_path / "p.json"
    done = cli("build", "absurdle", *lists, "-o", str(proof), "--quiet")
    assert done.returncode == 0, done.stderr
    brute = ref.challenge_brute(game.guesses, game.answers, CAP)
    targets = [x for x, v in brute.items() if v is not None and v > 1]
    assert targets
    for x in targets[:3]:
        got = cli("next", str(proof), *lists, "--target", x, "--json")
        assert got.returncode == 0, got.stderr
        advice = orjson.loads(got.stdout)
        assert advice["wins_in"] == brute[x] and advice["target"] == x
        (_, B), = ref.kept(advice["guess"], tuple(game.answers), False)
        after = ref.challenge_brute(game.guesses, B, CAP)[x] if len(B) > 1 else 1
        assert after == brute[x] - 1
    unreachable = [x for x, v in brute.items() if v is None]
    for x in unreachable[:1]:
        refused = cli("next", str(proof), *lists, "--target", x)
        assert refused.returncode == 1 and "cannot be made to end on" in refused.stderr
    refused = cli("next", "--game", "wordle", "--target", game.answers[0])
    assert refused.returncode == 2 and "--target is for a Absurdle position" in refused.stderr
    refused = cli("next", str(proof), *lists, "--target", "zzzzz")
    assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1


def test_play_target_takes_the_line_to_the_target(tmp_path):
    """play --target X, every proposal taken (empty lines): the adversary ends on X in the brute
    force's fewest guesses."""
    game = small(3)
    (tmp_path / "a.txt").write_text("\n".join(game.answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(game.guesses) + "\n")
    lists = ["--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt")]
    proof = tmp_path / "p.json"
    assert cli("build", "absurdle", *lists, "-o", str(proof), "--quiet").returncode == 0
    brute = ref.challenge_brute(game.guesses, game.answers, CAP)
    x = next(w for w, v in brute.items() if v is not None and v > 2)
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "play", str(proof), *lists, "--target", x],
                          input="\n" * 8, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert f"won in {brute[x]} guesses" in done.stdout and f"{x}:GGGGG" in done.stdout, done.stdout
