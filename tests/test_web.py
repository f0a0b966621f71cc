"""The web player (engine/web.py, engine/web_assets/): the site builder, the server, and whole
games played in headless Chromium, checked step by step against `wordtree next` and a plain walk.

The trees here are made by a small greedy builder below (valid, not optimal): Wordle over 46
answers with probe guesses that are not answers (one of which fits its path: the case that needs
the answer list in the page), and tiny Mastermind and Bulls and Cows trees. Games on the shipped
trees/wordle-salet-normal.json are played too (a missing one fails, it is not skipped).
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path

import orjson
import pytest

from wordtree.errors import UserError
from wordtree.web import ASSET_FILES, ASSETS, SiteServer, build_site
from reference import wordle_feedback

ROOT = Path(__file__).resolve().parent.parent
SHIPPED_WORDLE = ROOT / "trees" / "wordle-salet-normal.json"


# ------------------------------------------------------------------------------------------------
# small trees, made here
# ------------------------------------------------------------------------------------------------
# 46 answers from the shipped list, chosen for shared letters (so there are real decisions), and
# probe words that are legal guesses but not answers of this game.
WORDLE_ANSWERS = """
aback abase abate abbey about above acorn acrid actor acute adage adapt adept admin admit adobe
adopt adore adorn adult cater caste crate trace react crane slate stale steal least leapt plate
pleat petal baker brake break bread beard debar dread tread trade grade grate great
""".split()
WORDLE_PROBES = "salet roate lodge pudgy chomp fifty".split()
WORDLE_FIRST = "roate"  # a probe at the root: it fits the (empty) path, yet is no answer


def mastermind_feedback(guess: str, code: str) -> str:
    """Black pegs: right colour, right place; white: right colour, wrong place."""
    black = sum(g == c for g, c in zip(guess, code))
    common = sum((Counter(guess) & Counter(code)).values())
    return f"{black}B{common - black}W"


def bulls_cows_feedback(guess: str, code: str) -> str:
    """Bulls (A): right digit, right place; cows (B): right digit elsewhere (digits distinct)."""
    bulls = sum(g == c for g, c in zip(guess, code))
    return f"{bulls}A{len(set(guess) & set(code)) - bulls}B"


def greedy_tree(answers, guesses, feedback, first=None) -> dict:
    """A decision tree that always picks the guess with the smallest largest part (answers
    preferred on ties): not optimal, but valid, and with every kind of node the page meets."""
    win = feedback(answers[0], answers[0])

    def build(cands, forced=None):
        if len(cands) == 1:
            return {"guess": cands[0]}
        cand_set = set(cands)

        def score(g):
            parts = Counter(feedback(g, a) for a in cands)
            return (max(parts.values()), g not in cand_set, sum(v * v for v in parts.values()), g)

        guess = forced or min(guesses, key=score)
        parts = defaultdict(list)
        for a in cands:
            p = feedback(guess, a)
            if p != win:
                parts[p].append(a)
        assert len(parts) > 1 or guess in cand_set, "a guess that does not split"
        return {"guess": guess, "next": {p: build(sub) for p, sub in sorted(parts.items())}}

    return build(list(answers), first)


def depths(root, answers, feedback) -> dict[str, int]:
    """Each answer's number of guesses, by playing the tree against it."""
    out = {}
    for answer in answers:
        node, n = root, 1
        while node["guess"] != answer:
            node, n = node["next"][feedback(node["guess"], answer)], n + 1
        out[answer] = n
    return out


def document(root, answers, game: dict, feedback) -> dict:
    d = depths(root, answers, feedback)
    worst = max(d.values())
    hist = Counter(d.values())
    total = sum(d.values())
    stats = {"total": total, "mean": round(total / len(d), 4), "worst": worst,
             "histogram": {str(k): hist.get(k, 0) for k in range(1, worst + 1)},
             "objective": "total", "optimal": False, "proof": "none (greedy test tree)", "seconds": 0.0,
             "engine": "tests/test_web.py"}
    return {"format": "wordtree/1", "game": game, "stats": stats, "root": root}


