"""The web player: write a static site for some tree files, and serve it on 127.0.0.1.

The site must work opened straight from disk (file://), where a page may not fetch files: so each
tree is written as `trees/NAME.js`, a script that calls `wordtreeLoaded(NAME, TREE, EXTRA)` with
the tree's JSON (compact) and what the page needs beside it: for a Wordle-family or Dordle tree
the game's answer list and, where it differs, its guess list (the page tells an answer from a
probe guess, and widens to the allowed guesses as `next` does, see app.js). The page adds that
script when the tree is chosen; `trees/index.js` lists the trees (family, game, stats, first
guess, and which one the page opens on) so the menu shows before any tree loads.
`trees/NAME.json` is the same tree, for download. Everything the page needs is in the folder: no
CDN, no web fonts, no framework.

Only verified trees are published: each is replayed by its family's verifier first (the answers
of a Wordle-family tree, the words of a Hangman tree, the pairs of a Dordle tree, every line of
an Absurdle proof against the adversary, a multi-board measurement's figures and opener), and a tree that fails is refused, naming it, before anything is written. An
Absurdle proof travels with the game's lists (the page plays the adversary); a multi-board
measurement with the lists and its heuristic player's shortlist (the page plays the player).
"""

from __future__ import annotations

import json
import re
import signal
import threading
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import orjson

from . import interrupts
from .data import trees_dir, web_assets_dir
from .errors import ListenError, ListPairError, UnshippedListError, UserError
from .files import read_bounded_text, write_atomic

ASSETS = web_assets_dir()
ASSET_FILES = ("index.html", "solver.js", "app.js", "style.css")
DEFAULT_TREE_DIR = trees_dir()
OPENING_TREE = "wordle-nyt2023-tarse-normal"  # today's Wordle: the tree the page opens on, when the site has it
SITE_MARKER = "trees/index.js"  # a folder holding this is a site we wrote and may overwrite
SITE_INDEX_MAX_BYTES = 16 << 20  # the largest site index read (it lists the trees by name)


PLAYED = ("wordle", "hangman", "dordle", "absurdle", "multiboard")  # the families the page plays
MULTIBOARD_REPLAY = 0  # games of a multi-board sample web replays (the page shows its opener and figures, which
# verify re-derives; `wordtree verify` replays its games)


# the multi-board page hands a state to the command line's exact endgame at these sizes: one board
# of at most PAGE_SINGLE_LIMIT answers, or two of at most PAGE_PAIR_LIMIT each
PAGE_SINGLE_LIMIT = 60
PAGE_PAIR_LIMIT = 200


def default_trees() -> list[Path]:
    """Every shipped tree of a family the page plays, family by family (as wordtree trees lists
    them), used when no tree is named."""
    from .families import shipped_trees

    return [tree.path for tree in shipped_trees()
            if tree.family.name in PLAYED and not tree.path.name.endswith("-strategy.json")]


