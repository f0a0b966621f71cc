"""The Hangman game server: POST JSON to /game/on, sessions kept in SQLite.

Every request runs in one SQLite transaction taken with BEGIN IMMEDIATE, so concurrent players
(threads of this server, or several server processes on one database) never see each other's
half-done updates, and a restarted server finds every session exactly where it was.
Rules: `lives` wrong guesses are allowed on a word; the next wrong one loses it (and counts),
as in the engine's search. A repeated letter is answered without counting. A word is correct
once all its letters are revealed. score = 20 x correct words - total wrong guesses.
"""

from __future__ import annotations

import json
import random
import secrets
import sqlite3
import threading
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WIN_POINTS = 20
MAX_BODY = 65536
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
    submitted TEXT
)
"""


class BadRequest(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def shown(word: str, guessed: str) -> str:
    return "".join(ch.upper() if ch in guessed else "*" for ch in word)


class Game:
    """The protocol over one database; `handle(request) -> (status, answer)` is all of it."""

    def __init__(self, db_path: str, words, words_per_game: int = 80, lives: int = 10, seed: int | None = None):
        if not words:
            raise ValueError("the server needs at least one word")
        self.db_path = str(db_path)
        self.words = list(words)
        self.words_per_game = words_per_game
        self.lives = lives
        self._rng = random.Random(seed)
        self._rng_lock = threading.Lock()
        db = self._connect()
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(SCHEMA)
        finally:
            db.close()

    def _connect(self) -> sqlite3.Connection:
        """WAL with synchronous=NORMAL: a commit survives the server process dying (a restart
        loses nothing) without waiting for the disk on every guess."""
        db = sqlite3.connect(self.db_path, timeout=30, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def _draw(self) -> str:
        with self._rng_lock:
            return self._rng.choice(self.words)

    def handle(self, request) -> tuple[int, dict]:
        try:
            if not isinstance(request, dict):
                raise BadRequest(400, "the request must be a JSON object")
            action = request.get("action")
            if action == "startGame":
                return 200, self._start(request)
            if action not in {"nextWord", "guessWord", "getResult", "submitResult"}:
                raise BadRequest(400, f"unknown action {action!r}")
            sid = request.get("sessionId")
            if not isinstance(sid, str) or not sid:
                raise BadRequest(400, "missing sessionId")
            db = self._connect()
            try:
                db.execute("BEGIN IMMEDIATE")
                row = db.execute("SELECT * FROM sessions WHERE session_id = ?", (sid,)).fetchone()
                if row is None:
                    raise BadRequest(404, f"unknown session {sid!r}")
                answer = getattr(self, "_" + action)(db, row, request)
                db.execute("COMMIT")
                return 200, answer
            finally:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                db.close()
        except BadRequest as exc:
            return exc.status, {"message": str(exc)}

    def _start(self, request) -> dict:
        player = request.get("playerId")
        if not isinstance(player, str) or not player.strip():
            raise BadRequest(400, "missing playerId")
        sid = secrets.token_hex(16)
        db = self._connect()
        try:
            db.execute(
                "INSERT INTO sessions (session_id, player_id, created, words_per_game, lives) VALUES (?, ?, ?, ?, ?)",
                (sid, player, _now(), self.words_per_game, self.lives),
            )
        finally:
            db.close()
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
        if wrong > row["lives"]:
            return {"message": "No more guess left."}
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
            if wrong > row["lives"]:
                return {"message": "No more guess left."}
        return self._word_answer(row, word, guessed, wrong, row["word_count"])

    @staticmethod
    def _figures(row) -> dict:
        return {"totalWordCount": row["word_count"], "correctWordCount": row["correct"],
                "totalWrongGuessCount": row["total_wrong"],
                "score": WIN_POINTS * row["correct"] - row["total_wrong"]}

    def _getResult(self, db, row, request) -> dict:
        return {"sessionId": row["session_id"], "data": self._figures(row)}

    def _submitResult(self, db, row, request) -> dict:
        stamp = row["submitted"]
        if not stamp:
            stamp = _now()
            db.execute("UPDATE sessions SET submitted = ? WHERE session_id = ?", (stamp, row["session_id"]))
        data = {"playerId": row["player_id"], "sessionId": row["session_id"], **self._figures(row), "datetime": stamp}
        return {"message": "GAME OVER", "sessionId": row["session_id"], "data": data}


def make_server(game: Game, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """An HTTP server answering POST /game/on with `game`; port 0 picks a free port."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _send(self, status: int, answer: dict) -> None:
            body = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            if self.path.split("?")[0].rstrip("/") != "/game/on":
                return self._send(404, {"message": f"no such endpoint {self.path}; POST to /game/on"})
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            if length < 0 or length > MAX_BODY:
                self.close_connection = True
                return self._send(413 if length > MAX_BODY else 400, {"message": "bad or too large Content-Length"})
            raw = self.rfile.read(length)
            try:
                request = json.loads(raw)
            except (UnicodeDecodeError, json.JSONDecodeError):
                return self._send(400, {"message": "the body is not JSON"})
            self._send(*game.handle(request))

        def do_GET(self):
            self._send(405, {"message": "POST a JSON object to /game/on"})

        def log_message(self, format, *args):  # quiet: one line per request is noise for a game
            pass

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    return server