def _list_game(name, answers, guesses, folder: Path, length: int) -> dict:
    """Game identity for lists written beside the tree (hashes as engine.words computes them); the
    engine never looks there: they are given to it (`lists_of`)."""
    from wordtree.words import canonical_sha256

    files = {}
    for key, words in (("answers", answers), ("guesses", guesses)):
        files[key] = f"{name}-{key}.txt"
        (folder / files[key]).write_text("".join(w + "\n" for w in words))
    return {"name": name, "mode": "normal", "max_guesses": 8, "word_length": length,
            "answers": files["answers"], "answers_sha256": canonical_sha256(answers), "answers_count": len(answers),
            "guesses": files["guesses"], "guesses_sha256": canonical_sha256(guesses), "guesses_count": len(guesses)}


def write(folder: Path, stem: str, doc: dict) -> Path:
    path = folder / f"{stem}.json"
    path.write_bytes(orjson.dumps(doc, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n")
    return path


def wordle_tree(folder: Path) -> Path:
    guesses = WORDLE_ANSWERS + WORDLE_PROBES
    root = greedy_tree(WORDLE_ANSWERS, guesses, wordle_feedback, first=WORDLE_FIRST)
    game = _list_game("wordle", WORDLE_ANSWERS, guesses, folder, 5)
    return write(folder, "wordle-small", document(root, WORDLE_ANSWERS, game, wordle_feedback))


def mastermind_tree(folder: Path) -> Path:
    codes = ["".join(c) for c in itertools.product("123", repeat=3)]
    root = greedy_tree(codes, codes, mastermind_feedback)
    game = {**_list_game("mastermind", codes, codes, folder, 3), "pegs": 3, "colours": 3}  # (the codes it generates)
    return write(folder, "mastermind-small", document(root, codes, game, mastermind_feedback))


def bulls_cows_tree(folder: Path) -> Path:
    codes = ["".join(c) for c in itertools.permutations("0123456789", 3)]  # every code the game has
    root = greedy_tree(codes, codes, bulls_cows_feedback)
    game = {**_list_game("bulls-cows", codes, codes, folder, 3), "digits": 3, "repeats": False}
    return write(folder, "bulls-cows-small", document(root, codes, game, bulls_cows_feedback))


FEEDBACK = {"wordle": wordle_feedback, "mastermind": mastermind_feedback, "bulls-cows": bulls_cows_feedback}
WIN = {"wordle": lambda n: "G" * n, "mastermind": lambda n: f"{n}B0W", "bulls-cows": lambda n: f"{n}A0B"}


@pytest.fixture(scope="module")
def trees(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("trees")
    made = {"wordle-small": wordle_tree(folder), "mastermind-small": mastermind_tree(folder),
            "bulls-cows-small": bulls_cows_tree(folder)}
    assert SHIPPED_WORDLE.is_file(), f"{SHIPPED_WORDLE.relative_to(ROOT)} is missing: the shipped Wordle tree"
    made["wordle-salet-normal"] = SHIPPED_WORDLE
    return made


@pytest.fixture(scope="module")
def site(trees, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build_site(list(trees.values()), out, *lists_of(trees["wordle-small"]))
    return out


def load(path: Path) -> dict:
    return orjson.loads(path.read_bytes())


def answers_of(path: Path) -> list[str]:
    """The tree's answer list, read from the list file it names (written beside it here, else wordlists/)."""
    name = load(path)["game"]["answers"]
    beside = path.parent / name
    return (beside if beside.is_file() else ROOT / "wordlists" / name).read_text().split()


def lists_of(path: Path) -> list[str]:
    """(answers file, guesses file) of a tree made here for its own lists, which the engine is
    given (it never looks beside a tree); () for a tree of shipped lists."""
    game = load(path)["game"]
    files = [str(path.parent / game[key]) for key in ("answers", "guesses")]
    return files if all(Path(f).is_file() for f in files) else []


def list_flags(path: Path) -> list[str]:
    files = lists_of(path)
    return ["--answers", files[0], "--guesses", files[1]] if files else []


# ------------------------------------------------------------------------------------------------
# oracles: a plain walk of the tree, the answers that fit, and `wordtree next`
# ------------------------------------------------------------------------------------------------
def walk_next(doc: dict, steps) -> str:
    node = doc["root"]
    for guess, pattern in steps:
        assert node["guess"] == guess
        node = node["next"][pattern]
    return node["guess"]


def fitting(answers, steps, feedback) -> list[str]:
    return sorted(a for a in answers if all(feedback(g, a) == p for g, p in steps))


def player_available() -> bool:
    from wordtree import commands as cli

    return hasattr(cli, "main") and (ROOT / "engine" / "wordle" / "player.py").is_file()


def cli_next(tree: Path, steps) -> str:
    """The first word `wordtree next TREE GUESS:PATTERN ...` prints (run in this process: faster)."""
    from wordtree import commands as cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = cli.main(["next", str(tree), *(f"{g}:{p}" for g, p in steps), *list_flags(tree)])
    assert code == 0, out.getvalue()
    return out.getvalue().split()[0]


# ------------------------------------------------------------------------------------------------
# the builder and the server, without a browser
# ------------------------------------------------------------------------------------------------
def test_small_trees_are_valid_and_have_every_kind_of_node(trees):
    doc = load(trees["wordle-small"])
    answers = set(WORDLE_ANSWERS)
    kinds = Counter()

    def visit(node, path):
        fits = all(wordle_feedback(g, node["guess"]) == p for g, p in path)
        if not node.get("next"):
            kinds["leaf"] += 1
        else:
            kinds[("answer" if node["guess"] in answers else "probe") + (" that fits" if fits else " that does not fit")] += 1
        for p, child in node.get("next", {}).items():
            assert p != "GGGGG"
            visit(child, path + [(node["guess"], p)])

    visit(doc["root"], [])
    assert set(kinds) == {"leaf", "answer that fits", "answer that does not fit", "probe that fits"}, kinds
    for name in ("wordle-small", "mastermind-small", "bulls-cows-small"):
        d = load(trees[name])
        kind = d["game"]["name"]
        depth = depths(d["root"], answers_of(trees[name]), FEEDBACK[kind])
        assert len(depth) == d["game"]["answers_count"]
        assert sum(depth.values()) == d["stats"]["total"]


def site_call(path: Path):
    """The arguments of a trees/NAME.js file: (name, tree, extra: the lists)."""
    text = path.read_text()
    assert text.startswith("wordtreeLoaded(") and text.endswith(");\n")
    return json.loads("[" + text[len("wordtreeLoaded("):-3] + "]")


def test_site_files(site, trees):
    for asset in ASSET_FILES:
        assert (site / asset).read_bytes() == (ASSETS / asset).read_bytes()
    index = (site / "trees" / "index.js").read_text()
    assert index.startswith("window.WORDTREE_INDEX = ")
    entries = json.loads(index[len("window.WORDTREE_INDEX = "):].rstrip().rstrip(";"))
    assert [e["name"] for e in entries] == list(trees)
    for entry in entries:
        doc = load(trees[entry["name"]])
        name, tree, extra = site_call(site / "trees" / f"{entry['name']}.js")
        assert name == entry["name"] and tree == doc and entry["first"] == doc["root"]["guess"]
        assert load(site / "trees" / f"{name}.json") == doc
        assert entry["family"] == "wordle"
        if doc["game"]["name"].startswith("wordle"):
            assert extra["answers"] == answers_of(trees[name])  # the page needs it to tell answers from probes
            assert extra["guesses"] is None or set(extra["answers"]) <= set(extra["guesses"])
        assert (site / "trees" / f"{name}.js").stat().st_mode & 0o444 == 0o444


def test_site_fetches_nothing_from_elsewhere():
    for asset in ASSET_FILES:
        text = (ASSETS / asset).read_text()
        urls = [u for u in re.findall(r"(?:https?:)?//[\w.-]+\.\w+[^\s\"'`)]*", text)
                if u != "http://www.w3.org/2000/svg"]  # the SVG namespace is a name, never fetched
        assert not urls, (asset, urls)
        assert "@import" not in text and "@font-face" not in text and "fetch(" not in text
    html = (ASSETS / "index.html").read_text()
    assert re.findall(r'(?:src|href)="([^"]+)"', html) == ["data:,", "style.css", "trees/index.js", "solver.js", "app.js"]


def test_build_refusals(trees, tmp_path):
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="not a wordtree site"):
        build_site([trees["wordle-small"]], foreign, *lists_of(trees["wordle-small"]))
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "other"}')
    with pytest.raises(UserError, match="bad.json"):
        build_site([bad], tmp_path / "out1")
    twin = tmp_path / "again"
    twin.mkdir()
    shutil.copy(trees["wordle-small"], twin / "wordle-small.json")
    with pytest.raises(UserError, match="same site name"):
        build_site([trees["wordle-small"], twin / "wordle-small.json"], tmp_path / "out2", *lists_of(trees["wordle-small"]))
    out = tmp_path / "site"
    build_site([trees["wordle-small"]], out, *lists_of(trees["wordle-small"]))
    build_site([trees["mastermind-small"]], out)  # a site written before may be rewritten
    assert "mastermind-small" in (out / "trees" / "index.js").read_text()


def run_cli(*args, **kw):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], capture_output=True,
                          text=True, timeout=60, cwd=ROOT, **kw)


