"""Hangman server and bot end to end on 127.0.0.1: the protocol, every bad request, concurrent
players, a restart in the middle of a game, the bot with and without knowing the words; and the
server under stress: a crowd of players, slow and malformed requests, chunked bodies, retried
requests, a broken or locked database, the word draw, a lost word's reply."""

import http.client
import json
import secrets
import socket
import sqlite3
import threading
import urllib.error
import urllib.request

import pytest

from wordtree import commands as cli
from wordtree.errors import UserError
from wordtree.hangman.bot import Client, Player, run_bot
from wordtree.hangman.server import Game, make_server

WORDS = ["apple", "banana", "cherry", "melon", "grape", "lemon", "mango", "peach", "quince", "kiwi"]


class Running:
    def __init__(self, db, words=WORDS, per_game=3, lives=10, seed=1, busy_timeout=2.0, **options):
        self.game = Game(db, words, per_game, lives, seed, busy_timeout=busy_timeout)
        self.server = make_server(self.game, "127.0.0.1", 0, **options)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/game/on"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


@pytest.fixture
def running(tmp_path):
    servers = []

    def start(**kw):
        s = Running(tmp_path / "h.sqlite3", **kw)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.stop()


def post(url, body, raw=False):
    data = body if raw else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_protocol_of_a_whole_game(running):
    url = running(words=["apple", "melon"], per_game=2, lives=2).url
    status, start = post(url, {"playerId": "ann", "action": "startGame"})
    assert status == 200 and start["message"] == "THE GAME IS ON"
    assert start["data"] == {"numberOfWordsToGuess": 2, "numberOfGuessAllowedForEachWord": 2}
    sid = start["sessionId"]
    _, nxt = post(url, {"sessionId": sid, "action": "nextWord"})
    word = nxt["data"]["word"]
    assert set(word) == {"*"} and nxt["data"]["totalWordCount"] == 1 and nxt["data"]["wrongGuessCountOfCurrentWord"] == 0
    # lose it: three letters in none of the words (the third exceeds the 2 allowed)
    _, a = post(url, {"sessionId": sid, "action": "guessWord", "guess": "Z"})
    assert a["data"]["wrongGuessCountOfCurrentWord"] == 1
    _, a = post(url, {"sessionId": sid, "action": "guessWord", "guess": "z"})  # repeated: not counted
    assert a["data"]["wrongGuessCountOfCurrentWord"] == 1
    _, a = post(url, {"sessionId": sid, "action": "guessWord", "guess": "x"})
    assert a["data"]["wrongGuessCountOfCurrentWord"] == 2
    _, a = post(url, {"sessionId": sid, "action": "guessWord", "guess": "j"})
    assert a["message"] == "No more guess left." and a["data"]["wrongGuessCountOfCurrentWord"] == 3  # it counted
    _, a = post(url, {"sessionId": sid, "action": "guessWord", "guess": "v"})
    assert a["message"] == "No more guess left." and a["data"]["wrongGuessCountOfCurrentWord"] == 3  # it did not
    assert a["data"]["totalWordCount"] == 1 and set(a["data"]["word"]) == {"*"}
    # solve the second by guessing every letter
    _, nxt = post(url, {"sessionId": sid, "action": "nextWord"})
    length = len(nxt["data"]["word"])
    shown = None
    for letter in "aplemon":  # at most two misses (a, p for melon)
        _, a = post(url, {"sessionId": sid, "action": "guessWord", "guess": letter})
        shown = a["data"]["word"]
        if "*" not in shown:
            break
    assert "*" not in shown and len(shown) == length and shown.isupper()
    wrong2 = a["data"]["wrongGuessCountOfCurrentWord"]
    _, res = post(url, {"sessionId": sid, "action": "getResult"})
    assert res["data"] == {"playerId": "ann", "sessionId": sid, "totalWordCount": 2, "correctWordCount": 1,
                           "totalWrongGuessCount": 3 + wrong2, "score": 20 - 3 - wrong2}
    assert post(url, {"sessionId": sid, "action": "nextWord"})[1] == {"message": "No more word to guess."}
    _, over = post(url, {"sessionId": sid, "action": "submitResult"})
    assert over["message"] == "GAME OVER" and over["sessionId"] == sid
    assert {k: over["data"][k] for k in res["data"]} == res["data"]
    assert over["data"]["playerId"] == "ann" and over["data"]["datetime"]
    assert post(url, {"sessionId": sid, "action": "nextWord"})[0] == 409