def site_name(path: Path) -> str:
    """The tree's name in the site (file stem, only characters safe in a URL and a file name)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", path.stem).strip("-.") or "tree"


def _js_string(text: str) -> str:
    """A JS string literal safe anywhere in a script."""
    return json.dumps(text).replace("<", "\\u003c")


@dataclass
class Site:
    files: list[Path]
    notices: list[str]


@dataclass
class Published:
    """One verified tree, as the site carries it."""

    family: str
    tree: dict  # the document without the reader's own keys
    extra: dict  # what the page needs beside it (lists)
    entry: dict  # its line in the index (without name and bytes)


def _clean(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if not k.startswith("_")}


def _lists(game) -> dict:
    """A game's answers and, where they differ, its guesses, in the engine's order (the page's
    searches break ties by it, as the engine does)."""
    answers, guesses = list(game.answers), list(game.guesses)
    return {"answers": answers, "guesses": None if guesses == answers else guesses}


def _wordle(path: Path, answers, guesses) -> Published:
    """A Wordle-family tree, replayed by wordle/verify.py on its lists: the user's files where
    they are the tree's (by fingerprint), else the shipped lists it names."""
    from .wordle.tree import game_for, generates_codes, read_tree
    from .wordle.verify import load_lists, verify
    from .wordle.weights import recorded, tree_weights

    doc = read_tree(path)
    tries = [(answers, guesses)] if answers is not None else []
    tries.append((None, None))
    problem, unshipped = None, None
    for a, g in tries:
        try:
            words = load_lists(doc, a, g)
            weights = tree_weights(doc, None, *words) if recorded(doc) is not None else None  # its shipped weights
            report = verify(doc, *words, None if weights is None else weights.values)
        except UnshippedListError as exc:  # (the command layer says how to give the lists)
            exc.fact = f"{path}: not published, it cannot be verified here: {exc.fact}"
            unshipped = exc
            continue
        except UserError as exc:
            problem = str(exc)
            continue
        if not report.ok:
            problem = report.defect
            if "list is not the one" in report.defect:
                continue  # another tree's lists: perhaps this one's are shipped
            break
        if generates_codes(doc):  # the codes, generated in the engine's order
            lists = {"answers": list(words[0]), "guesses": None if list(words[1]) == list(words[0]) else list(words[1])}
        else:
            lists = _lists(game_for(doc, a, g))
        tree = _clean(doc)
        entry = {"game": tree["game"], "stats": tree["stats"], "first": tree["root"]["guess"]}
        return Published("wordle", tree, lists, entry)
    if problem is None and unshipped is not None:
        raise unshipped
    raise UserError(f"{path}: not published, the tree does not verify: {problem}")


def _hangman(path: Path) -> Published:
    from .hangman.tree import read_document, verify_document

    doc = read_document(path)
    try:
        verify_document(doc)
    except UserError as exc:
        raise UserError(f"{path}: not published, the tree does not verify: {exc}") from None
    tree = _clean(doc)
    entry = {"game": tree["game"], "stats": tree.get("result", {}), "first": tree["tree"].get("guess")
             if isinstance(tree["tree"], dict) else None}
    return Published("hangman", tree, {}, entry)


def _dordle(path: Path, cache=None) -> Published:
    from .dordle.document import FORMAT, read_document
    from .dordle.tree import verify_document
    from .wordle.patterns import pattern_matrix
    from .wordle.tree import game_for

    doc = read_document(path, (FORMAT,))
    try:
        game = game_for(doc)
        verify_document(doc, game, pattern_matrix(game, cache).matrix)
    except UserError as exc:
        raise UserError(f"{path}: not published, the tree does not verify: {exc}") from None
    tree = _clean(doc)
    entry = {"game": tree["game"], "stats": tree["result"], "first": tree["tree"].get("guess"),
             "max_guesses": tree["max_guesses"]}
    return Published("dordle", tree, _lists(game), entry)


def _absurdle(path: Path) -> Published:
    """An Absurdle proof, every line replayed against the adversary (absurdle/document.py
    verify); the site carries its lines, rule and the game's lists (the page plays the
    adversary itself)."""
    from .absurdle.document import game_of, read, verify

    doc = read(path)
    try:
        game = game_of(doc)
        problems = verify(doc, game)
    except UserError as exc:
        problems = [str(exc)]
    if problems:
        raise UserError(f"{path}: not published, the proof does not verify: {problems[0]}")
    tree = _clean(doc)
    entry = {"game": tree["game"], "stats": {"fewest": tree["fewest"], "openers": tree["openers"]},
             "first": next(iter(tree["lines"]), None), "rule": tree["rule"]}
    return Published("absurdle", tree, {"answers": list(game.answers), "guesses": list(game.guesses)}, entry)


