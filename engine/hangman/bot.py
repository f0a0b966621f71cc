"""The Hangman bot: plays a whole game against a server speaking the /game/on JSON protocol.

On each word it follows the tree for the word's length while the server's answers stay on it;
off the tree (no tree file, a resumed word) it plays live: the exact search on small candidate
sets, else the frequency rule. When no dictionary word fits (a word it does not know), it keeps
guessing by the letters of words that match the revealed letters loosely, then by plain English
letter frequency, as a person would.

It says a line per word as it goes: the word as last shown (`-` for a hidden letter), the
letters it guessed in order and the word's wrong guesses, then the result and the running
totals; a word finished after `--resume` gets its line too, marked "(resumed)".
"""

from __future__ import annotations

import http.client
import json
import secrets
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field

from ..errors import SessionStopped, UserError
from ..words import canonical_sha256, load_words
from .game import MAX_LENGTH

ENGLISH_ORDER = "etaoinsrhldcumfpgwybvkxjqz"
LIVE_EXACT_BELOW = 60  # candidate sets up to this size are searched exactly when off the tree
LOST = "No more guess left."  # the server's message for a lost word (with or without data)
MAX_REPLY = 1 << 20  # the largest reply body read (a game's replies are a few hundred bytes)
MAX_SHOWN = 64  # the longest word a server may show
MAX_WORDS = 1 << 20  # the most words of a resumed game (whose number is not known) the bot plays


