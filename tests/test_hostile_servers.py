"""Hostile peers of the Hangman programs: `hangman-bot` against servers whose replies lack fields,
carry the wrong types, change the word mid-game or are huge (one line, exit 1, never a traceback);
`hangman-server` asked for odd paths (a 4xx answer, the server serving on), crowded by idle
connections (a real request still answered), and started on a store it cannot write (refused
at start, one line, exit 1)."""

from __future__ import annotations

import contextlib
import http.client
import io
import json
import socket
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from wordtree import commands as cli
from wordtree.hangman.server import Game, make_server

ROOT = Path(__file__).resolve().parent.parent
WORDS = ["apple", "lemon", "mango"]
START = {"message": "THE GAME IS ON", "sessionId": "s1",
         "data": {"numberOfWordsToGuess": 1, "numberOfGuessAllowedForEachWord": 10}}
RESULT = {"sessionId": "s1", "data": {"totalWordCount": 1, "correctWordCount": 0, "totalWrongGuessCount": 0,
                                      "score": 0}}


class Scripted(BaseHTTPRequestHandler):
    """Answers each action with the server's `replies[action]`: a JSON value, or raw bytes."""

    def do_POST(self):  # noqa: N802 - http.server's name
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        reply = self.server.replies(request)
        body = reply if isinstance(reply, bytes) else json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:  # the bot stopped reading (a huge body)
            pass

    def log_message(self, format, *args):  # noqa: A002
        pass


@contextlib.contextmanager
def scripted(replies):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    server.daemon_threads = True
    server.replies = replies
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/game/on"
    finally:
        server.shutdown()
        server.server_close()


def bot(url) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["hangman-bot", "--url", url, "--player", "p"])
    return code, err.getvalue()


def game(start=START, next_word=None, guess=None, result=RESULT):
    """The replies of a one-word game of `mango`, each one replaceable."""
    state = {"shown": "*****"}

    def replies(request):
        action = request["action"]
        if action == "startGame":
            return start
        if action == "nextWord":
            if state.get("given"):
                return {"message": "No more word to guess."}
            state["given"] = True
            return next_word if next_word is not None else {"sessionId": "s1", "data": {"word": "*****"}}
        if action == "guessWord":
            if guess is not None:
                return guess(request["guess"].lower(), state)
            state["shown"] = "".join(ch.upper() if ch == request["guess"].lower() or s != "*" else s
                                     for ch, s in zip("mango", state["shown"]))
            return {"sessionId": "s1", "data": {"word": state["shown"], "wrongGuessCountOfCurrentWord": 0}}
        return {**result, "data": {**result["data"], "sessionId": "s1"}} if action == "submitResult" and \
            isinstance(result.get("data"), dict) else result

    return replies


def test_the_scripted_game_is_played_to_its_end():
    with scripted(game()) as url:
        code, err = bot(url)
    assert code == 0, err


HUGE = b'{"message": "' + b"x" * (2 << 20) + b'"}'


@pytest.mark.parametrize(("replies", "needle"), [
    (game(start={"message": "THE GAME IS ON", "data": START["data"]}), "sessionId is missing"),
    (game(start={**START, "sessionId": ["s1"]}), "sessionId must be a string, got a list"),
    (game(start={**START, "data": {"numberOfWordsToGuess": 1, "numberOfGuessAllowedForEachWord": "10"}}),
     "numberOfGuessAllowedForEachWord must be"),
    (game(start={**START, "data": None}), "data must be an object"),
    (game(start=[1, 2]), "not a JSON object, got a list"),
    (game(start=b"not json"), "not JSON"),
    (game(start=HUGE), "larger than 1 MB"),
    (game(next_word={"data": {"word": 12345}}), "data.word must be a word"),
    (game(next_word={"data": {}}), "data.word is missing"),
    (game(next_word={"data": {"word": "*" * 5000}}), "data.word must be a word"),
    (game(next_word=HUGE), "larger than 1 MB"),
    (game(guess=lambda letter, state: {"data": {"word": "******"}}), "5 letters as 6 letters"),
    (game(guess=lambda letter, state: {"data": {"word": "***"}}), "5 letters as 3 letters"),
    (game(guess=lambda letter, state: {"data": {"word": {"w": 1}}}), "data.word must be a word"),
    (game(guess=lambda letter, state: {"data": {"word": "*****", "wrongGuessCountOfCurrentWord": "one"}}),
     "wrongGuessCountOfCurrentWord must be"),
    (game(guess=lambda letter, state: {"message": 7, "data": {"word": "*****"}}), "message must be a string"),
    (game(guess=lambda letter, state: {"data": {"word": "*****"}}), "after every letter was guessed"),
    (game(result={"data": {"totalWordCount": 1}}), "correctWordCount is missing"),
    (game(result={"data": {**RESULT["data"], "score": "high"}}), "data.score must be a whole number"),
], ids=["no-session", "session-list", "lives-string", "data-null", "list", "not-json", "huge-start",
        "word-number", "word-missing", "word-long", "huge-word", "longer", "shorter", "word-object",
        "wrong-count-string", "message-number", "never-revealed", "result-missing", "score-string"])
