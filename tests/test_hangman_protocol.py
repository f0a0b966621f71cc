"""The Hangman server's replies against the protocol it implements, field by field.

The spec below is the documented reply of each action, copied from the protocol's documentation:
the "Strikingly Interview Test" instructions (README.md of strikingly-interview-test-instructions,
the version whose endpoint is POST /game/on with the actions startGame, nextWord, guessWord,
getResult and submitResult), sections "1. Start Game" to "5. Submit Your Result", and "Errors".
Every field those replies name must be in ours, with a value of the same kind, where it is. The
documented getResult names no playerId or sessionId in its data (submitResult does); ours carries
both in both, so that a client reads the two replies alike: extra fields, never missing ones.
"""

import re

import pytest

from wordtree.hangman.server import Game

# the documented replies (values as documented: only their kinds are compared, and the messages)
SPEC = {
    "startGame": {
        "message": "THE GAME IS ON",
        "sessionId": "04ccda515d152cbe630e156af9095104",
        "data": {"numberOfWordsToGuess": 80, "numberOfGuessAllowedForEachWord": 10},
    },
    "nextWord": {
        "sessionId": "3f0421bb5cb56631c170a35da90161d2",
        "data": {"word": "*****", "totalWordCount": 1, "wrongGuessCountOfCurrentWord": 0},
    },
    "guessWord": {
        "sessionId": "3f0421bb5cb56631c170a35da90161d2",
        "data": {"word": "**PP*", "totalWordCount": 1, "wrongGuessCountOfCurrentWord": 0},
    },
    "getResult": {
        "sessionId": "3f0421bb5cb56631c170a35da90161d2",
        "data": {"totalWordCount": 40, "correctWordCount": 20, "totalWrongGuessCount": 100, "score": 300},
    },
    "submitResult": {
        "message": "GAME OVER",
        "sessionId": "3f0421bb5cb56631c170a35da90161d2",
        "data": {"playerId": "test@example.com", "sessionId": "3f0421bb5cb56631c170a35da90161d2",
                 "totalWordCount": 80, "correctWordCount": 77, "totalWrongGuessCount": 233, "score": 1307,
                 "datetime": "2014-10-28 11:45:58"},
    },
}
ERROR = {"message": "The error message here"}
ERROR_STATUSES = {400, 401, 404, 422, 500}  # the documented ones; ours adds 408, 409, 413, 501, 503
# what ours adds to a documented reply
EXTRA = {"getResult": {"data": {"playerId", "sessionId"}}}


def check(reply: dict, spec: dict, action: str, path: str = "") -> None:
    """Every field of `spec` in `reply` with a value of the same kind (nested objects alike), and
    no field that is neither documented nor in EXTRA."""
    extra = EXTRA.get(action, {})
    for key in path.split(".")[1:] if path else []:
        extra = extra.get(key, {}) if isinstance(extra, dict) else {}
    assert isinstance(reply, dict), f"{action}{path}: not an object"
    missing = set(spec) - set(reply)
    assert not missing, f"{action}{path}: {sorted(missing)} missing"
    unknown = set(reply) - set(spec) - set(extra)
    assert not unknown, f"{action}{path}: {sorted(unknown)} not in the protocol"
    for key, value in spec.items():
        if isinstance(value, dict):
            check(reply[key], value, action, f"{path}.{key}")
        else:
            assert type(reply[key]) is type(value), f"{action}{path}.{key}: {reply[key]!r}, not like {value!r}"


@pytest.fixture
def game(tmp_path):
    return Game(tmp_path / "h.sqlite3", ["happy", "melon"], words_per_game=2, lives=10, seed=3)


def play(game: Game, player: str = "test@example.com") -> dict:
    """A whole game, each reply kept by its action (the last of each)."""
    replies = {}

    def send(request: dict) -> dict:
        status, reply = game.handle(request)
        assert status == 200, reply
        replies[request["action"]] = reply
        return reply

    sid = send({"playerId": player, "action": "startGame"})["sessionId"]
    for _ in range(2):
        send({"sessionId": sid, "action": "nextWord"})
        for letter in "PAHYMELON":  # capitals, as the protocol asks
            if "*" not in send({"sessionId": sid, "action": "guessWord", "guess": letter})["data"]["word"]:
                break
    send({"sessionId": sid, "action": "getResult"})
    send({"sessionId": sid, "action": "submitResult"})
    return replies


def test_every_reply_has_every_documented_field(game):
    replies = play(game)
    for action, spec in SPEC.items():
        check(replies[action], spec, action)


def test_the_values_the_protocol_fixes(game):
    replies = play(game, "ann@example.com")
    start, result, over = replies["startGame"], replies["getResult"], replies["submitResult"]
    sid = start["sessionId"]
    assert start["message"] == SPEC["startGame"]["message"] and over["message"] == SPEC["submitResult"]["message"]
    assert start["data"] == {"numberOfWordsToGuess": 2, "numberOfGuessAllowedForEachWord": 10}
    for action in ("nextWord", "guessWord", "getResult", "submitResult"):
        assert replies[action]["sessionId"] == sid, action
    # getResult and submitResult: the same player, session and figures; the score 20 x correct - wrong
    for data in (result["data"], over["data"]):
        assert data["playerId"] == "ann@example.com" and data["sessionId"] == sid
        assert data["totalWordCount"] == 2 and data["correctWordCount"] == 2
        assert data["score"] == 20 * data["correctWordCount"] - data["totalWrongGuessCount"]
    assert {k: v for k, v in over["data"].items() if k != "datetime"} == result["data"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", over["data"]["datetime"])  # as documented
    word = replies["guessWord"]["data"]["word"]
    assert "*" not in word and word.isupper()


def test_the_word_as_the_protocol_shows_it(game):
    status, start = game.handle({"playerId": "p", "action": "startGame"})
    sid = start["sessionId"]
    word = game.handle({"sessionId": sid, "action": "nextWord"})[1]["data"]["word"]
    assert set(word) == {"*"} and len(word) == 5  # the number of * is the number of letters
    after = game.handle({"sessionId": sid, "action": "guessWord", "guess": "P"})[1]["data"]
    before = after["word"]
    missed = game.handle({"sessionId": sid, "action": "guessWord", "guess": "K"})[1]["data"]
    assert missed["word"] == before and missed["wrongGuessCountOfCurrentWord"] == after["wrongGuessCountOfCurrentWord"] + 1


def test_an_error_is_a_documented_message(game):
    for request, status in (({"action": "startGame"}, 400), ({"sessionId": "nope", "action": "getResult"}, 404),
                            ({"action": "dance"}, 400)):
        got, reply = game.handle(request)
        assert got == status and got in ERROR_STATUSES
        check(reply, ERROR, "error")
        assert isinstance(reply["message"], str) and reply["message"]
