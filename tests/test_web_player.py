"""The web player on the shipped trees, in headless Chromium, against the command line: the page
opens on today's Wordle or the tree the address names; it follows answers outside the list as
`wordtree next` does (same words, same order); its Hangman and Dordle pages give `next`'s
advice; its review of a finished game gives `wordtree grade`'s numbers from the tree; and `web`
publishes only trees its verifier passes. A missing shipped tree fails, it is not skipped.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from test_web import CHROMIUM_FLAGS, chromium_or_skip, open_page
from reference import wordle_feedback

ROOT = Path(__file__).resolve().parent.parent
TREES = ROOT / "trees"
SHIPPED = {
    "wordle-nyt2023-tarse-normal": TREES / "wordle-nyt2023-tarse-normal.json",
    "wordle-salet-normal": TREES / "wordle-salet-normal.json",
    "wordle-salet-hard": TREES / "wordle-salet-hard.json",
    "mastermind-4x6": TREES / "mastermind-4x6.json",
    "bulls-cows-4": TREES / "bulls-cows-4.json",
    "hangman-5": TREES / "hangman" / "hangman-5.json",
    "dordle-every40-saice": TREES / "dordle" / "dordle-every40-saice.json",
}


def load(path: Path) -> dict:
    return orjson.loads(path.read_bytes())


def cli(*args: str) -> tuple[int, str, str]:
    """`wordtree ARGS` run in this process (faster than a new one): exit status, stdout, stderr."""
    from wordtree import commands

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = commands.main(list(args))
    return code, out.getvalue(), err.getvalue()


def cli_json(*args: str) -> dict:
    code, out, err = cli(*args, "--json")
    assert code == 0, (args, out, err)
    return json.loads(out)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    for name, path in SHIPPED.items():
        assert path.is_file(), f"{path.relative_to(ROOT)} is missing: the shipped tree {name}"
    from wordtree.web import build_site

    out = tmp_path_factory.mktemp("site")
    build_site(list(SHIPPED.values()), out)
    return out


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver_path = chromium_or_skip()
    import tempfile

    profile = tempfile.mkdtemp(prefix="wordtree-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument("--window-size=1200,900")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.set_script_timeout(120)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def page(driver, site: Path, hash_: str = "", query: str = ""):
    open_page(driver, (site / "index.html").as_uri() + query + hash_)


def advice(driver, name: str, steps: list[str]) -> dict:
    return driver.execute_script("return wordtreeAdvice(arguments[0], arguments[1])", name, steps)


# ------------------------------------------------------------------------------------------------
# the site
# ------------------------------------------------------------------------------------------------
def test_the_page_opens_on_todays_wordle_or_the_tree_named(browser, site):
    page(browser, site)
    state = browser.execute_script("""return {tree: document.getElementById('tree').value,
        word: document.getElementById('guess').dataset.word,
        options: [...document.querySelectorAll('#tree option')].map(o => o.value),
        groups: [...document.querySelectorAll('#tree optgroup')].map(g => g.label),
        scripts: [...document.querySelectorAll('script[src^="trees/"]')].map(s => s.getAttribute('src'))}""")
    assert state["tree"] == "wordle-nyt2023-tarse-normal"
    assert state["word"] == load(SHIPPED["wordle-nyt2023-tarse-normal"])["root"]["guess"]
    assert state["options"] == list(SHIPPED)  # every tree of the site is in the menu
    assert len(state["groups"]) == 3
    # only the index and the tree in use are loaded (one tree at a time, as scripts: file:// works)
    assert state["scripts"] == ["trees/index.js", "trees/wordle-nyt2023-tarse-normal.js"]
    for how in ({"hash_": "#tree=wordle-salet-normal"}, {"query": "?tree=wordle-salet-normal"}):
        page(browser, site, **how)
        assert browser.execute_script("return document.getElementById('guess').dataset.word") == "salet"
    page(browser, site, "#tree=hangman-5")
    assert browser.execute_script("return [document.getElementById('hangman').hidden, document.getElementById('play').hidden]") \
        == [False, True]
    index = (site / "trees" / "index.js").read_text()
    assert len(index) < 64 << 10  # the menu loads before any tree: it stays small


def test_web_publishes_only_verified_trees(tmp_path):
    """A tree whose subtrees were swapped is refused before anything is written, naming it (#56:
    the page advised GROIN with 33 answers where the truth was COURD with 221)."""
    doc = load(SHIPPED["wordle-salet-normal"])
    keys = sorted((k for k, c in doc["root"]["next"].items() if "next" in c), key=lambda k: -len(str(doc["root"]["next"][k])))
    a, b = keys[0], keys[1]
    doc["root"]["next"][a], doc["root"]["next"][b] = doc["root"]["next"][b], doc["root"]["next"][a]
    swapped = tmp_path / "swapped.json"
    swapped.write_bytes(orjson.dumps(doc))
    r = subprocess.run([sys.executable, str(ROOT / "cli.py"), "web", str(swapped), "-o", str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert str(swapped) in r.stderr and "does not verify" in r.stderr
    assert not (tmp_path / "out").exists()
    # a Hangman tree too
    hdoc = load(TREES / "hangman" / "hangman-3.json")
    nxt = hdoc["tree"]["next"]
    a, b = sorted(k for k in nxt if isinstance(nxt[k], dict))[:2]
    nxt[a], nxt[b] = nxt[b], nxt[a]
    hswapped = tmp_path / "hswapped.json"
    hswapped.write_bytes(orjson.dumps(hdoc))
    from wordtree.errors import UserError
    from wordtree.web import build_site

    with pytest.raises(UserError, match="hswapped.json: not published, the tree does not verify"):
        build_site([hswapped], tmp_path / "out2")
    assert not (tmp_path / "out2").exists()
    # a family the page has no page for is refused by name, and left out of the default
    from wordtree.families import shipped_trees
    from wordtree.web import PLAYED, default_trees

    others = [t for t in shipped_trees() if t.family.name not in PLAYED]
    for tree in others[:1]:
        with pytest.raises(UserError, match=f"no page for {tree.family.name} trees"):
            build_site([tree.path], tmp_path / "out3")
    # a Dordle strategy file (its rule, not a tree) is not a page: the command line answers from it
    assert set(default_trees()) == {t.path for t in shipped_trees()
                                    if t.family.name in PLAYED and not t.path.name.endswith("-strategy.json")}
    assert {t.family.name for t in shipped_trees()} >= set(PLAYED)


# ------------------------------------------------------------------------------------------------
# answers outside the list, and one's own guesses: as `wordtree next`
# ------------------------------------------------------------------------------------------------
def same_advice(page_says: dict, cli_says: dict, steps) -> None:
    assert "error" not in page_says, (steps, page_says)
    assert page_says["guess"] == cli_says["guess"], (steps, page_says["guess"], cli_says)
    assert page_says["source"] == cli_says["source"], (steps, page_says["source"], cli_says["source"])
    assert page_says["candidates"] == cli_says["candidate_words"], steps
    assert page_says["note"] == cli_says["note"], steps
    assert page_says["expected"] == cli_says["expected_guesses"], steps


def play_against(browser, name: str, answer: str) -> list[str]:
    """Play `answer` (an allowed guess, perhaps no answer of the list) as `next` advises, step by
    step; at each step the page must advise as `next` does. Returns the guesses played."""
    steps: list[str] = []
    played = []
    for _ in range(8):
        cli_says = cli_json("next", name, *steps)
        same_advice(advice(browser, name, steps), cli_says, steps)
        if cli_says["solved"]:
            return played
        guess = cli_says["guess"]
        played.append(guess)
        steps.append(f"{guess}:{wordle_feedback(guess, answer)}")
    raise AssertionError(f"{answer}: not solved in 8")


def test_answers_outside_the_list_as_next_follows_them(browser, site):
    page(browser, site, "#tree=wordle-salet-normal")
    doc = load(SHIPPED["wordle-salet-normal"])
    answers = set((ROOT / "wordlists" / doc["game"]["answers"]).read_text().split())
    guesses = (ROOT / "wordlists" / doc["game"]["guesses"]).read_text().split()
    assert "emoji" not in answers
    assert play_against(browser, "wordle-salet-normal", "emoji") == ["salet", "drone", "epoch", "ebook", "emoji"]
    outside = random.Random(52).sample([w for w in guesses if w not in answers], 4)
    for word in outside:
        assert play_against(browser, "wordle-salet-normal", word)[-1] == word
    page(browser, site, "#tree=wordle-nyt2023-tarse-normal")
    nyt = load(SHIPPED["wordle-nyt2023-tarse-normal"])
    nyt_answers = set((ROOT / "wordlists" / nyt["game"]["answers"]).read_text().split())
    nyt_guesses = (ROOT / "wordlists" / nyt["game"]["guesses"]).read_text().split()
    for word in random.Random(56).sample([w for w in nyt_guesses if w not in nyt_answers], 2):
        assert play_against(browser, "wordle-nyt2023-tarse-normal", word)[-1] == word


def test_own_guesses_off_the_tree_as_next(browser, site):
    """A word of one's own leaves the tree: the exact engine's guess for up to 60 candidates (the
    engine's own choice among equal guesses), the heuristic past that."""
    page(browser, site, "#tree=wordle-salet-normal")
    for steps in (["crane:GYYBB", "sonic:BBBYY"], ["crane:BBBBB", "pilot:BBBBB"], ["fuzzy:BBBBB"],
                  ["salet:BBBBB", "corny:BBBBB"], ["salet:BYBBB", "ghoul:BBBBB"], ["roate:BBBBB", "lucid:BBBBB"]):
        same_advice(advice(browser, "wordle-salet-normal", steps), cli_json("next", "wordle-salet-normal", *steps), steps)
    # feedback that no word gives (salet has an A, champ not): both refuse it
    steps = ["salet:BYBBB", "champ:BBBBB"]
    assert cli("next", "wordle-salet-normal", *steps)[0] == 1
    assert "No answer still possible gives BBBBB to champ" in advice(browser, "wordle-salet-normal", steps)["error"]
    # random positions off the tree: two words of one's own, played against random answers
    doc = load(SHIPPED["wordle-salet-normal"])
    answers = (ROOT / "wordlists" / doc["game"]["answers"]).read_text().split()
    guesses = (ROOT / "wordlists" / doc["game"]["guesses"]).read_text().split()
    rng, sizes = random.Random(11), []
    while len(sizes) < 8:
        answer, words = rng.choice(answers), rng.sample(guesses, 2)
        steps = [f"{w}:{wordle_feedback(w, answer)}" for w in words if w != answer]
        said = cli_json("next", "wordle-salet-normal", *steps)
        if said["source"] != "exact" or said["candidates"] < 3:
            continue
        sizes.append(said["candidates"])
        same_advice(advice(browser, "wordle-salet-normal", steps), said, steps)
    page(browser, site, "#tree=wordle-salet-hard")  # hard mode: next's heuristic off the tree, at any size
    for steps in (["salet:BYBBB", "ghoul:BBBBB"], ["crane:BBBBB"], ["salet:BBBBB", "corny:BBBBB"]):
        same_advice(advice(browser, "wordle-salet-hard", steps), cli_json("next", "wordle-salet-hard", *steps), steps)
    page(browser, site, "#tree=mastermind-4x6")
    for steps in (["1234:0B1W"], ["1111:1B0W", "2222:0B0W"]):
        same_advice(advice(browser, "mastermind-4x6", steps), cli_json("next", "mastermind-4x6", *steps), steps)
    page(browser, site, "#tree=bulls-cows-4")
    for steps in (["0123:0A1B", "4567:1A1B"], ["0123:0A0B"], ["9876:1A0B", "0123:0A2B", "4501:0A2B"]):
        same_advice(advice(browser, "bulls-cows-4", steps), cli_json("next", "bulls-cows-4", *steps), steps)


def test_emoji_game_on_the_page(browser, site):
    """The game of #52, typed into the page: SALET, DRONE, EPOCH, then EBOOK and EMOJI."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page(browser, site, "#tree=wordle-salet-normal")
    words = []
    for _ in range(5):
        word = browser.execute_script("return document.getElementById('guess').dataset.word")
        words.append(word)
        box = browser.find_element(By.ID, "pattern")
        box.clear()
        box.send_keys(wordle_feedback(word, "emoji") + Keys.ENTER)
    assert words == ["salet", "drone", "epoch", "ebook", "emoji"]
    assert browser.execute_script("return document.getElementById('message').textContent") == \
        "Solved in 5: the answer is emoji."
    assert "treating the allowed guesses" in browser.find_element(By.ID, "note").text
    # and the same game with one's own word: a guess typed in "played another word"
    page(browser, site, "#tree=wordle-salet-normal")
    own = browser.find_element(By.ID, "own")
    own.send_keys("crane")
    box = browser.find_element(By.ID, "pattern")
    box.send_keys(wordle_feedback("crane", "cigar") + Keys.ENTER)
    said = cli_json("next", "wordle-salet-normal", f"crane:{wordle_feedback('crane', 'cigar')}")
    assert browser.execute_script("return document.getElementById('guess').dataset.word") == said["guess"]
    assert browser.execute_script("return +document.getElementById('count').dataset.n") == said["candidates"]
    # a longer search (32 candidates) says so while it runs, then gives next's guess
    from selenium.webdriver.support.ui import WebDriverWait

    page(browser, site, "#tree=wordle-salet-normal&p=BYBBB")
    own = browser.find_element(By.ID, "own")
    own.send_keys("ghoul")
    box = browser.find_element(By.ID, "pattern")
    box.send_keys("BBBBB" + Keys.ENTER)
    WebDriverWait(browser, 60).until(lambda d: d.execute_script("return !document.body.dataset.busy"))
    said = cli_json("next", "wordle-salet-normal", "salet:BYBBB", "ghoul:BBBBB")
    assert browser.execute_script("return document.getElementById('guess').dataset.word") == said["guess"] == "drain"
    assert "exact search" in browser.find_element(By.ID, "source").text
    assert browser.execute_script("return location.hash").endswith("p=BYBBB.ghoul%3ABBBBB")


# ------------------------------------------------------------------------------------------------
# Hangman and Dordle
# ------------------------------------------------------------------------------------------------
def hangman_positions(doc: dict, words: list[str]) -> list[tuple[str, str]]:
    """(pattern, missed) at every step of the tree's game against each word."""
    out = []
    for word in words:
        node, shown, missed = doc["tree"], set(), ""
        while isinstance(node, dict) and "lost" not in node:
            out.append(("".join(c if c in shown else "_" for c in word), missed))
            letter = node["guess"]
            key = "".join(c if c == letter else "-" for c in word)
            if letter in word:
                shown.add(letter)
            else:
                missed = "".join(sorted(missed + letter))
            node = node["next"][key]
    return out


def test_hangman_page_as_next(browser, site):
    doc = load(SHIPPED["hangman-5"])
    from wordtree.hangman.lookup import HangmanTree

    tree = HangmanTree(doc)
    page(browser, site, "#tree=hangman-5")
    picks = random.Random(3).sample(tree.words, 5)
    positions = hangman_positions(doc, picks)
    for pattern, missed in positions[::3] + positions[-2:]:
        said = cli_json("next", "--game", "hangman", pattern, *(["--missed", missed] if missed else []))
        got = advice(browser, "hangman-5", [pattern, missed])
        assert got["letter"] == said["letter"] and got["source"] == said["source"] == "tree", (pattern, missed)
        assert got["words"] == said["candidate_words"] and got["expected_score"] == said["expected_score"]
    # off the tree (the letters guessed are not the tree's): the words left, and no advice
    got = advice(browser, "hangman-5", ["_e___", "sa"])
    assert got["source"] == "off the tree" and got["letter"] is None
    assert got["words"] == tree.words_left(*tree.parse("_e___", "sa"))
    # typed into the page
    from selenium.webdriver.common.by import By

    pattern, missed = positions[4]
    for field, value in (("hm-pattern", pattern), ("hm-missed", missed)):
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    browser.find_element(By.ID, "hm-go").click()
    said = cli_json("next", "--game", "hangman", pattern, *(["--missed", missed] if missed else []))
    assert browser.execute_script("return document.getElementById('hm-letter').dataset.letter") == said["letter"]
    assert browser.execute_script("return +document.getElementById('hm-count').dataset.n") == said["candidates"]


def dordle_positions(doc: dict, count: int) -> list[list[str]]:
    """Positions of the tree's own games: the first steps, and remainders of two or more answers
    (played with the single-board engine's optimal tree) a step into them."""
    out = [[], ["saice:BBBBB/BBBBB"]]
    found = []

    def walk(node, path):
        if "board" in node:
            if len(node["answers"]) > 2:
                found.append((path, node))
            return
        for key, child in sorted(node.get("next", {}).items()):
            walk(child, path + [f"{node['guess']}:{key}"])

    walk(doc["tree"], [])
    for path, node in found[:: max(1, len(found) // count)][:count]:
        out.append(path)
    return out


def test_dordle_page_as_next(browser, site):
    doc = load(SHIPPED["dordle-every40-saice"])
    page(browser, site, "#tree=dordle-every40-saice")
    for steps in dordle_positions(doc, 4):
        said = cli_json("next", "dordle-every40-saice", *steps)
        got = advice(browser, "dordle-every40-saice", steps)
        assert got["guess"] == said["guess"] and got["source"] == said["source"], (steps, got, said)
        assert got["candidates"] == said["candidate_words"], steps
        if len(steps) > 1:  # a step into the remainder: its tree's next guess
            board = 1 if steps[-1].split(":")[1].split("/")[1] == "GGGGG" else 2
            answer = said["candidate_words"][board - 1][-1]
            code = wordle_feedback(said["guess"], answer)
            more = steps + [f"{said['guess']}:{code}/=====" if board == 1 else f"{said['guess']}:=====/{code}"]
            said = cli_json("next", "dordle-every40-saice", *more)
            got = advice(browser, "dordle-every40-saice", more)
            assert got["guess"] == said["guess"] and got["source"] == said["source"], (more, got, said)


def test_dordle_typed_into_the_page(browser, site):
    from selenium.webdriver.common.by import By

    doc = load(SHIPPED["dordle-every40-saice"])
    page(browser, site, "#tree=dordle-every40-saice")
    a, b = "lowly", "nymph"  # a game of the tree's, to the end
    steps = []
    for _ in range(doc["max_guesses"]):
        word = browser.execute_script("return document.getElementById('dd-guess').dataset.word")
        said = cli_json("next", "dordle-every40-saice", *steps)
        assert word == said["guess"], steps
        keys = []
        for board, answer in ((1, a), (2, b)):
            solved = any(s.split(":")[1].split("/")[board - 1] == "GGGGG" for s in steps)
            keys.append("=====" if solved else wordle_feedback(word, answer))
            if not solved:
                box = browser.find_element(By.ID, f"dd-p{board}")
                box.clear()
                box.send_keys(keys[-1])
        browser.find_element(By.ID, "dd-go").click()
        steps.append(f"{word}:{'/'.join(keys)}")
        if cli_json("next", "dordle-every40-saice", *steps)["source"] == "solved":
            break
    assert browser.execute_script("return document.getElementById('dd-step').dataset.source") == "solved"
    assert browser.execute_script("return document.getElementById('dd-path').children.length") == len(steps)


# ------------------------------------------------------------------------------------------------
# the review of a finished game: `wordtree grade`'s numbers from the tree
# ------------------------------------------------------------------------------------------------
def review(browser, text: str) -> dict:
    from selenium.webdriver.common.by import By

    box = browser.find_element(By.ID, "review-input")
    box.clear()
    box.send_keys(text)
    browser.find_element(By.ID, "review-go").click()
    return browser.execute_script("""
        const rows = [...document.querySelectorAll('#review-table tbody tr')].map(r => ({
            left: +r.dataset.left, expected: r.dataset.expected === '' ? null : +r.dataset.expected,
            best: r.dataset.best || null, best_expected: r.dataset.bestExpected === '' ? null : +r.dataset.bestExpected,
            loss: r.dataset.loss === '' ? null : +r.dataset.loss, text: r.textContent}));
        const t = document.getElementById('review-total');
        return {rows, message: document.getElementById('review-message').textContent,
                total: t ? {loss: t.dataset.loss === '' ? null : +t.dataset.loss,
                            expected: t.dataset.expected === '' ? null : +t.dataset.expected,
                            best_expected: t.dataset.bestExpected === '' ? null : +t.dataset.bestExpected,
                            text: t.textContent} : null};""")


def tree_game(doc: dict, answer: str) -> list[str]:
    node, steps = doc["root"], []
    while True:
        pattern = wordle_feedback(node["guess"], answer)
        steps.append(f"{node['guess']}:{pattern}")
        if node["guess"] == answer:
            return steps
        node = node["next"][pattern]


def same_grade(got: dict, steps: list[str], name: str) -> None:
    graded = cli_json("grade", name, *steps)
    assert [r["left"] for r in got["rows"]] == [m["candidates"] for m in graded["moves"]]
    for row, move in zip(got["rows"], graded["moves"]):
        assert (row["expected"], row["best"], row["best_expected"], row["loss"]) == \
            (move["expected"], move["best"], move["best_expected"], move["loss"]), (steps, row, move)
    for key in ("loss", "expected", "best_expected"):
        assert got["total"][key] == graded["total"][key], (steps, key)


def test_review_gives_grades_numbers_from_the_tree(browser, site):
    name = "wordle-nyt2023-tarse-normal"
    doc = load(SHIPPED[name])
    page(browser, site, f"#tree={name}")
    answers = (ROOT / "wordlists" / doc["game"]["answers"]).read_text().split()
    for answer in random.Random(7).sample(answers, 3):
        steps = tree_game(doc, answer)
        same_grade(review(browser, " ".join(steps)), steps, name)
    # the shared grid, with the guesses or with the answer
    steps = tree_game(doc, "cigar")
    grid = "Wordle 1,234 %d/6\n\n" % len(steps) + "\n".join(
        s.split(":")[1].replace("B", "\u2b1b").replace("Y", "\U0001f7e8").replace("G", "\U0001f7e9") for s in steps)
    with_guesses = review(browser, grid + "\n" + " ".join(s.split(":")[0] for s in steps))
    same_grade(with_guesses, steps, name)
    with_answer = review(browser, grid + "\nanswer cigar")
    same_grade(with_answer, steps, name)
    # moves off the tree are said to be so, not valued; the last answer left is worth one guess
    got = review(browser, "crane:GYYBB sonic:BBBYY cigar:GGGGG")
    assert [r["loss"] for r in got["rows"]] == [None, None, None] and "off the tree" in got["total"]["text"]
    steps = tree_game(doc, "cigar")
    off = ["crane:" + wordle_feedback("crane", "cigar")] + steps[1:]
    got = review(browser, " ".join(off))
    assert got["rows"][0]["loss"] is None and "1" in got["total"]["text"].split(":")[0]
    assert "off the tree" in got["total"]["text"] and got["total"]["loss"] is None
    last = got["rows"][-1]
    if last["left"] == 1:
        assert (last["expected"], last["best"], last["loss"]) == (1.0, "cigar", 0.0)
    one = review(browser, "crane:GYYBB sonic:BBBYY circa:GGYBY cigar:GGGGG")  # circa leaves cigar alone
    assert one["rows"][-1]["left"] == 1 and (one["rows"][-1]["expected"], one["rows"][-1]["loss"]) == (1.0, 0.0)
    assert "already solved" in review(browser, "cigar:GGGGG salet:BBBBB")["message"]
    assert "cannot occur here" in review(browser, "tarse:GGGGB")["message"]


def test_page_rounds_as_python(browser, site):
    """The page's figures are rounded as Python rounds the command line's (a half to even, on the
    double itself)."""
    page(browser, site, "#tree=wordle-salet-normal")
    rng = random.Random(9)
    values = [a / b for b in range(1, 130) for a in rng.sample(range(-2000, 40000), 12)] + [73 / 32, 2.5, 0.00005, 3.55265]
    for places in (4, 6):
        got = browser.execute_script("return arguments[0].map(x => wordtreeRound(x, arguments[1]))", values, places)
        assert got == [round(x, places) for x in values], places


def test_the_docs_screenshot_is_taken_by_its_script(tmp_path):
    """docs/web.png (the README's picture) comes from docs/screenshot.py, on the shipped trees."""
    chromium_or_skip()
    assert (ROOT / "docs" / "web.png").read_bytes().startswith(b"\x89PNG")
    out = tmp_path / "web.png"
    r = subprocess.run([sys.executable, str(ROOT / "docs" / "screenshot.py"), "--out", str(out), "--tree",
                        "wordle-salet-normal", "--size", "800,600"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "wordle-salet-normal, salet:" in r.stdout
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") and int.from_bytes(data[16:20], "big") == 800  # the width asked for


def test_no_script_errors(browser):
    """(last in the file) No script error, no blocked or missing file, in any page opened above."""
    errors = [e["message"] for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert not errors