def test_a_hostile_server_is_one_line_and_exit_1(replies, needle):
    with scripted(replies) as url:
        code, err = bot(url)
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1 and lines[0].startswith("wordtree: error: "), err
    assert needle in lines[0], lines[0]


def test_a_revealed_letter_that_changes_is_one_line():
    def guess(letter, state):
        state["n"] = state.get("n", 0) + 1
        return {"data": {"word": "M****" if state["n"] == 1 else "A****"}}

    with scripted(game(guess=guess)) as url:
        code, err = bot(url)
    assert code == 1 and "a revealed letter changed" in err and len(err.strip().splitlines()) == 1, err


def test_more_words_than_announced_is_one_line():
    def replies(request):
        if request["action"] == "startGame":
            return START
        if request["action"] == "nextWord":
            return {"sessionId": "s1", "data": {"word": "*"}}
        if request["action"] == "guessWord":
            return {"sessionId": "s1", "data": {"word": request["guess"].upper()}}
        return {"sessionId": "s1", "data": {**RESULT["data"], "sessionId": "s1"}}

    with scripted(replies) as url:
        code, err = bot(url)
    assert code == 1 and "more words than the 1" in err, err


# -- the server --------------------------------------------------------------------------------
def raw_request(port: int, data: bytes, timeout: float = 30.0) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


@pytest.fixture
def serving(tmp_path):
    servers = []

    def start(**options):
        server = make_server(Game(tmp_path / "h.sqlite3", WORDS, 2, 10, 1), "127.0.0.1", 0, **options)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        servers.append((server, thread))
        return server

    yield start
    for server, thread in servers:
        server.shutdown()
        server.server_close()
        thread.join(5)


def post_start(port: int, timeout: float = 30.0) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("POST", "/game/on", body=json.dumps({"playerId": "ann", "action": "startGame"}),
                     headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        json.loads(resp.read())
        return resp.status
    finally:
        conn.close()


ODD = [b"/%00", b"/game/on%00", b"/" + b"a" * 8000, b"/%ff%fe", b"/game/%c3%28", b"/../../etc/passwd",
       b"/game/on/..", b"/\xff\xfe", b"*", b"//game//on", b"/game/on?x=%00"]


@pytest.mark.parametrize("method", [b"GET", b"POST"])
def test_odd_paths_are_4xx_and_the_server_keeps_serving(serving, method):
    server = serving()
    port = server.server_address[1]
    for path in ODD:
        body = b'{"action": "getResult", "sessionId": "x"}'
        answer = raw_request(port, method + b" " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                             b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        status = int(answer.split(b" ", 2)[1])
        assert 400 <= status < 500, (path, answer[:200])
        json.loads(answer.partition(b"\r\n\r\n")[2])  # a JSON answer
    assert post_start(port) == 200


def test_idle_connections_past_the_limit_do_not_keep_a_player_waiting(serving):
    """limit+50 idle connections, then a real request: answered (30 s is a hang guard; an idle
    connection would hold its place for the whole idle timeout of 600 s)."""
    limit = 20
    server = serving(max_connections=limit, idle_timeout=600)
    port = server.server_address[1]
    idle = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(limit + 50)]
    try:
        assert post_start(port, timeout=30) == 200
        assert len(server._conns) <= limit
    finally:
        for s in idle:
            s.close()


def test_a_store_it_cannot_write_is_refused_at_start(tmp_path):
    """A database SQLite can only read (its header's write version above 2, read-only whoever
    opens it, root included) is refused at start with one line, not answered 503 ever after."""
    db = tmp_path / "h.sqlite3"
    Game(db, WORDS)
    data = bytearray(db.read_bytes())
    data[18] = 3  # the file format's write version: read-only
    db.write_bytes(bytes(data))
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        Game(db, WORDS)
    # the command, in a process of its own: a server that started anyway would serve until killed
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "hangman-server", "--db", str(db), "--words",
                           str(words), "--port", "0"], capture_output=True, text=True, timeout=120)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and len(lines) == 1 and "readonly" in lines[0] and str(db) in lines[0], done.stderr
