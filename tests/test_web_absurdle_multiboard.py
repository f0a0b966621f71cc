"""The web player's Absurdle and multi-board pages on the shipped files, in headless Chromium,
against the command line: the adversary's replies, the answers left and the next guess are
`wordtree next --game absurdle`'s, on the proof's lines and off them; a multi-board game's
candidates on every board are `wordtree candidates`', and the guesses it gives are the
heuristic player's (`wordtree next`), labelled as a heuristic's. A missing shipped file fails.
"""

from __future__ import annotations

import random
from pathlib import Path

import orjson
import pytest

from test_web_player import browser, cli_json, page  # noqa: F401 (the fixture)
from reference import wordle_feedback

ROOT = Path(__file__).resolve().parent.parent
TREES = ROOT / "trees"
SHIPPED = {
    "absurdle-wordle": TREES / "absurdle" / "absurdle-wordle.json",
    "absurdle-wordle-any": TREES / "absurdle" / "absurdle-wordle-any.json",
    "quordle-sample": TREES / "multiboard" / "quordle-sample.json",
    "octordle-sample": TREES / "multiboard" / "octordle-sample.json",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    for name, path in SHIPPED.items():
        assert path.is_file(), f"{path.relative_to(ROOT)} is missing: the shipped file {name}"
    from wordtree.web import build_site

    out = tmp_path_factory.mktemp("site")
    build_site(list(SHIPPED.values()), out)
    return out


def _advice(driver, name: str, steps: list[str]) -> dict:
    """The page's advice after `steps` on the tree `name` (loaded by opening the page on it)."""
    if driver.execute_script("return document.title") != f"wordtree: {name}":
        raise AssertionError("open the page on the tree first")
    return driver.execute_script("return wordtreeAdvice(arguments[0], arguments[1])", name, steps)


def open_on(driver, site: Path, name: str, steps: str = "") -> None:
    page(driver, site, f"#tree={name}" + (f"&p={steps}" if steps else ""))
    assert driver.execute_script("return document.title") == f"wordtree: {name}"


# ------------------------------------------------------------------------------------------------
# Absurdle
# ------------------------------------------------------------------------------------------------
def absurdle_cli(tree: str, steps: list[str]) -> dict:
    return cli_json("next", "--game", "absurdle", tree, *steps)


def test_absurdle_page_as_next_on_and_off_the_proofs_lines(browser, site):
    doc = orjson.loads(SHIPPED["absurdle-wordle"].read_bytes())
    openers = list(doc["lines"])
    rng = random.Random(7)
    lines = [[], ["aesir"], [openers[0]], [rng.choice(openers)], [rng.choice(openers)]]
    # deeper along a line: its guesses and the adversary's replies, as the proof has them
    node = doc["lines"][openers[5]]
    walk = [node["guess"]]
    while node.get("next"):
        reply, node = next(iter(node["next"].items()))
        walk.append(node["guess"])
        lines.append(list(walk))
    # off the lines: an opener that wins in 4 followed by a guess not the line's (exact search),
    # a guess off every line from the start, and a poor opener (the heuristic)
    lines += [["aesir", "crane"], ["crane", "aesir"], ["fuzzy"], ["fuzzy", "jumbo"]]
    open_on(browser, site, "absurdle-wordle")
    seen = set()
    for steps in lines:
        want = absurdle_cli("absurdle-wordle", steps)
        got = _advice(browser, "absurdle-wordle", steps)
        assert {k: got[k] for k in want} == want, steps
        seen.add(want["source"])
    assert seen >= {"line", "search", "heuristic"}  # every kind of advice next gives was compared


def test_absurdle_any_rule_asks_for_the_reply_where_the_adversary_may_choose(browser, site):
    doc = orjson.loads(SHIPPED["absurdle-wordle-any"].read_bytes())
    assert doc["rule"] == "any"
    open_on(browser, site, "absurdle-wordle-any")
    opener = next(iter(doc["lines"]))
    node = doc["lines"][opener]
    reply = next(iter(node["next"]))
    steps = [f"{opener}:{reply}"]
    want = absurdle_cli("absurdle-wordle-any", steps)
    got = _advice(browser, "absurdle-wordle-any", steps)
    assert {k: got[k] for k in want} == want
    # a guess the adversary may answer in two ways: next refuses it without the reply, the page asks
    from wordtree import commands  # noqa: F401
    from test_web_player import cli

    from wordtree.absurdle.rule import RULES, replies
    from wordtree.games import get_game

    game = get_game("wordle")
    guess = next(w for w in game.guesses if len(replies(RULES["any"], w, game.answers)) > 1)  # (rule.py's own)
    code, out, err = cli("next", "--game", "absurdle", "absurdle-wordle-any", guess)
    assert code != 0 and "may answer" in err, (guess, err)
    got = _advice(browser, "absurdle-wordle-any", [guess])
    assert "may answer" in got["error"]
    choices = err.split(" with ")[1].split(":")[0].strip().split(" or ")
    assert all(c in got["error"] for c in choices)
    for c in choices:
        want = absurdle_cli("absurdle-wordle-any", [f"{guess}:{c}"])
        got = _advice(browser, "absurdle-wordle-any", [f"{guess}:{c}"])
        assert {k: got[k] for k in want} == want


def test_absurdle_typed_into_the_page(browser, site):
    open_on(browser, site, "absurdle-wordle")
    play = "const i = document.getElementById('ab-input'); i.value = arguments[0]; document.getElementById('ab-go').click();"
    state = """return {guess: document.getElementById('ab-guess').dataset.word,
        source: document.getElementById('ab-source').dataset.source, text: document.getElementById('ab-source').textContent,
        left: +document.getElementById('ab-count').dataset.n, message: document.getElementById('ab-message').textContent,
        kept: [...document.querySelectorAll('#ab-groups tr.kept')].map(r => r.dataset.pattern),
        path: [...document.querySelectorAll('#ab-path li .counts')].map(s => s.textContent)}"""
    first = browser.execute_script(state)
    assert first["guess"] == absurdle_cli("absurdle-wordle", [])["guess"]
    typed = []
    for word in ("aesir", "crane"):
        browser.execute_script(play, word)
        for _ in range(200):  # the search off the line runs after the page says it is searching
            now = browser.execute_script(state)
            if now["source"] != "searching":
                break
            browser.implicitly_wait(0)
        typed.append(word)
        want = absurdle_cli("absurdle-wordle", typed)
        assert now["guess"] == want["guess"] and now["left"] == want["candidates"], (typed, now, want)
        assert now["path"] == [s.split(":")[1] for s in want["steps"]]
        assert now["kept"] == [want["steps"][-1].split(":")[1]]
    assert "no stored winning line continues" in now["text"]  # crane leaves aesir's line
    # the game played to the win with the page's own advice (Enter with an empty box)
    for _ in range(6):
        if now["source"] == "won":
            break
        browser.execute_script(play, "")
        for _ in range(400):
            now = browser.execute_script(state)
            if now["source"] != "searching":
                break
    assert now["source"] == "won" and now["text"].startswith("Won in")
    browser.execute_script(play, "zzzzq")  # the form is hidden once won; the step itself refuses
    bad = _advice(browser, "absurdle-wordle", ["zzzzq"])
    assert "not an allowed guess" in bad["error"]


# ------------------------------------------------------------------------------------------------
# multi-board games
# ------------------------------------------------------------------------------------------------
def feedback_for(guess: str, answers: list[str], solved: list[bool]) -> str:
    return "/".join("=====" if s else wordle_feedback(guess, a) for a, s in zip(answers, solved))


def multiboard_game(browser, name: str, preset: str, answers: list[str], steps_at_most: int) -> list[tuple]:
    """Play the page's own guesses against `answers` (or a word of the list where the page gives
    none); each position with the page's advice and the command line's candidates and advice."""
    from wordtree.games import get_game

    words = list(get_game("wordle").answers)
    rng = random.Random(len(answers))
    solved = [False] * len(answers)
    steps, out = [], []
    for _ in range(steps_at_most):
        got = _advice(browser, name, steps)
        assert "candidates" in got, got
        want = cli_json("next", "--game", preset, *steps) if got["guess"] else None
        boards = cli_json("candidates", "--game", preset, *steps)
        out.append((list(steps), got, want, boards))
        guess = got["guess"] or rng.choice(words)
        fb = feedback_for(guess, answers, solved)
        solved = [s or guess == a for s, a in zip(solved, answers)]
        steps.append(f"{guess}:{fb}")
        if all(solved):
            break
    return out


def test_multiboard_candidates_and_guesses_as_the_command_line(browser, site):
    from wordtree.games import get_game

    answers_list = list(get_game("wordle").answers)
    rng = random.Random(3)
    compared = {"heuristic": 0, "table": 0, "none": 0, "narrowed": 0}
    for name, preset, k, most in (("quordle-sample", "quordle", 4, 9), ("octordle-sample", "octordle", 8, 6)):
        open_on(browser, site, name)
        for answers in (rng.sample(answers_list, k),):  # one game a preset (each step runs the command line twice)
            for steps, got, want, boards in multiboard_game(browser, name, preset, answers, most):
                assert [len(w) for w in got["candidates"]] == [b["candidates"] if not b["solved_at"] else 0 for b in boards]
                assert got["candidates"] == [[] if b["solved_at"] else b["words"] for b in boards], steps
                assert got["solved_at"] == [b["solved_at"] or 0 for b in boards]
                if got["guess"]:
                    assert got["heuristic"] is True  # every guess the page gives is the heuristic player's
                    assert got["guess"] == want["guess"], (steps, got["source"], want["source"])
                    compared["table" if got["source"] == "table" else "heuristic"] += 1
                else:
                    assert got["error"] and "wordtree next" in got["error"]
                    compared["none"] += 1
    assert compared["table"] == 2 and compared["heuristic"] >= 4


def test_multiboard_narrows_by_the_boards_answers_differing(browser, site):
    """Boards whose answers are words of few letters apart: a board's last candidates that the
    other boards must take are dropped, as the command line drops them."""
    open_on(browser, site, "quordle-sample")
    answers = ["hater", "later", "water", "cater"]
    for guesses in (["roate", "chimp"], ["roate", "lymph"], ["later", "roate"]):
        steps, solved = [], [False] * 4
        for guess in guesses:
            steps.append(f"{guess}:{feedback_for(guess, answers, solved)}")
            solved = [s or guess == a for s, a in zip(solved, answers)]
        got = _advice(browser, "quordle-sample", steps)
        boards = cli_json("candidates", "--game", "quordle", *steps)
        assert got["candidates"] == [[] if b["solved_at"] else b["words"] for b in boards], steps
    bad = _advice(browser, "quordle-sample", ["roate:GGGGG/GGGGG/BBBBB/BBBBB"])
    assert "cannot solve two boards" in bad["error"]


def test_multiboard_typed_into_the_page(browser, site):
    open_on(browser, site, "quordle-sample")
    answers = ["caulk", "sauce", "shave", "gaffe"]
    solved = [False] * 4
    steps = []
    for _ in range(3):
        guess = browser.execute_script("return document.getElementById('mb-guess').dataset.word")
        assert guess
        fb = feedback_for(guess, answers, solved).split("/")
        if not steps:  # the high-contrast squares read as colours too
            fb[0] = fb[0].replace("G", "\U0001f7e7").replace("Y", "\U0001f7e6").replace("B", "\u2b1c")
        browser.execute_script("""const fb = arguments[0];
            fb.forEach((p, b) => { const i = document.getElementById('mb-p' + (b + 1)); if (!i.disabled) i.value = p; });
            document.getElementById('mb-go').click();""", fb)
        assert browser.execute_script("return document.getElementById('mb-message').textContent") == ""
        steps.append(f"{guess}:{feedback_for(guess, answers, solved)}")
        solved = [s or guess == a for s, a in zip(solved, answers)]
    shown = browser.execute_script("return [...document.querySelectorAll('#mb-boards .board')].map(b => +b.dataset.n)")
    boards = cli_json("candidates", "--game", "quordle", *steps)
    assert shown == [0 if b["solved_at"] else b["candidates"] for b in boards]
    text = browser.execute_script("return document.getElementById('mb-step').textContent + ' ' + document.getElementById('mb-note').textContent")
    assert "heuristic" in text  # said plainly: a heuristic's move


def test_both_pages_are_in_the_menu_and_the_index(browser, site):
    page(browser, site)
    groups = browser.execute_script("return [...document.querySelectorAll('#tree optgroup')].map(g => g.label)")
    assert "Absurdle" in groups and any("Quordle" in g for g in groups)
    options = browser.execute_script("return [...document.querySelectorAll('#tree option')].map(o => o.value)")
    assert options == list(SHIPPED)
    logs = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not logs, logs