def test_bad_requests_get_4xx_json_and_the_server_keeps_serving(running):
    url = running().url
    sid = post(url, {"playerId": "bob", "action": "startGame"})[1]["sessionId"]
    assert post(url, {"sessionId": sid, "action": "guessWord", "guess": "a"})[0] == 409  # no word yet
    post(url, {"sessionId": sid, "action": "nextWord"})
    bad = [
        (b"not json", True, 400),
        (b"[1, 2]", True, 400),
        ({"sessionId": sid, "action": "dance"}, False, 400),
        ({"action": "startGame"}, False, 400),
        ({"sessionId": "nope", "action": "nextWord"}, False, 404),
        ({"action": "nextWord"}, False, 400),
        ({"sessionId": sid, "action": "guessWord", "guess": "ab"}, False, 400),
        ({"sessionId": sid, "action": "guessWord", "guess": ""}, False, 400),
        ({"sessionId": sid, "action": "guessWord", "guess": "1"}, False, 400),
        ({"sessionId": sid, "action": "guessWord", "guess": "é"}, False, 400),
        ({"sessionId": sid, "action": "guessWord"}, False, 400),
    ]
    for body, raw, code in bad:
        status, answer = post(url, body, raw)
        assert status == code and isinstance(answer.get("message"), str), body
    with pytest.raises(urllib.error.HTTPError) as exc:
        urllib.request.urlopen(url, timeout=10)
    assert exc.value.code == 405
    assert post(url.replace("/game/on", "/other"), {"action": "startGame"})[0] == 404
    _, res = post(url, {"sessionId": sid, "action": "getResult"})
    assert res["data"]["totalWrongGuessCount"] == 0  # nothing bad was counted
    assert post(url, {"playerId": "bob", "action": "startGame"})[0] == 200


def test_restart_mid_game_loses_nothing(running, tmp_path):
    first = running(per_game=2)
    url = first.url
    sid = post(url, {"playerId": "cat", "action": "startGame"})[1]["sessionId"]
    post(url, {"sessionId": sid, "action": "nextWord"})
    before = [post(url, {"sessionId": sid, "action": "guessWord", "guess": g})[1] for g in "ez"]
    first.stop()
    second = running(per_game=2, seed=99)
    url = second.url
    again = post(url, {"sessionId": sid, "action": "guessWord", "guess": "z"})[1]  # repeated: same answer
    assert again == before[-1]
    _, res = post(url, {"sessionId": sid, "action": "getResult"})
    assert res["data"]["totalWordCount"] == 1
    assert res["data"]["totalWrongGuessCount"] == sum(1 for g in "ez" if g not in before[-1]["data"]["word"].lower())
    done = run_bot(url, "cat", resume=sid, words_file=None, say=lambda _: None)
    assert done["totalWordCount"] == 2 and done["sessionId"] == sid


def test_concurrent_players_do_not_disturb_each_other(running):
    url = running(per_game=4).url
    errors, results = [], {}

    def player(name):
        try:
            sid = post(url, {"playerId": name, "action": "startGame"})[1]["sessionId"]
            wrong = correct = 0
            for _ in range(4):
                post(url, {"sessionId": sid, "action": "nextWord"})
                for letter in "etaoinsrhlcmgpbkyqu":
                    status, a = post(url, {"sessionId": sid, "action": "guessWord", "guess": letter})
                    if "data" not in a:
                        break
                    wrong = max(wrong, 0)
                    if "*" not in a["data"]["word"]:
                        correct += 1
                        break
            res = post(url, {"sessionId": sid, "action": "getResult"})[1]["data"]
            results[name] = (res, correct)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=player, args=(f"p{i}",)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert len(results) == 8
    for res, correct in results.values():
        assert res["totalWordCount"] == 4 and res["correctWordCount"] == correct
        assert res["score"] == 20 * res["correctWordCount"] - res["totalWrongGuessCount"]


