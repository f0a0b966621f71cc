"""The Hangman game server: POST JSON to /game/on, sessions kept in SQLite.

Protocol. Every request is a JSON object with an `action`: `startGame` (with `playerId`), then
`nextWord`, `guessWord` (with `guess`, one letter), `getResult` and `submitResult` (each with
`sessionId`). Rules: `lives` wrong guesses are allowed on a word; the next wrong one loses it (and
counts), as in the engine's search. A repeated letter is answered without counting. A word is
correct once all its letters are revealed. score = 20 x correct words - total wrong guesses. The
guess that loses a word, and any guess after it, is answered with the classic
`"message": "No more guess left."` plus the usual `data` (the word as shown, `totalWordCount`,
`wrongGuessCountOfCurrentWord`), so a client can see what that guess cost: a guess after the
loss costs nothing and leaves the count where it was.

`requestId` (optional, on `startGame`, `nextWord` and `guessWord`): a string of 1 to 128
characters that the client makes unique per request within its session (e.g. a random prefix and
a counter). A request that repeats the session's most recent `requestId` is answered with the
answer stored for it and is not applied again, so a client whose connection broke before the
reply came can send the same request again safely. On `startGame` the key is the player's: a
`startGame` repeating a `requestId` that player started a game with gets that game's session
back instead of a new one. Clients that omit it (the classic protocol) are unaffected.

Every failure is answered with a JSON object `{"message": ...}` and a 4xx/5xx status: malformed
HTTP or JSON (including JSON nested too deeply) 400, too large 413, a request not completed
within the request timeout 408, an unknown session 404, a submitted game 409, and 503 (with
Retry-After) when the session store is missing, broken or locked for longer than
`busy_timeout` seconds. Chunked request bodies are supported; any other transfer coding is
answered 501 and the connection closed, as after every error that leaves the stream unreadable.

Consistency. Every request runs in one SQLite transaction taken with BEGIN IMMEDIATE, so
concurrent players (threads of this server, or several server processes on one database) never
see each other's half-done updates, and a restarted server finds every session exactly where it
was. The server's own workers take turns on an in-process lock first, so they wait on each other
without SQLite's sleeping busy handler (whose back-off of up to 100 ms would set the tail
latency); the busy handler only covers other processes. Each worker keeps its own connection and
checks the database file is still the one it opened, so a deleted or replaced database is an
error (503), never a new empty database.

Words are drawn with `secrets.SystemRandom` (a cryptographic source: the next word cannot be
predicted from the ones seen) unless a seed is given, for reproducible games.

HTTP is served by `httpd.JsonServer` (a thread waiting on every socket, a fixed pool of workers,
timeouts, a listen queue of 1024, every failure a JSON answer); its docstring says why it is not
http.server or a server library.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from urllib.parse import quote

from .httpd import JsonServer

WIN_POINTS = 20
MAX_KEY = 128
PATH = "/game/on"
SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    session_id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    created TEXT NOT NULL,
    words_per_game INTEGER NOT NULL,
    lives INTEGER NOT NULL,
    word_count INTEGER NOT NULL DEFAULT 0,
    correct INTEGER NOT NULL DEFAULT 0,
    total_wrong INTEGER NOT NULL DEFAULT 0,
    word TEXT,
    guessed TEXT NOT NULL DEFAULT '',
    wrong INTEGER NOT NULL DEFAULT 0,
    submitted TEXT,
    last_key TEXT,
    last_answer TEXT,
    start_key TEXT
)
"""
# absent from databases of older servers
ADDED_COLUMNS = {"last_key": "TEXT", "last_answer": "TEXT", "start_key": "TEXT"}
START_INDEX = "CREATE INDEX IF NOT EXISTS sessions_start ON sessions (player_id, start_key)"
KEYED_ACTIONS = {"nextWord", "guessWord"}