def test_cli_web(trees, tmp_path):
    r = run_cli("web", trees["wordle-small"], trees["bulls-cows-small"], *list_flags(trees["wordle-small"]),
                "-o", tmp_path / "s")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "s" / "index.html").as_uri() in r.stdout
    assert (tmp_path / "s" / "trees" / "bulls-cows-small.js").is_file()
    r = run_cli("web", tmp_path / "missing.json", "-o", tmp_path / "t")
    assert r.returncode == 1 and r.stderr.startswith("wordtree: error: ") and r.stderr.count("\n") == 1
    r = run_cli("web", trees["wordle-small"])
    assert r.returncode == 2


def test_cli_web_gets_the_lists_of_a_custom_tree_from_the_command(trees, tmp_path):
    """The lists written beside a tree are not looked for: without --answers/--guesses the tree
    cannot be verified, so it is not published (one line says how to give the lists); with them
    it is."""
    r = run_cli("web", trees["wordle-small"], "-o", tmp_path / "a")
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert "not published" in r.stderr and "--answers FILE and --guesses FILE" in r.stderr
    assert not (tmp_path / "a").exists()
    r = run_cli("web", trees["wordle-small"], *list_flags(trees["wordle-small"]), "-o", tmp_path / "b")
    assert r.returncode == 0 and "notice" not in r.stderr, r.stderr
    assert site_call(tmp_path / "b" / "trees" / "wordle-small.js")[2]["answers"] == answers_of(trees["wordle-small"])
    r = run_cli("web", trees["wordle-small"], "--answers", lists_of(trees["wordle-small"])[0], "-o", tmp_path / "c")
    assert r.returncode == 1 and "--answers FILE and --guesses FILE" in r.stderr


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