class Client:
    """Posts to the server on one kept-alive connection. `startGame`, `nextWord` and `guessWord` carry a
    `requestId` (see the server's docstring), so a request whose reply was lost to a broken
    connection is sent again once on a fresh one, and the server applies it only once; a 503
    (the server's store busy) is also tried again once."""

    KEYED = {"startGame", "nextWord", "guessWord"}

    def __init__(self, url: str, timeout: float = 30):
        self.url = url
        self.timeout = timeout
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise UserError(f"{url}: not an http:// or https:// address")
        self._https = parts.scheme == "https"
        self._host, self._port = parts.hostname, parts.port
        self._path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self._conn: http.client.HTTPConnection | None = None
        self._prefix = secrets.token_hex(8)
        self._count = 0

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            kind = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            self._conn = kind(self._host, self._port, timeout=self.timeout)
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _exchange(self, data: bytes) -> tuple[int, bytes]:
        conn = self._connection()
        try:
            conn.request("POST", self._path, body=data, headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            body = resp.read(MAX_REPLY + 1)
            if len(body) > MAX_REPLY:
                raise UserError(f"{self.url}: the server's reply is larger than {MAX_REPLY >> 20} MB")
            if resp.will_close:
                self.close()
            return resp.status, body
        except BaseException:
            self.close()
            raise

    def post(self, payload: dict) -> dict:
        if payload.get("action") in self.KEYED and "requestId" not in payload:
            self._count += 1
            payload = {**payload, "requestId": f"{self._prefix}-{self._count}"}
        data = json.dumps(payload).encode()
        for attempt in (1, 2):
            try:
                status, body = self._exchange(data)
            except (OSError, http.client.HTTPException) as exc:
                if attempt == 1:
                    continue
                raise UserError(f"{self.url}: cannot reach the server ({getattr(exc, 'strerror', None) or exc})") from None
            if status == 503 and attempt == 1:
                time.sleep(0.5)
                continue
            break
        try:
            answer = json.loads(body)
        except ValueError:
            raise UserError(f"{self.url}: {status}: the answer is not JSON") from None
        if status >= 400:
            message = answer.get("message") if isinstance(answer, dict) else None
            message = message[:200] if isinstance(message, str) else None
            raise UserError(f"{self.url}: {status} {message or http.client.responses.get(status, '')}")
        try:
            return checked_reply(payload.get("action"), answer)
        except UserError as exc:
            raise UserError(f"{self.url}: the {payload.get('action')} reply: {exc}") from None


def _whole(value, low: int = 0, high: int = 1 << 62) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _shown(value) -> bool:
    """A word as a server shows it: letters, and * for a hidden one."""
    return (isinstance(value, str) and 0 < len(value) <= MAX_SHOWN
            and all(ch == "*" or "a" <= ch.lower() <= "z" for ch in value))


COUNTS = ("totalWordCount", "correctWordCount", "totalWrongGuessCount")
REPLY_FIELDS = {  # action -> (field, test, what it must be); "data" fields are data's
    "startGame": [("sessionId", lambda v: isinstance(v, str) and 0 < len(v) <= 256, "a string"),
                  ("data.numberOfWordsToGuess", lambda v: _whole(v, 0, 1 << 20), "a whole number"),
                  ("data.numberOfGuessAllowedForEachWord", lambda v: _whole(v, 0, 25), "a whole number from 0 to 25")],
    "getResult": [*((f"data.{key}", _whole, "a whole number, 0 or more") for key in COUNTS),
                  ("data.score", lambda v: _whole(v, -(1 << 62)), "a whole number")],
    "nextWord": [("data.word", _shown, "a word of letters and *")],
    "guessWord": [("data.word", _shown, "a word of letters and *")],
}
REPLY_FIELDS["submitResult"] = [*REPLY_FIELDS["getResult"], ("data.sessionId", lambda v: isinstance(v, str), "a string")]
OPTIONAL_DATA = {"nextWord", "guessWord"}  # a reply without data: no word left, or the word lost


def _kind(value) -> str:
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return {str: "a string", list: "a list", dict: "an object"}.get(type(value), "a number")


def checked_reply(action, answer):
    """A server's reply to `action`, if every field the bot reads is there and of its type; else a
    UserError naming the first that is not."""
    if not isinstance(answer, dict):
        raise UserError(f"not a JSON object, got {_kind(answer)}")
    if "message" in answer and not isinstance(answer["message"], str):
        raise UserError(f"message must be a string, got {_kind(answer['message'])}")
    if action in OPTIONAL_DATA and "data" not in answer:
        return answer
    if "data" in answer and not isinstance(answer["data"], dict):
        raise UserError(f"data must be an object, got {_kind(answer['data'])}")
    for name, test, what in REPLY_FIELDS.get(action, ()):
        section, key = (answer.get("data") or {}, name[5:]) if name.startswith("data.") else (answer, name)
        if key not in section:
            raise UserError(f"{name} is missing")
        if not test(section[key]):
            raise UserError(f"{name} must be {what}, got {_kind(section[key])}")
    wrong = (answer.get("data") or {}).get("wrongGuessCountOfCurrentWord")
    if action == "guessWord" and wrong is not None and not _whole(wrong, 0, 26):
        raise UserError(f"data.wrongGuessCountOfCurrentWord must be a whole number from 0 to 26, got {_kind(wrong)}")
    return answer


class Player:
    """Chooses letters for one dictionary; trees are loaded lazily per word length."""

    def __init__(self, words_file: str | None = None, tree_dir=None, lives: int = 10):
        from . import TREE_DIR

        self.words = load_words(words_file or "enable1.txt").words
        self.by_length: dict[int, list[str]] = {}
        for w in self.words:
            self.by_length.setdefault(len(w), []).append(w)
        self.tree_dir = TREE_DIR if tree_dir is None else tree_dir
        self.lives = lives
        self._trees: dict[int, object] = {}
        self._ngrams = None

    def tree(self, length: int):
        if length not in self._trees:
            from .tree import read_document

            path = self.tree_dir / f"hangman-{length}.json"
            doc = read_document(path) if path.exists() else None
            mine = canonical_sha256(self.by_length.get(length, []))
            ok = doc and doc["game"]["lives"] == self.lives and doc["game"]["words_sha256"] == mine
            self._trees[length] = doc["tree"] if ok else None
        return self._trees[length]

    def candidates(self, pattern: str, guessed: set[str], wrong: set[str]) -> list[str]:
        out = []
        for w in self.by_length.get(len(pattern), ()):
            if any(ch in w for ch in wrong):
                continue
            if all((p == "*" and ch not in guessed) or p == ch for p, ch in zip(pattern, w)):
                out.append(w)
        return out

    def live_letter(self, pattern: str, guessed: set[str], wrong: set[str], strikes_left: int,
                    cands: list[str] | None = None, loose: list[str] | None = None):
        """(letter, how, candidates, loose candidates) for a state off the tree. The lists, when
        given, are the caller's, kept up to date by `narrow`; they are computed when None."""
        if cands is None:
            cands = self.candidates(pattern, guessed, wrong)
        if len(cands) == 1:
            return next(ch for ch in cands[0] if ch not in guessed), "known", cands, loose
        if 1 < len(cands) <= LIVE_EXACT_BELOW and len(pattern) <= MAX_LENGTH:  # masks fit the search
            letter = self._exact(cands, strikes_left)
            if letter:
                return letter, "search", cands, loose
        if cands:
            return _most_frequent(cands, guessed), "frequency", cands, loose
        if loose is None:  # the revealed letters in place, no wrong letter; the rest may differ
            loose = [w for w in self.by_length.get(len(pattern), ())
                     if all(p == "*" or p == ch for p, ch in zip(pattern, w)) and not any(ch in w for ch in wrong)]
        letter = _most_frequent(loose, guessed) if loose else None
        if letter:
            return letter, "loose", cands, loose
        letter = self.context_letter(pattern, guessed)
        if letter:
            return letter, "context", cands, loose
        return next(ch for ch in ENGLISH_ORDER if ch not in guessed), "english", cands, loose

    def context_letter(self, pattern: str, guessed: set[str]) -> str | None:
        """The letter most likely to fill some hidden position, judged by the dictionary's letter
        pairs and triples around the revealed neighbours (how a person reads `*ing`)."""
        if self._ngrams is None:
            self._ngrams = _ngram_counts(self.words)
        tri, left, right = self._ngrams
        free = [ch for ch in "abcdefghijklmnopqrstuvwxyz" if ch not in guessed]
        miss_all = {ch: 1.0 for ch in free}
        for i, p in enumerate(pattern):
            if p != "*":
                continue
            a = pattern[i - 1] if i > 0 and pattern[i - 1] != "*" else None
            b = pattern[i + 1] if i + 1 < len(pattern) and pattern[i + 1] != "*" else None
            if a and b:
                counts = {ch: tri.get(a + ch + b, 0) for ch in free}
            elif a:
                counts = {ch: left.get(a + ch, 0) for ch in free}
            elif b:
                counts = {ch: right.get(ch + b, 0) for ch in free}
            else:
                continue
            total = sum(counts.values())
            if total:
                for ch in free:
                    miss_all[ch] *= 1 - counts[ch] / total
        best = min(free, key=lambda ch: (miss_all[ch], ENGLISH_ORDER.index(ch)), default=None)
        return best if best is not None and miss_all[best] < 1 else None

    def _exact(self, cands: list[str], strikes_left: int) -> str | None:
        import numpy as np

        from .game import LETTERS, HangmanWords, mask_table
        from .search import Searcher

        hw = HangmanWords(len(cands[0]), tuple(cands), np.ones(len(cands), dtype=np.int64),
                          mask_table(cands, len(cands[0])), {})
        s = Searcher(hw, max(0, strikes_left - 1), memo_entries=100_000)
        _, ok, letter = s.solve(np.arange(len(cands)), strikes_left, max_nodes=50_000)
        return LETTERS[letter] if ok and letter >= 0 else None


def _ngram_counts(words) -> tuple[Counter, Counter, Counter]:
    """Letter triples and pairs of a dictionary: (xyz), (x then y), (y before z)."""
    pairs = Counter(w[i : i + 2] for w in words for i in range(len(w) - 1))
    tri = Counter(w[i : i + 3] for w in words for i in range(len(w) - 2))
    return tri, pairs, pairs


def _most_frequent(words: list[str], guessed: set[str]) -> str | None:
    counts = Counter(ch for w in words for ch in set(w) if ch not in guessed)
    if not counts:
        return None
    return min(counts, key=lambda ch: (-counts[ch], ch))


def _narrow(words: list[str] | None, letter: str, text: str, strict: bool) -> list[str] | None:
    """Keep the words that fit the feedback: exactly (strict), or with the letter in place."""
    if words is None:
        return None
    if strict:
        return [w for w in words if "".join(ch if ch == letter else "-" for ch in w) == text]
    places = [i for i, ch in enumerate(text) if ch == letter]
    return [w for w in words if all(w[i] == letter for i in places)]


@dataclass
class WordPlay:
    """How a word went: 'solved' or 'lost', the word as last shown (hidden letters '*', None
    when the server never showed it) and the letters guessed, in order."""

    outcome: str
    shown: str | None = None
    guesses: list[str] = field(default_factory=list)
    wrong: int = 0

    def saw(self, answer: dict, wrong: int) -> None:
        """Note the word and its wrong-guess count from a guessWord answer (`wrong`: the count
        the bot knows of, for an answer without them)."""
        data = answer.get("data") or {}
        self.shown = data["word"].lower() if "word" in data else self.shown
        self.wrong = data.get("wrongGuessCountOfCurrentWord", wrong)

    def line(self, number: int, figures: dict, resumed: bool = False) -> str:
        """`word 3: -e--e-  guesses e s a r (2 wrong): lost; correct 2, wrong 17, score 23`."""
        shown = "?" if self.shown is None else self.shown.replace("*", "-")
        return (f"word {number}{' (resumed)' if resumed else ''}: {shown}  guesses {' '.join(self.guesses) or '-'} "
                f"({self.wrong} wrong): {self.outcome}; correct {figures['correctWordCount']}, "
                f"wrong {figures['totalWrongGuessCount']}, score {figures['score']}")


def play_word(client: Client, player: Player, sid: str, first: dict | None, say) -> WordPlay:
    """Play the current word to its end. `first` is the nextWord answer, or None when resuming a
    word whose state is unknown."""
    guessed: set[str] = set()
    wrong: set[str] = set()
    played = WordPlay("lost")
    node = None
    cands = loose = None
    if first is not None:
        pattern = first["data"]["word"].lower()
        node = player.tree(len(pattern))
    else:  # resumed: learn the word's state by asking for the most frequent letter
        answer = client.post({"sessionId": sid, "action": "guessWord", "guess": "e"})
        played.guesses.append("e")
        played.saw(answer, 0)
        if "data" not in answer or answer.get("message") == LOST:
            return played
        guessed.add("e")
        pattern = answer["data"]["word"].lower()
        if "e" not in pattern:
            wrong.add("e")
    played.shown = pattern
    while "*" in pattern:
        if len(guessed) == 26:
            raise UserError(f"the server still hides letters of {pattern.upper()} after every letter was guessed")
        strikes_left = player.lives + 1 - len(wrong)
        letter = None
        if isinstance(node, str):
            letter = next(ch for ch in node if ch not in guessed)
        elif isinstance(node, dict) and "guess" in node:
            letter = node["guess"]
        if letter is None or letter in guessed:
            node = None
            letter, _, cands, loose = player.live_letter(pattern, guessed, wrong, strikes_left, cands, loose)
        answer = client.post({"sessionId": sid, "action": "guessWord", "guess": letter.upper()})
        guessed.add(letter)
        played.guesses.append(letter)
        if "data" not in answer or answer.get("message") == LOST:
            played.saw(answer, len(wrong) + 1)
            return played
        new = answer["data"]["word"].lower()
        if len(new) != len(pattern):
            raise UserError(f"the server showed a word of {len(pattern)} letters as {len(new)} letters mid-word")
        if any(p != "*" and p != ch for p, ch in zip(pattern, new)):
            raise UserError(f"the server showed {new.upper()} after {pattern.upper()}: a revealed letter changed")
        text = "".join(ch if ch == letter else "-" for ch in new)
        if letter not in new:
            wrong.add(letter)
        played.saw(answer, len(wrong))
        cands, loose = _narrow(cands, letter, text, True), _narrow(loose, letter, text, False)
        if isinstance(node, dict) and "next" in node:
            node = node["next"].get(text)
        elif isinstance(node, str) and "".join(ch if ch == letter else "-" for ch in node) != text:
            node = None  # the word is not the one the tree expected
        elif not isinstance(node, str):
            node = None
        pattern = new
    played.outcome = "solved"
    return played


def run_bot(url: str, player_id: str, resume: str | None = None, words_file: str | None = None,
            tree_dir=None, say=print, player: Player | None = None) -> dict:
    """Play a whole game (or the rest of one) and submit it; the submitResult data. A `player`
    may be passed to reuse its dictionary and trees across games."""
    client = Client(url)
    if resume:
        sid = resume
        result = client.post({"sessionId": sid, "action": "getResult"})
        say(f"resuming session {sid} at word {result['data']['totalWordCount']}")
        lives, words = 10, None
    else:
        start = client.post({"playerId": player_id, "action": "startGame"})
        sid = start["sessionId"]
        lives, words = start["data"]["numberOfGuessAllowedForEachWord"], start["data"]["numberOfWordsToGuess"]
        say(f"session {sid}: {words} words, {lives} wrong guesses allowed each")
    if player is None or player.lives != lives:
        player = Player(words_file, tree_dir, lives)
    try:
        return _play_game(client, player, sid, resume, say, words)
    except UserError as exc:
        raise SessionStopped(str(exc), sid) from None
    finally:
        client.close()


def _play_game(client: Client, player: Player, sid: str, resume, say, words: int | None = None) -> dict:
    """Finish the resumed word, if any, then play the words left; a line for each word. `words`:
    how many the server announced (None: not known), past which it is not followed."""
    played_words = 0
    if resume:
        try:
            played = play_word(client, player, sid, None, say)
        except UserError as exc:
            if "409" not in str(exc):  # 409: no word started yet, nothing to finish
                raise
        else:
            figures = client.post({"sessionId": sid, "action": "getResult"})["data"]
            say(played.line(figures["totalWordCount"], figures, resumed=True))
    while True:
        first = client.post({"sessionId": sid, "action": "nextWord"})
        if "data" not in first:
            break
        played_words += 1
        if played_words > (MAX_WORDS if words is None else words):
            raise UserError(f"the server gave more words than the {words or MAX_WORDS} of the game")
        played = play_word(client, player, sid, first, say)
        figures = client.post({"sessionId": sid, "action": "getResult"})["data"]
        say(played.line(figures["totalWordCount"], figures))
    done = client.post({"sessionId": sid, "action": "submitResult"})["data"]
    say(f"final: score {done['score']}, {done['correctWordCount']}/{done['totalWordCount']} words, "
        f"{done['totalWrongGuessCount']} wrong guesses, session {done['sessionId']}")
    return done