def test_bot_plays_words_it_knows_with_the_trees(running):
    words = Player().by_length[13][:40]  # 13 letters: the exact tree is in trees/hangman/
    url = running(words=words, per_game=5).url
    lines = []
    done = run_bot(url, "bot", say=lines.append)
    assert done["correctWordCount"] == 5 and done["totalWordCount"] == 5
    assert done["score"] == 100 - done["totalWrongGuessCount"] and done["totalWrongGuessCount"] <= 10
    assert lines[-1].startswith("final: score")


def test_bot_copes_with_words_it_does_not_know(running, tmp_path, capsys):
    url = running(words=["qxzvb", "jumbleflux", "zzyzx", "brrrt"], per_game=4).url
    assert cli.main(["hangman-bot", "--url", url, "--player", "stranger"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].startswith("final: score")
    assert "/4 words" in out[-1]


def test_bot_reports_an_unreachable_server():
    with pytest.raises(UserError, match="cannot reach"):
        run_bot("http://127.0.0.1:9/game/on", "nobody", say=lambda _: None)


# -- the server under stress ------------------------------------------------------------------


def raw(port, data: bytes, timeout=5.0) -> bytes:
    """Send `data` on a fresh socket and read until the server closes it (or `timeout`)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except (socket.timeout, ConnectionResetError):
            pass
    return out


def split_response(data: bytes) -> tuple[int, dict, dict]:
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, json.loads(body[: int(headers["content-length"])])


def request_bytes(body: bytes, extra: str = "", path="/game/on") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{extra}"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def test_a_crowd_of_players_on_kept_alive_and_fresh_connections(running):
    server = running(per_game=2, workers=4)
    errors, tallies = [], []

    def player(i):
        keep = i % 2 == 0
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)

        def send(body):
            nonlocal conn
            conn.request("POST", "/game/on", json.dumps(body), {} if keep else {"Connection": "close"})
            resp = conn.getresponse()
            answer = json.loads(resp.read())
            if not keep:
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            assert resp.status == 200, answer
            return answer

        try:
            sid = send({"playerId": f"p{i}", "action": "startGame"})["sessionId"]
            misses = words = 0
            while "data" in (nxt := send({"sessionId": sid, "action": "nextWord", "requestId": f"n{words}"})):
                words += 1
                assert nxt["data"]["totalWordCount"] == words
                for letter in "eaiouzxq":
                    a = send({"sessionId": sid, "action": "guessWord", "guess": letter})
                    misses += letter not in a["data"]["word"].lower()
                    assert a["data"]["wrongGuessCountOfCurrentWord"] <= misses
            tallies.append((send({"sessionId": sid, "action": "getResult"})["data"], words, misses))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            conn.close()

    threads = [threading.Thread(target=player, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors and len(tallies) == 50
    for res, words, misses in tallies:  # nothing lost, nothing applied twice
        assert res["totalWordCount"] == words == 2 and res["totalWrongGuessCount"] == misses


def test_the_response_comes_in_one_segment_and_kept_alive_requests_are_fast(running):
    """Twenty requests on one kept-alive connection, each answered in one send (headers and body
    in the first read) on a TCP_NODELAY socket: no 40 ms Nagle / delayed-ACK stall, which the
    socket's option rules out without timing anything."""
    server = running()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        for _ in range(20):
            s.sendall(request_bytes(b'{"playerId": "ann", "action": "startGame"}'))
            data = s.recv(65536)  # headers and body together: one send
            status, headers, answer = split_response(data)
            assert status == 200 and answer["message"] == "THE GAME IS ON"
        (conn,) = [c for c in list(server.server._conns.values()) if c.sock.getpeername() == s.getsockname()]
        assert conn.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


@pytest.mark.parametrize("request_timeout", [600.0, 0.5])
def test_a_slow_half_sent_request_blocks_no_one_and_is_timed_out(running, request_timeout):
    """More stalled requests than workers: a whole request is answered while they wait (with a
    deadline of 600 s, answered before any of them is: no clock read), and at a deadline of 0.5 s
    each stalled one gets a 408 and is closed (the read would time out at 30 s otherwise)."""
    server = running(workers=2, request_timeout=request_timeout)
    slow = [socket.create_connection(("127.0.0.1", server.port), timeout=30) for _ in range(20)]
    try:
        for s in slow:  # more stalled requests than workers
            s.sendall(b"POST /game/on HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{\"play")
        assert post(server.url, {"playerId": "ann", "action": "startGame"})[0] == 200
        if request_timeout > 30:
            slow[0].setblocking(False)
            with pytest.raises(BlockingIOError):
                slow[0].recv(65536)  # still waiting for its body, unanswered
            return
        out = b""
        while chunk := slow[0].recv(65536):  # answered at the deadline, then closed
            out += chunk
        status, headers, answer = split_response(out)
        assert status == 408 and "not completed" in answer["message"] and headers["connection"] == "close"
    finally:
        for s in slow:
            s.close()


def test_unreadable_requests_get_json_errors(running):
    server = running()
    deep = b"[" * 30000 + b"]" * 30000
    status, _, answer = split_response(raw(server.port, request_bytes(deep, "Connection: close\r\n")))
    assert status == 400 and "nested" in answer["message"]
    assert post(server.url, deep, raw=True)[0] == 400
    big = b'{"a": "' + b"x" * 70000 + b'"}'
    status, headers, answer = split_response(raw(server.port, request_bytes(big)))
    assert status == 413 and headers["connection"] == "close" and answer["message"]
    for bad in (b"GARBAGE\r\n\r\n", b"POST /game/on HTTP/1.1\r\nContent-Length: x\r\n\r\n",
                b"POST /game/on HTTP/1.1\r\nno colon\r\n\r\n", b"POST /game/on HTTP/2.0\r\n\r\n"):
        status, headers, answer = split_response(raw(server.port, bad))
        assert 400 <= status < 600 and headers["connection"] == "close" and answer["message"], bad
    assert post(server.url, {"playerId": "ann", "action": "startGame"})[0] == 200


def test_chunked_bodies_are_read(running):
    server = running()
    body = b'{"playerId": "ann", "action": "startGame"}'
    chunked = (b"POST /game/on HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
               + b"%x\r\n%s\r\n" % (10, body[:10]) + b"%x;ext=1\r\n%s\r\n" % (len(body) - 10, body[10:]) + b"0\r\n\r\n")
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(chunked + request_bytes(body))  # a chunked request, then another on the same connection
        data = b""
        while data.count(b"THE GAME IS ON") < 2:
            data += s.recv(65536)
    first, second = data.split(b"HTTP/1.1 ")[1:]
    assert split_response(b"HTTP/1.1 " + first)[0] == 200 and split_response(b"HTTP/1.1 " + second)[0] == 200
    other = b"POST /game/on HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\nxxxx"
    status, headers, _ = split_response(raw(server.port, other))
    assert status == 501 and headers["connection"] == "close"
    chunk = b"8000\r\n" + b"x" * 0x8000 + b"\r\n"  # two of them fill MAX_BODY; one byte more is too much
    too_big = b"POST /game/on HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk * 2 + b"1\r\n"
    assert split_response(raw(server.port, too_big))[0] == 413
    framing = b"POST /game/on HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + (b"1;" + b"e" * 1000 + b"\r\nx\r\n") * 300
    assert split_response(raw(server.port, framing))[0] == 413  # a small body in a huge frame


def test_a_retried_request_with_the_same_key_is_applied_once(running):
    server = running(per_game=5)
    url = server.url
    sid = post(url, {"playerId": "ann", "action": "startGame"})[1]["sessionId"]
    first = post(url, {"sessionId": sid, "action": "nextWord", "requestId": "k1"})
    assert post(url, {"sessionId": sid, "action": "nextWord", "requestId": "k1"}) == first
    guess = {"sessionId": sid, "action": "guessWord", "guess": "z", "requestId": "k2"}
    answer = post(url, guess)
    assert post(url, guess) == answer
    assert post(url, {**guess, "guess": "q"})[0] == 409  # the key of another request
    res = post(url, {"sessionId": sid, "action": "getResult"})[1]["data"]
    assert res["totalWordCount"] == 1 and res["totalWrongGuessCount"] == 1
    assert post(url, {"sessionId": sid, "action": "nextWord", "requestId": "k3"})[1]["data"]["totalWordCount"] == 2
    assert post(url, {"sessionId": sid, "action": "nextWord", "requestId": ""})[0] == 400


def test_a_retried_start_gets_the_same_game_back(running):
    server = running(per_game=5)
    url = server.url
    first = post(url, {"playerId": "ann", "action": "startGame", "requestId": "s1"})
    assert first[0] == 200 and post(url, {"playerId": "ann", "action": "startGame", "requestId": "s1"}) == first
    sid = first[1]["sessionId"]
    assert post(url, {"playerId": "bob", "action": "startGame", "requestId": "s1"})[1]["sessionId"] != sid
    assert post(url, {"playerId": "ann", "action": "startGame", "requestId": "s2"})[1]["sessionId"] != sid
    assert post(url, {"playerId": "ann", "action": "startGame"})[1]["sessionId"] != sid
    assert post(url, {"playerId": "ann", "action": "startGame", "requestId": 7})[0] == 400
    post(url, {"sessionId": sid, "action": "nextWord"})
    again = post(url, {"playerId": "ann", "action": "startGame", "requestId": "s1"})
    assert again[1]["sessionId"] == sid  # the game it began, where it is now
    assert post(url, {"sessionId": sid, "action": "getResult"})[1]["data"]["totalWordCount"] == 1


def test_the_bot_client_retries_a_lost_reply_once_and_it_is_applied_once(running):
    server = running(per_game=5)
    sid = post(server.url, {"playerId": "ann", "action": "startGame"})[1]["sessionId"]
    listener = socket.create_server(("127.0.0.1", 0))
    dropped = []

    def proxy():  # passes requests on; the first reply is lost with its connection
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                data = b""
                while b"\r\n\r\n" not in data or len(data.partition(b"\r\n\r\n")[2]) < int(
                        data.split(b"Content-Length: ")[1].split(b"\r\n")[0]):
                    data += conn.recv(65536)
                reply = raw(server.port, data.replace(b"Connection: keep-alive", b"").replace(
                    b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n", 1))
                if not dropped:
                    dropped.append(reply)
                    continue
                conn.sendall(reply)

    threading.Thread(target=proxy, daemon=True).start()
    try:
        client = Client(f"http://127.0.0.1:{listener.getsockname()[1]}/game/on", timeout=5)
        answer = client.post({"sessionId": sid, "action": "nextWord"})
        client.close()
    finally:
        listener.close()
    assert dropped and answer["data"]["totalWordCount"] == 1
    assert post(server.url, {"sessionId": sid, "action": "getResult"})[1]["data"]["totalWordCount"] == 1


def test_a_missing_or_locked_database_is_503_json(running, tmp_path):
    server = running(busy_timeout=0.3)
    sid = post(server.url, {"playerId": "ann", "action": "startGame"})[1]["sessionId"]
    holder = sqlite3.connect(tmp_path / "h.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    status, answer = post(server.url, {"sessionId": sid, "action": "nextWord"})  # not a wait past post's 10 s
    assert status == 503 and "unavailable" in answer["message"]
    holder.execute("ROLLBACK")
    holder.close()
    assert post(server.url, {"sessionId": sid, "action": "nextWord"})[0] == 200
    for path in tmp_path.glob("h.sqlite3*"):
        path.unlink()
    status, headers, answer = split_response(raw(server.port, request_bytes(
        json.dumps({"sessionId": sid, "action": "getResult"}).encode(), "Connection: close\r\n")))
    assert status == 503 and headers["retry-after"] and "unavailable" in answer["message"]
    assert not list(tmp_path.glob("h.sqlite3*"))  # no new empty database made in its place
    assert post(server.url, {"playerId": "ann", "action": "startGame"})[0] == 503


def test_words_are_drawn_from_a_cryptographic_source_unless_seeded(tmp_path):
    assert isinstance(Game(tmp_path / "a.sqlite3", WORDS).rng, secrets.SystemRandom)
    seeded = [Game(tmp_path / f"{i}.sqlite3", WORDS, seed=7) for i in range(2)]
    assert [seeded[0]._draw() for _ in range(20)] == [seeded[1]._draw() for _ in range(20)]


def test_after_the_last_life_a_guess_still_says_what_it_cost(running):
    url = running(words=["apple"], per_game=1, lives=10).url
    sid = post(url, {"playerId": "ann", "action": "startGame"})[1]["sessionId"]
    post(url, {"sessionId": sid, "action": "nextWord"})
    for i, letter in enumerate("bcdfghijkm", 1):
        assert post(url, {"sessionId": sid, "action": "guessWord", "guess": letter})[1]["data"][
            "wrongGuessCountOfCurrentWord"] == i
    _, lost = post(url, {"sessionId": sid, "action": "guessWord", "guess": "n"})  # the 11th miss loses it
    assert lost["message"] == "No more guess left." and lost["data"]["wrongGuessCountOfCurrentWord"] == 11
    _, after = post(url, {"sessionId": sid, "action": "guessWord", "guess": "a"})  # costs nothing
    assert after["message"] == "No more guess left." and after["data"] == lost["data"]
    _, res = post(url, {"sessionId": sid, "action": "getResult"})
    assert res["data"]["totalWrongGuessCount"] == 11 and res["data"]["correctWordCount"] == 0


def test_bot_shows_each_word_and_its_guesses(running):
    words = ["apple", "lemon", "melon"]
    url = running(words=words, per_game=3, lives=10).url
    lines = []
    done = run_bot(url, "shown", say=lines.append)
    word_lines = [line for line in lines if line.startswith("word ")]
    assert len(word_lines) == 3 and done["correctWordCount"] == 3
    for n, line in enumerate(word_lines, 1):
        head, _, result = line.partition(": solved; ")
        assert line.startswith(f"word {n}: ") and result.startswith("correct ")
        word, _, guesses = head[len(f"word {n}: "):].partition("  guesses ")
        assert word in words
        letters, _, wrong = guesses.rpartition(" (")
        letters = letters.split()
        assert len(set(letters)) == len(letters) and set(word) <= set(letters)
        assert wrong == f"{len(set(letters) - set(word))} wrong)"


def test_bot_shows_a_lost_word_with_its_hidden_letters(running):
    url = running(words=["qxzvb"], per_game=1, lives=1).url
    lines = []
    run_bot(url, "loser", say=lines.append)
    (line,) = [line for line in lines if line.startswith("word ")]
    assert line.startswith("word 1: -----  guesses ") and "(2 wrong): lost;" in line


def test_bot_shows_the_resumed_word(running):
    url = running(per_game=2).url
    sid = post(url, {"playerId": "dee", "action": "startGame"})[1]["sessionId"]
    post(url, {"sessionId": sid, "action": "nextWord"})
    post(url, {"sessionId": sid, "action": "guessWord", "guess": "z"})
    lines = []
    done = run_bot(url, "dee", resume=sid, say=lines.append)
    word_lines = [line for line in lines if line.startswith("word ")]
    assert [line.split(":")[0] for line in word_lines] == ["word 1 (resumed)", "word 2"]
    assert " guesses e " in word_lines[0] and done["totalWordCount"] == 2


def test_hangman_help_describes_every_option(capsys):
    import re

    for command, options in [("hangman-server", ["--host HOST", "--words-per-game N"]), ("hangman-bot", ["--player NAME"])]:
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        text = capsys.readouterr().out.split("options:")[1]
        for option in options:
            described = re.search(rf"\n  {re.escape(option)}\s+(\S+)", text)
            assert described and not described.group(1).startswith("-"), (command, option)  # help, not the next option