def test_server(site):
    server = SiteServer(site, 0)
    assert server.httpd.server_address[0] == "127.0.0.1"
    server.start_background()
    try:
        status, body = get(server.url)
        assert status == 200 and body == (site / "index.html").read_bytes()
        status, body = get(server.url + "trees/wordle-small.js")
        assert status == 200 and body.startswith(b"wordtreeLoaded(")
        assert get(server.url + "trees/")[0] == 404  # no listings
        assert get(server.url + "../../etc/passwd")[0] == 404
    finally:
        server.shutdown()


def test_cli_serve(trees):
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "serve", str(trees["wordle-small"]),
                             *list_flags(trees["wordle-small"]), "--port", "0", "--seconds", "20"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        assert get(url + "trees/wordle-small.json")[0] == 200
    finally:
        proc.terminate()  # stops it like Ctrl-C: cleanly, its temporary site removed
        out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0 and err.strip().endswith("stopped")
    r = run_cli("serve", trees["wordle-small"], *list_flags(trees["wordle-small"]), "--port", "0", "--seconds", "0.5")
    assert r.returncode == 0 and "serving 1 verified tree(s)" in r.stdout
    r = run_cli("serve", trees["wordle-small"], "--port", "70000")
    assert r.returncode == 2 and "--port" in r.stderr


# ------------------------------------------------------------------------------------------------
# in the browser
# ------------------------------------------------------------------------------------------------
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage")


