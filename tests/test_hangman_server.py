"""Hangman server and bot end to end on 127.0.0.1: the protocol, every bad request, concurrent
players, a restart in the middle of a game, the bot with and without knowing the words."""

import json
import threading
import urllib.error
import urllib.request

import pytest

from wordtree import commands as cli
from wordtree.errors import UserError
from wordtree.hangman.bot import Player, run_bot
from wordtree.hangman.server import Game, make_server

WORDS = ["apple", "banana", "cherry", "melon", "grape", "lemon", "mango", "peach", "quince", "kiwi"]


class Running:
    def __init__(self, db, words=WORDS, per_game=3, lives=10, seed=1):
        self.server = make_server(Game(db, words, per_game, lives, seed), "127.0.0.1", 0)
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
    assert res["data"] == {"totalWordCount": 2, "correctWordCount": 1, "totalWrongGuessCount": 3 + wrong2,
                           "score": 20 - 3 - wrong2}
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