class BadRequest(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class StoreUnavailable(Exception):
    """The database is missing, broken or locked: answered 503, the client may try again."""


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _request_key(request: dict) -> str | None:
    """The request's `requestId`, checked: None when absent."""
    key = request.get("requestId")
    if key is not None and not (isinstance(key, str) and 0 < len(key) <= MAX_KEY):
        raise BadRequest(400, f"requestId must be a string of 1 to {MAX_KEY} characters")
    return key


def shown(word: str, guessed: str) -> str:
    return "".join(ch.upper() if ch in guessed else "*" for ch in word)


class Game:
    """The protocol over one database; `handle(request) -> (status, answer)` is all of it.

    `seed` None draws words from a cryptographic source; `busy_timeout` is how long a request
    waits for the database lock before it is answered 503."""

    def __init__(self, db_path: str, words, words_per_game: int = 80, lives: int = 10, seed: int | None = None,
                 busy_timeout: float = 2.0):
        if not words:
            raise ValueError("the server needs at least one word")
        self.db_path = os.path.abspath(str(db_path))
        self.words = list(words)
        self.words_per_game = words_per_game
        self.lives = lives
        self.busy_timeout = busy_timeout
        self.rng = secrets.SystemRandom() if seed is None else random.Random(seed)
        self._rng_lock = threading.Lock()
        self._lock = threading.Lock()  # this process's workers take turns before BEGIN IMMEDIATE
        self._local = threading.local()
        db = sqlite3.connect(self.db_path, timeout=busy_timeout, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(SCHEMA)
            have = {r[1] for r in db.execute("PRAGMA table_info(sessions)")}
            for name, kind in ADDED_COLUMNS.items():
                if name not in have:
                    db.execute(f"ALTER TABLE sessions ADD COLUMN {name} {kind}")
            db.execute(START_INDEX)
            # a store it cannot write (read-only) fails here, not at every request: a write, rolled back
            version = db.execute("PRAGMA user_version").fetchone()[0]
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(f"PRAGMA user_version = {int(version)}")
            finally:
                db.execute("ROLLBACK")
        finally:
            db.close()

    def _db(self) -> sqlite3.Connection:
        """This thread's connection, opened again when the file at db_path is not the one it has
        open (deleted, replaced); mode=rw: a missing database is an error, not a new empty one.
        WAL with synchronous=NORMAL: a commit survives the server process dying."""
        st = os.stat(self.db_path)
        ident = (st.st_dev, st.st_ino)
        local = self._local
        if getattr(local, "db", None) is not None and local.ident == ident:
            return local.db
        self._forget()
        uri = f"file:{quote(self.db_path)}?mode=rw"
        db = sqlite3.connect(uri, uri=True, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA synchronous=NORMAL")
        local.db, local.ident = db, ident
        return db

    def _forget(self) -> None:
        db = getattr(self._local, "db", None)
        self._local.db = None
        if db is not None:
            try:
                db.close()
            except sqlite3.Error:
                pass

    @contextmanager
    def _transaction(self):
        if not self._lock.acquire(timeout=self.busy_timeout):
            raise StoreUnavailable("busy")
        try:
            try:
                db = self._db()
                db.execute("BEGIN IMMEDIATE")
            except FileNotFoundError:
                raise StoreUnavailable("the database is missing") from None
            except (sqlite3.Error, OSError) as exc:
                self._forget()
                raise StoreUnavailable(str(exc)) from None
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                try:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                except sqlite3.Error:
                    self._forget()
                raise
        finally:
            self._lock.release()

    def _draw(self) -> str:
        with self._rng_lock:
            return self.rng.choice(self.words)

    def handle(self, request) -> tuple[int, dict]:
        try:
            try:
                return 200, self._handle(request)
            except sqlite3.Error as exc:
                self._forget()
                raise StoreUnavailable(str(exc)) from None
        except BadRequest as exc:
            return exc.status, {"message": str(exc)}
        except StoreUnavailable as exc:
            return 503, {"message": f"the session store is unavailable, try again ({exc})"}

    def _handle(self, request) -> dict:
        if not isinstance(request, dict):
            raise BadRequest(400, "the request must be a JSON object")
        action = request.get("action")
        if action == "startGame":
            return self._start(request)
        if action not in {"nextWord", "guessWord", "getResult", "submitResult"}:
            raise BadRequest(400, f"unknown action {action!r}")
        sid = request.get("sessionId")
        if not isinstance(sid, str) or not sid:
            raise BadRequest(400, "missing sessionId")
        key = _request_key(request) if action in KEYED_ACTIONS else None
        with self._transaction() as db:
            row = db.execute("SELECT * FROM sessions WHERE session_id = ?", (sid,)).fetchone()
            if row is None:
                raise BadRequest(404, f"unknown session {sid!r}")
            if key is not None and row["last_key"] == key:  # a retry: answered as before, not applied
                stored = json.loads(row["last_answer"])
                if stored["action"] != action or stored.get("guess") != request.get("guess"):
                    raise BadRequest(409, "this requestId was used for another request")
                return stored["answer"]
            answer = getattr(self, "_" + action)(db, row, request)
            if key is not None:
                stored = {"action": action, "guess": request.get("guess"), "answer": answer}
                db.execute("UPDATE sessions SET last_key = ?, last_answer = ? WHERE session_id = ?",
                           (key, json.dumps(stored), sid))
            return answer

    def _start(self, request) -> dict:
        player = request.get("playerId")
        if not isinstance(player, str) or not player.strip():
            raise BadRequest(400, "missing playerId")
        key = _request_key(request)
        with self._transaction() as db:
            row = None if key is None else db.execute(
                "SELECT session_id FROM sessions WHERE player_id = ? AND start_key = ?", (player, key)).fetchone()
            if row is not None:  # a retried start: the game it began, not a second one
                sid = row["session_id"]
            else:
                sid = secrets.token_hex(16)
                db.execute(
                    "INSERT INTO sessions (session_id, player_id, created, words_per_game, lives, start_key) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (sid, player, _now(), self.words_per_game, self.lives, key),
                )
        return {"message": "THE GAME IS ON", "sessionId": sid,
                "data": {"numberOfWordsToGuess": self.words_per_game, "numberOfGuessAllowedForEachWord": self.lives}}

    @staticmethod
    def _open(row) -> None:
        if row["submitted"]:
            raise BadRequest(409, "this game was submitted already")

    @staticmethod
    def _word_answer(row, word: str, guessed: str, wrong: int, count: int) -> dict:
        return {"sessionId": row["session_id"],
                "data": {"word": shown(word, guessed), "totalWordCount": count, "wrongGuessCountOfCurrentWord": wrong}}

    def _nextWord(self, db, row, request) -> dict:
        self._open(row)
        if row["word_count"] >= row["words_per_game"]:
            return {"message": "No more word to guess."}
        word = self._draw()
        count = row["word_count"] + 1
        db.execute("UPDATE sessions SET word = ?, guessed = '', wrong = 0, word_count = ? WHERE session_id = ?",
                   (word, count, row["session_id"]))
        return self._word_answer(row, word, "", 0, count)

    def _guessWord(self, db, row, request) -> dict:
        self._open(row)
        guess = request.get("guess")
        if not (isinstance(guess, str) and len(guess) == 1 and guess.isascii() and guess.isalpha()):
            raise BadRequest(400, f"a guess must be a single letter, got {guess!r}")
        word = row["word"]
        if word is None:
            raise BadRequest(409, "no word to guess: ask for nextWord first")
        letter = guess.lower()
        guessed, wrong = row["guessed"], row["wrong"]
        if wrong > row["lives"]:  # lost already: this guess costs nothing
            return {"message": "No more guess left.", **self._word_answer(row, word, guessed, wrong, row["word_count"])}
        if letter not in guessed and all(ch in guessed for ch in word):
            return self._word_answer(row, word, guessed, wrong, row["word_count"])  # solved already
        if letter not in guessed:
            guessed += letter
            correct = row["correct"]
            if letter in word:
                if all(ch in guessed for ch in word):
                    correct += 1
            else:
                wrong += 1
            db.execute("UPDATE sessions SET guessed = ?, wrong = ?, correct = ?, total_wrong = ? WHERE session_id = ?",
                       (guessed, wrong, correct, row["total_wrong"] + (wrong - row["wrong"]), row["session_id"]))
            if wrong > row["lives"]:  # this guess lost the word, and counted
                return {"message": "No more guess left.",
                        **self._word_answer(row, word, guessed, wrong, row["word_count"])}
        return self._word_answer(row, word, guessed, wrong, row["word_count"])

    @staticmethod
    def _figures(row) -> dict:
        """The result as getResult and submitResult give it: the player's and the session's ids
        (submitResult's, and getResult's too, so that a client reads both replies alike), then the
        counts and the score."""
        return {"playerId": row["player_id"], "sessionId": row["session_id"], "totalWordCount": row["word_count"],
                "correctWordCount": row["correct"], "totalWrongGuessCount": row["total_wrong"],
                "score": WIN_POINTS * row["correct"] - row["total_wrong"]}

    def _getResult(self, db, row, request) -> dict:
        return {"sessionId": row["session_id"], "data": self._figures(row)}

    def _submitResult(self, db, row, request) -> dict:
        stamp = row["submitted"]
        if not stamp:
            stamp = _now()
            db.execute("UPDATE sessions SET submitted = ? WHERE session_id = ?", (stamp, row["session_id"]))
        return {"message": "GAME OVER", "sessionId": row["session_id"], "data": {**self._figures(row), "datetime": stamp}}



def make_server(game: Game, host: str = "127.0.0.1", port: int = 0, **options) -> JsonServer:
    """A server answering POST /game/on with `game`; port 0 picks a free port. `options`: those
    of JsonServer (workers, backlog, request_timeout, idle_timeout, max_connections)."""
    return JsonServer(game.handle, PATH, host, port, **options)
