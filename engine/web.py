"""The web player: write a static site for some tree files, and serve it on 127.0.0.1.

The site must work opened straight from disk (file://), where a page may not fetch files: so each
tree is written as `trees/NAME.js`, a script that calls `wordtreeLoaded(NAME, TREE, ANSWERS)` with
the tree's JSON (compact) and the game's answer list (null when it cannot be had here: the page
needs it to tell an answer from a probe guess that happens to fit the feedback, see app.js). The
page adds that script when the tree is chosen; `trees/index.js` lists the trees (game, stats,
first guess) so the menu shows before any tree loads. `trees/NAME.json` is the same tree, for
download. Everything the page needs is in the folder: no CDN, no web fonts, no framework.
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

from .data import trees_dir, web_assets_dir
from .errors import ListenError, ListPairError, UserError
from .files import read_bounded_text, write_atomic
from .wordle.tree import game_for, read_tree

ASSETS = web_assets_dir()
ASSET_FILES = ("index.html", "app.js", "style.css")
DEFAULT_TREE_DIR = trees_dir()
SITE_MARKER = "trees/index.js"  # a folder holding this is a site we wrote and may overwrite
SITE_INDEX_MAX_BYTES = 16 << 20  # the largest site index read (it lists the trees by name)


def default_trees() -> list[Path]:
    """The project's shipped trees, used when no tree is named."""
    return sorted(DEFAULT_TREE_DIR.glob("*.json"))


def site_name(path: Path) -> str:
    """The tree's name in the site (file stem, only characters safe in a URL and a file name)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", path.stem).strip("-.") or "tree"


def _js_string(text: str) -> str:
    """A JS string literal safe anywhere in a script."""
    return json.dumps(text).replace("<", "\\u003c")


@dataclass
class Site:
    files: list[Path]
    notices: list[str]  # trees whose answer list could not be had (the page then guesses, see app.js)


def tree_answers(doc: dict, answers=None, guesses=None) -> list[str] | None:
    """The tree's answer list, so the page can tell an answer from a probe guess that merely fits
    the feedback so far: from the user's list files `answers` and `guesses` when given and they
    are the tree's (by fingerprint), else from the shipped lists the tree names; None when the
    game or its lists are not available here."""
    if answers is not None:
        try:
            return list(game_for(doc, answers, guesses).answers)
        except (UserError, ValueError, OSError):  # another tree's lists: perhaps this one's are shipped
            pass
    try:
        return list(game_for(doc).answers)
    except (UserError, ValueError, OSError):  # a game this engine does not know yet, or lists not here
        return None


def build_site(tree_paths, out_dir, answers=None, guesses=None) -> Site:
    """Write the site for `tree_paths` (default: the project's trees/) into `out_dir`: a new or
    empty folder, or a site written here before, whose trees the new site does not have are removed.
    `answers`, `guesses`: list files for the trees of custom lists (used for each tree they fit)."""
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
    entries, seen, site = [], {}, Site([], [])
    for path in paths:
        doc = read_tree(path)
        tree = {k: v for k, v in doc.items() if not k.startswith("_")}
        raw = orjson.dumps(tree)  # compact: about half the size of the indented file
        name = site_name(path)
        if name in seen:
            raise UserError(f"{path}: same site name {name!r} as {seen[name]}; rename one of them")
        seen[name] = path
        words = tree_answers(doc, answers, guesses)
        if words is None:
            site.notices.append(f"notice: {path}: the answer list of game {tree['game']['name']!r} is not available; "
                                "the page counts every guess that fits the feedback as a possible answer")
        tree_js = b"".join((f"wordtreeLoaded({_js_string(name)}, ".encode(), raw, b", ", orjson.dumps(words), b");\n"))
        files[out / "trees" / f"{name}.js"] = tree_js
        files[out / "trees" / f"{name}.json"] = raw
        entries.append({"name": name, "game": tree["game"], "stats": tree["stats"],
                        "first": tree["root"]["guess"], "bytes": len(raw)})

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

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


def _interrupt(signum, frame):
    raise KeyboardInterrupt


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
        previous = signal.signal(signal.SIGTERM, _interrupt) if main else None
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