def chromium_or_skip():
    """Paths of the system Chromium and its driver; a skip (a failure under CI=true) when missing."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    try:
        import selenium  # noqa: F401
    except ImportError:
        selenium = None
    missing = [what for what, ok in (("chromium", browser), ("chromedriver (chromium-driver)", driver),
                                     ("the selenium package", selenium)) if not ok]
    if missing:
        reason = f"browser tests need {', '.join(missing)}: apt-get install chromium chromium-driver; pip install -e .[test]"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return browser, driver


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver_path = chromium_or_skip()
    profile = tempfile.mkdtemp(prefix="wordtree-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument("--window-size=1200,900")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.set_script_timeout(10)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def open_page(driver, url: str):
    driver.get("about:blank")  # a new hash alone would not reload the page
    driver.get(url)
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 15).until(
        lambda d: d.execute_script("return document.body.dataset.ready === '1' && !document.body.dataset.busy"))


def page_state(driver) -> dict:
    return driver.execute_script("""
        const $ = (id) => document.getElementById(id);
        return {word: $('guess').dataset.word, n: $('count') ? +$('count').dataset.n : null,
                listed: $('answers') ? $('answers').textContent : null,
                message: $('message').textContent, kind: $('message').dataset.kind,
                path: $('path').children.length, check: $('check').dataset.ok,
                checkText: $('check').textContent, formHidden: $('feedback').hidden};""")


def enter_pattern(driver, kind: str, pattern: str, method: str):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    find = driver.find_element
    if method == "type":
        box = find(By.ID, "pattern")
        box.clear()
        box.send_keys(pattern.lower() + Keys.ENTER)
    elif method == "click":  # tiles start grey: one click makes yellow, two green
        for i, colour in enumerate(pattern):
            for _ in range("BYG".index(colour)):
                find(By.CSS_SELECTOR, f"#guess .tile[data-i='{i}']").click()
        find(By.ID, "submit").click()
    elif method == "keys":  # keyboard alone: colours typed on the focused tiles, then Enter
        active = driver.switch_to.active_element
        if "tile" not in (active.get_attribute("class") or ""):
            assert active.get_attribute("id") == "pattern"
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB * len(pattern)).key_up(Keys.SHIFT).perform()
        assert driver.switch_to.active_element.get_attribute("data-i") == "0"
        ActionChains(driver).send_keys(pattern.lower() + Keys.ENTER).perform()
    elif method == "fields":  # the two count inputs of Mastermind / Bulls and Cows
        a, b = re.fullmatch(r"(\d+)\D(\d+)\D", pattern).groups()
        for field, value in (("count-a", a), ("count-b", b)):
            box = find(By.ID, field)
            box.clear()
            box.send_keys(value)
        find(By.ID, "submit").click()
    else:
        raise ValueError(method)


def play(driver, site: Path, tree: Path, answer: str, method: str, url: str | None = None) -> list:
    """Play `answer` on the page; at every step the page's guess must be the tree's and
    `wordtree next`'s, and its count of answers left the count of answers that fit."""
    doc = load(tree)
    kind = doc["game"]["name"] if doc["game"]["name"] in FEEDBACK else "wordle"
    feedback, answers = FEEDBACK[kind], answers_of(tree)
    use_cli = kind == "wordle" and player_available()
    open_page(driver, url or (site / "index.html").as_uri() + f"#tree={tree.stem}")
    steps = []
    for _ in range(doc["stats"]["worst"]):
        state = page_state(driver)
        assert state["word"] == walk_next(doc, steps), (answer, steps)
        if use_cli:
            assert state["word"] == cli_next(tree, steps), (answer, steps)
        left = fitting(answers, steps, feedback)
        assert state["n"] == len(left), (answer, steps)
        if len(left) <= 30:
            assert state["listed"].split() == left
        pattern = feedback(state["word"], answer)
        enter_pattern(driver, kind, pattern, method)
        steps.append((state["word"], pattern))
        if pattern == WIN[kind](len(answer)):
            break
    state = page_state(driver)
    assert state["kind"] == "solved" and state["message"] == f"Solved in {len(steps)}: the answer is {answer}."
    assert state["formHidden"] and state["path"] == len(steps) and state["check"] == "yes"
    return steps


def test_page_feedback_rules_match_the_reference(browser, site):
    """The page finds the answers left with its own feedback rules: they must be the games' rules."""
    open_page(browser, (site / "index.html").as_uri() + "#tree=wordle-small")
    words = (ROOT / "wordlists" / "wordle-answers-2315.txt").read_text().split()
    rng = random.Random(5)
    pairs = [(g, a) for g in WORDLE_ANSWERS + WORDLE_PROBES for a in WORDLE_ANSWERS]
    pairs += [tuple(rng.sample(words, 2)) for _ in range(5000)]
    pairs += [(g, a) for g in ("speed", "eerie", "abbey", "llama", "error") for a in words[::7]]  # repeated letters
    codes = ["".join(c) for c in itertools.product("1234", repeat=3)]
    digits = ["".join(c) for c in itertools.permutations("0123456", 3)]
    cases = {"wordle": pairs, "mastermind": list(itertools.product(codes, codes)),
             "bulls-cows": [tuple(rng.sample(digits, 2)) for _ in range(3000)] + [(d, d) for d in digits]}
    for kind, some in cases.items():
        got = browser.execute_script(
            "const g = window.wordtreeGames[arguments[0]]; return arguments[1].map(([x, y]) => g.feedback(x, y));",
            kind, some)
        assert got == [FEEDBACK[kind](x, y) for x, y in some], kind


