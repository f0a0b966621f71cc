"""Web player timings in headless Chromium: building the site, opening the page until it is usable,
and one feedback step; against a straightforward reference (the same lookup through
`python cli.py next`, a fresh process per step, as a terminal user would run it).

    python bench/web.py [TREE] [--runs N] [--screenshot docs/web.png]

Without TREE: trees/wordle-salet-normal.json if shipped, else a greedy full-size Wordle tree
(2315 answers, opener salet) made here with numpy, so the page is timed on a tree of real size.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage")


def greedy_wordle_tree(folder: Path) -> Path:
    """A valid full-size Wordle tree: salet, then always the answer with the smallest largest part."""
    import numpy as np

    from wordtree.games import get_game
    from wordtree.wordle.patterns import pattern_matrix
    from wordtree.wordle.tree import make_document, write_tree

    game = get_game("wordle")
    codes = pattern_matrix(game).matrix[game.answer_guess_ids]  # answers x answers
    salet = game.guess_index["salet"]
    first_row = pattern_matrix(game).matrix[salet]

    def build(cands, row=None, guess_word=None):
        if len(cands) == 1:
            return {"guess": game.answers[cands[0]]}
        if row is None:
            sub = codes[:, cands].astype(np.int64)
            counts = np.zeros((len(game.answers), game.n_codes), np.int32)
            np.add.at(counts, (np.repeat(np.arange(len(game.answers)), len(cands)), sub.ravel()), 1)
            score = counts.max(axis=1) * 4 - np.isin(np.arange(len(game.answers)), cands)
            g = int(np.argmin(score))
            row, guess_word = codes[g], game.answers[g]
        parts = {}
        for c in cands:
            parts.setdefault(int(row[c]), []).append(c)
        parts.pop(game.win_code, None)
        return {"guess": guess_word,
                "next": {game.pattern_text(k): build(np.array(v)) for k, v in sorted(parts.items())}}

    root = build(np.arange(len(game.answers)), first_row, "salet")
    path = folder / "wordle-greedy-salet.json"
    write_tree(path, make_document(game, root, max_guesses=None, optimal=False, proof="none (greedy, for timing)"))
    return path


def start_browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='wordtree-bench-')}")
    options.add_argument("--window-size=1200,1000")
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))


def ready(driver, url: str | None = None) -> tuple[float, float]:
    """Open the page (or reload it, the browser's renderer warm); ms from navigation start until
    it is usable (tree loaded, drawn), and until the HTML and the site's scripts were parsed (the
    part before the page's own work)."""
    from selenium.webdriver.support.ui import WebDriverWait

    if url:
        driver.get("about:blank")
        driver.get(url)
    else:
        driver.execute_script("window.__old = true; location.reload();")
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script("return !window.__old && document.body && document.body.dataset.ready === '1'"))
    return tuple(driver.execute_script(
        "return [+document.body.dataset.readyMs, performance.getEntriesByType('navigation')[0].domInteractive]"))


STEP_JS = """
const box = document.getElementById('pattern');
const t0 = performance.now();
box.value = arguments[0];
document.getElementById('feedback').requestSubmit();
const ms = performance.now() - t0;
document.getElementById('restart').click();
return ms;"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tree", nargs="?")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--screenshot", metavar="PNG", help="also save a screenshot two steps into a game")
    args = ap.parse_args()

    from wordtree.wordle.tree import read_tree
    from wordtree.web import build_site

    work = Path(tempfile.mkdtemp(prefix="wordtree-bench-web-"))
    shipped = ROOT / "trees" / "wordle-salet-normal.json"
    if args.tree:
        tree = Path(args.tree)
    elif shipped.is_file():
        tree = shipped
    else:
        t0 = time.perf_counter()
        tree = greedy_wordle_tree(work)
        print(f"made a greedy Wordle tree in {time.perf_counter() - t0:.1f} s: {tree}")
    doc = read_tree(tree)
    print(f"tree: {tree.name}  {tree.stat().st_size / 1e6:.2f} MB  {doc['game']['answers_count']} answers")

    builds = []
    for i in range(args.runs):
        t0 = time.perf_counter()
        site = build_site([tree], work / f"site{i}")
        builds.append(time.perf_counter() - t0)
    tree_js = next(p for p in site.files if p.suffix == ".js" and p.parent.name == "trees" and p.stem != "index")
    print(f"build site: median {statistics.median(builds) * 1000:.0f} ms; page tree file {tree_js.stat().st_size / 1e6:.2f} MB")

    root = doc["root"]
    pattern = max(root["next"], key=lambda k: len(str(root["next"][k])))  # the biggest branch
    driver = start_browser()
    try:
        url = (work / "site0" / "index.html").as_uri() + f"#tree={tree_js.stem}"
        ready(driver, url)  # a first visit (cold), then reloads, as a visitor does
        loads, parsed = zip(*(ready(driver) for _ in range(args.runs)))
        steps = [driver.execute_script(STEP_JS, pattern) for _ in range(args.runs)]
        heap = driver.execute_script("return performance.memory ? performance.memory.usedJSHeapSize : 0")
        if args.screenshot:
            second = root["next"][pattern]
            after = max(second.get("next", {"": 0}), key=lambda k: len(str(second["next"][k])))
            ready(driver, url + f"&p={pattern}.{after}")
            shown = driver.execute_script("const a = document.getElementById('answers'); return a ? a.textContent : ''")
            if shown and doc["game"]["name"].startswith("wordle"):  # tiles coloured as for an answer left
                from wordtree.games.wordle import COLOURS, wordle_feedback

                word = driver.execute_script("return document.getElementById('guess').dataset.word")
                texts = ["".join(COLOURS[wordle_feedback(word, a) // 3**i % 3] for i in range(len(word)))
                         for a in shown.split()]
                driver.find_element("id", "pattern").send_keys(max(texts, key=lambda t: len(t) - t.count("B")))
            Path(args.screenshot).parent.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(args.screenshot)
            print(f"screenshot: {args.screenshot}")
    finally:
        driver.quit()

    cli = []
    for _ in range(min(args.runs, 5)):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "cli.py"), "next", str(tree), f"{root['guess']}:{pattern}"],
                       check=True, capture_output=True)
        cli.append(time.perf_counter() - t0)
    load_ms, step_ms, cli_ms = statistics.median(loads), statistics.median(steps), statistics.median(cli) * 1000
    print(f"page usable after (reload): median {load_ms:.0f} ms (min {min(loads):.0f}, max {max(loads):.0f}) from navigation start; target 200 ms")
    print(f"  of which HTML, style and scripts parsed (before the page's own work): median {statistics.median(parsed):.0f} ms")
    print(f"one step (feedback {pattern} after {root['guess']}, largest branch): median {step_ms:.1f} ms")
    print(f"reference, `python cli.py next` for the same step: median {cli_ms:.0f} ms  "
          f"(ratio reference/page step: {cli_ms / max(step_ms, 0.01):.0f}x)")
    print(f"peak memory: page JS heap {heap / 1e6:.1f} MB; this script {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3:.0f} MB")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