def _multiboard(path: Path, players: dict) -> Published:
    """A multi-board player's measurement, checked by multiboard/document.py verify (its figures
    re-derived from its games' lengths, its opener the player's, its lower bound re-derived; no game
replayed, MULTIBOARD_REPLAY). The file holds no
    tree: the site carries the opener, the figures, the lists and the player's shortlist of
    allowed guesses (the page runs the same heuristic on them, app.js)."""
    from .multiboard.document import game_of, read, spec_of, verify
    from .multiboard import player as players_module
    from .multiboard.player import Player
    from .dordle.search import MAX_CAP
    from .wordle.patterns import pattern_matrix

    doc = read(path)
    try:
        game = game_of(doc)
        matrix = pattern_matrix(game).matrix
        problems = verify(doc, game, matrix, MULTIBOARD_REPLAY)
    except UserError as exc:
        problems = [str(exc)]
    if problems:
        raise UserError(f"{path}: not published, the measurement does not verify: {problems[0]}")
    shortlist = doc["player"]["shortlist"]
    key = (game.identity()["answers_sha256"], game.identity()["guesses_sha256"], shortlist)
    if key not in players:  # (one player a list pair: its shortlist costs seconds)
        players[key] = Player(game, matrix, shortlist)
    player = players[key]
    n = len(game.answers)
    extra_ids = [int(g) for g in player.G[n:]]
    tree = _clean(doc)
    tree.pop("lengths", None)  # every game's length: the figures in `results` are what the page shows
    spec = spec_of(doc)
    extra = {"answers": list(game.answers), "guesses": list(game.guesses),
             "shortlist": [game.guesses[g] for g in extra_ids],
             "exact": {"pair_limit": PAGE_PAIR_LIMIT, "single_limit": PAGE_SINGLE_LIMIT, "max_cap": MAX_CAP},
             # the player's rules 1 to 3 only (the page's): a later player's guard takes over at this slack
             "guard_slack": getattr(players_module, "GUARD_SLACK", None)}
    entry = {"game": tree["game"], "stats": tree["results"], "first": tree["opener"],
             "boards": spec.boards, "max_guesses": spec.cap}
    return Published("multiboard", tree, extra, entry)


def publish(path: Path, answers=None, guesses=None, players: dict | None = None) -> Published:
    """The tree at `path`, verified by its family's verifier, as the site carries it; a tree that
    does not verify is a UserError naming it."""
    from .families import family_of_tree

    family = family_of_tree(path)
    name = family.name if family is not None else "wordle"  # (unknown: the Wordle reader says what it is)
    if name not in PLAYED:
        raise UserError(f"{path}: the web player has no page for {name} trees (it plays {', '.join(PLAYED)})")
    if name == "hangman":
        return _hangman(path)
    if name == "dordle":
        return _dordle(path)
    if name == "absurdle":
        return _absurdle(path)
    if name == "multiboard":
        return _multiboard(path, {} if players is None else players)
    return _wordle(path, answers, guesses)