def test_wordle_games_every_way_of_entering(browser, site, trees):
    tree = trees["wordle-small"]
    doc = load(tree)
    depth = depths(doc["root"], WORDLE_ANSWERS, wordle_feedback)
    deepest = max(WORDLE_ANSWERS, key=lambda a: (depth[a], a))
    inner = next(a for a in WORDLE_ANSWERS if depth[a] < doc["stats"]["worst"] and a != doc["root"]["guess"])
    plays = [(deepest, "click"), (inner, "type"), ("grate", "keys"), ("abbey", "type"), ("pleat", "keys"), ("adult", "click")]
    for answer, method in plays:
        steps = play(browser, site, tree, answer, method)
        assert len(steps) == depth[answer]


def test_counts_games(browser, site, trees):
    for name, answers in (("mastermind-small", ["321", "233"]), ("bulls-cows-small", ["431", "204"])):
        for answer, method in zip(answers, ["fields", "type"]):
            play(browser, site, trees[name], answer, method)


def test_refusals_and_undo(browser, site, trees):
    from selenium.webdriver.common.by import By

    tree = trees["wordle-small"]
    doc = load(tree)
    open_page(browser, (site / "index.html").as_uri() + "#tree=wordle-small")
    first = page_state(browser)
    assert first["word"] == WORDLE_FIRST and first["check"] == "yes", first["checkText"]
    allowed = WORDLE_ANSWERS + WORDLE_PROBES
    seen = {wordle_feedback(WORDLE_FIRST, a) for a in allowed}  # (no allowed guess gives it either)
    impossible = next("".join(p) for p in itertools.product("BYG", repeat=5) if "".join(p) not in seen)
    for bad, says in (("BXGBB", "not a colour"), ("BYG", "needs 5 colours"), (impossible, "No answer still possible")):
        enter_pattern(browser, "wordle", bad, "type")
        state = page_state(browser)
        assert state["kind"] == "error" and says in state["message"], (bad, state)
        assert state["word"] == WORDLE_FIRST and state["path"] == 0 and state["n"] == len(WORDLE_ANSWERS)
    # the probe ROATE is no answer of the list, but an allowed guess: all green, it is the answer
    # outside the list, as `wordtree next` says
    enter_pattern(browser, "wordle", "GGGGG", "type")
    state = page_state(browser)
    assert state["kind"] == "solved" and state["message"] == f"Solved in 1: the answer is {WORDLE_FIRST}."
    assert "treating the allowed guesses" in browser.find_element(By.ID, "note").text
    browser.find_element(By.ID, "undo").click()
    # two steps, then undo twice
    answer = "trade"
    p1 = wordle_feedback(WORDLE_FIRST, answer)
    enter_pattern(browser, "wordle", p1, "type")
    second = doc["root"]["next"][p1]["guess"]
    p2 = wordle_feedback(second, answer)
    enter_pattern(browser, "wordle", p2, "type")
    assert page_state(browser)["path"] == 2
    browser.find_element(By.ID, "undo").click()
    state = page_state(browser)
    assert state["word"] == second and state["path"] == 1
    browser.find_element(By.ID, "undo").click()
    assert page_state(browser)["word"] == WORDLE_FIRST
    # the position lives in the address: reopening it comes back to the same place
    open_page(browser, (site / "index.html").as_uri() + f"#tree=wordle-small&p={p1}.{p2}")
    assert page_state(browser)["word"] == walk_next(doc, [(WORDLE_FIRST, p1), (second, p2)])
    # at a last answer, only the win is possible
    key, leaf = next((k, c) for k, c in sorted(doc["root"]["next"].items()) if "next" not in c)
    open_page(browser, (site / "index.html").as_uri() + f"#tree=wordle-small&p={key}")
    assert page_state(browser)["n"] == 1
    fits = {wordle_feedback(leaf["guess"], w) for w in allowed if wordle_feedback(WORDLE_FIRST, w) == key}
    nothing = next("".join(p) for p in itertools.product("BYG", repeat=5) if "".join(p) not in fits)
    enter_pattern(browser, "wordle", nothing, "type")
    state = page_state(browser)
    assert state["kind"] == "error" and f"Only {leaf['guess']} is left" in state["message"]
    # Mastermind: more pegs than places
    open_page(browser, (site / "index.html").as_uri() + "#tree=mastermind-small")
    enter_pattern(browser, "mastermind", "2B2W", "type")
    state = page_state(browser)
    assert state["kind"] == "error" and "more than 3" in state["message"] and state["path"] == 0


def test_explorer(browser, site, trees):
    from selenium.webdriver.common.by import By

    tree = trees["wordle-small"]
    doc = load(tree)
    open_page(browser, (site / "index.html").as_uri() + "#tree=wordle-small")
    bars = browser.execute_script(
        "return [...document.querySelectorAll('#histogram rect.bar')].map(r => [r.dataset.guesses, +r.dataset.count])")
    assert dict(bars) == {k: v for k, v in doc["stats"]["histogram"].items() if v}
    summary = browser.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#summary dd')].map(d => [d.dataset.key, d.textContent]))")
    assert summary["total guesses"] == str(doc["stats"]["total"]) and summary["worst case"] == str(doc["stats"]["worst"])
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#branches tbody tr')].map(r => [r.dataset.key, +r.cells[1].textContent, r.cells[2].textContent])")
    parts = Counter(wordle_feedback(WORDLE_FIRST, a) for a in WORDLE_ANSWERS)
    assert sorted((k, n) for k, n, _ in rows) == sorted(parts.items())
    assert all(doc["root"]["next"][k]["guess"] == nxt for k, _, nxt in rows)
    assert [n for _, n, _ in rows] == sorted((n for _, n, _ in rows), reverse=True)
    key = rows[1][0]  # a branch chosen in the explorer is entered like a typed pattern
    browser.find_element(By.CSS_SELECTOR, f"#branches tr[data-key='{key}'] button").click()
    state = page_state(browser)
    assert state["word"] == doc["root"]["next"][key]["guess"] and state["n"] == parts[key]


def test_served_and_screenshots(browser, site, trees, tmp_path):
    server = SiteServer(site, 0)
    server.start_background()
    try:
        play(browser, site, trees["wordle-small"], "crate", "type", url=server.url + "#tree=wordle-small")
    finally:
        server.shutdown()
    name = "wordle-salet-normal" if "wordle-salet-normal" in trees else "wordle-small"
    open_page(browser, (site / "index.html").as_uri() + f"#tree={name}")
    shot = tmp_path / "web.png"
    browser.save_screenshot(str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG")
    browser.set_window_size(390, 844)  # a phone
    try:
        open_page(browser, (site / "index.html").as_uri() + f"#tree={name}")
        fits = browser.execute_script(
            "return document.documentElement.scrollWidth <= window.innerWidth"
            " && document.querySelector('#guess .tile').getBoundingClientRect().right <= window.innerWidth")
        assert fits
        browser.save_screenshot(str(tmp_path / "web-phone.png"))
    finally:
        browser.set_window_size(1200, 900)
    assert (tmp_path / "web-phone.png").stat().st_size > 1000
    errors = [e["message"] for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert not errors  # no script error, no blocked or missing file, in any test so far


def test_shipped_wordle_tree(browser, site, trees):
    tree = trees["wordle-salet-normal"]
    answers = answers_of(tree)
    for answer, method in zip(random.Random(11).sample(answers, 4), ["type", "click", "keys", "type"]):
        play(browser, site, tree, answer, method)
    # the explorer shows the biggest branches first, and all of them on request
    from selenium.webdriver.common.by import By

    root = load(tree)["root"]
    open_page(browser, (site / "index.html").as_uri() + "#tree=wordle-salet-normal")
    count_rows = "return document.querySelectorAll('#branches tbody tr[data-key]').length"
    assert browser.execute_script(count_rows) < len(root["next"])
    browser.find_element(By.ID, "more-branches").click()
    assert browser.execute_script(count_rows) == len(root["next"]) + (root["guess"] in answers)