def build_site(tree_paths, out_dir, answers=None, guesses=None) -> Site:
    """Write the site for `tree_paths` (default: every shipped tree) into `out_dir`: a new or
    empty folder, or a site written here before, whose trees the new site does not have are
    removed. Each tree is verified first (see the module's docstring). `answers`, `guesses`:
    list files for the Wordle-family trees of custom lists (used for each tree they fit)."""
    if (answers is None) != (guesses is None):
        raise ListPairError()
    paths = [Path(p) for p in tree_paths] or default_trees()
    if not paths:
        raise UserError(f"no tree files given and none in {DEFAULT_TREE_DIR}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise UserError(f"{out}: exists and is not a folder")
    try:
        if out.is_dir() and any(out.iterdir()) and not (out / SITE_MARKER).exists():
            raise UserError(f"{out}: folder is not empty and is not a wordtree site; choose an empty or new folder")
        earlier = _site_trees(out) if out.is_dir() else set()
    except OSError as exc:
        raise UserError(f"{out}: cannot read the folder ({exc.strerror or exc})") from None

    files: dict[Path, bytes] = {}
    entries, seen, site, players = [], {}, Site([], []), {}
    for path in paths:
        name = site_name(path)
        if name in seen:
            raise UserError(f"{path}: same site name {name!r} as {seen[name]}; rename one of them")
        seen[name] = path
        done = publish(path, answers, guesses, players)
        raw = orjson.dumps(done.tree)  # compact: about half the size of the indented file
        tree_js = b"".join((f"wordtreeLoaded({_js_string(name)}, ".encode(), raw, b", ",
                            orjson.dumps(done.extra), b");\n"))
        files[out / "trees" / f"{name}.js"] = tree_js
        files[out / "trees" / f"{name}.json"] = raw
        entries.append({"name": name, "family": done.family, **done.entry, "bytes": len(tree_js)})
    opening = next((e["name"] for e in entries if e["name"] == OPENING_TREE),
                   next((e["name"] for e in entries if e["family"] == "wordle"), entries[0]["name"]))
    for e in entries:
        e["opening"] = e["name"] == opening

    index_js = "window.WORDTREE_INDEX = " + json.dumps(entries, indent=1).replace("<", "\\u003c") + ";\n"
    files[out / SITE_MARKER] = index_js.encode()
    for asset in ASSET_FILES:
        files[out / asset] = (ASSETS / asset).read_bytes()
    try:
        for target, data in files.items():
            write_atomic(target, data)
            site.files.append(target)
        for name in earlier - seen.keys():  # trees of the earlier site that this one does not have
            for suffix in (".js", ".json"):
                (out / "trees" / f"{name}{suffix}").unlink(missing_ok=True)
    except OSError as exc:
        raise UserError(f"{out}: cannot write the site ({exc.strerror or exc})") from None
    return site


def _site_trees(out: Path) -> set[str]:
    """The names of the trees in the site already at `out` (its index lists them: only those files
    are ours to remove); none when there is no site there or its index cannot be read."""
    try:
        text = read_bounded_text(out / SITE_MARKER, SITE_INDEX_MAX_BYTES, "site index")
        entries = json.loads(text.split("=", 1)[1].strip().rstrip(";"))
    except (UserError, IndexError, ValueError):  # no site here, or not an index we wrote
        return set()
    names = {e.get("name") for e in entries if isinstance(e, dict)} if isinstance(entries, list) else set()
    # only names this writer could have made: no folder parts, nothing outside trees/
    return {n for n in names if isinstance(n, str) and n == site_name(Path(f"{n}.json"))}


class _SiteHandler(SimpleHTTPRequestHandler):
    """GET/HEAD of the site's files only; quiet; never cached (the site may be rebuilt)."""

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def list_directory(self, path):
        self.send_error(404, "No listing")
        return None

    def send_head(self):
        """A path no file can have (a NUL byte, as in GET /%00: open() raises ValueError) is 404,
        not a traceback and a dropped connection."""
        try:
            return super().send_head()
        except (ValueError, UnicodeError):
            self.send_error(404, "File not found")
            return None

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


class SiteServer:
    """A static server for one folder on 127.0.0.1; `port=0` picks a free port."""

    def __init__(self, directory, port: int = 8000):
        handler = partial(_SiteHandler, directory=str(directory))
        try:
            self.httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
        except OSError as exc:
            raise ListenError(port, str(exc.strerror or exc)) from None
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self._serving = threading.Event()

    def serve(self, seconds: float | None = None) -> None:
        """Serve until shutdown(), or for at most `seconds`. Ctrl-C, and SIGTERM when serving
        from the main thread, raise KeyboardInterrupt here so the caller can clean up."""
        timer = None
        if seconds is not None:
            timer = threading.Timer(seconds, self.httpd.shutdown)
            timer.daemon = True
            timer.start()
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, interrupts.handler) if main else None
        self._serving.set()
        try:
            self.httpd.serve_forever(poll_interval=0.2)
        finally:
            self._serving.clear()
            if main:
                signal.signal(signal.SIGTERM, previous)
            if timer is not None:
                timer.cancel()

    def start_background(self) -> threading.Thread:
        thread = threading.Thread(target=self.serve, daemon=True)
        thread.start()
        self._serving.wait(5)
        return thread

    def shutdown(self) -> None:
        if self._serving.is_set():  # shutdown() would wait forever for a loop that never ran
            self.httpd.shutdown()
        self.httpd.server_close()
