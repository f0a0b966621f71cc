"""The Hangman server under a crowd: N concurrent players on 127.0.0.1, each playing whole games.

    python bench/hangman_server.py [--players 200] [--seconds 20] [--games 5] [--think 0.2]

Starts `wordtree hangman-server` on 127.0.0.1, port 0, in a subprocess with a fresh database, and
runs the players in --procs client processes (threads within each, so one client's GIL does not
set the measured latency). Half the players keep one connection alive for all their requests,
half open a fresh connection for each. A player starts a game, asks for each word and guesses
letters in English frequency order until the word is solved or lost, checks every answer against
its own count of words and misses (a request lost or applied twice shows there), submits, and
starts again; it pauses a random 0 to 2 x --think seconds between requests, as a player does. A
player stops after --games games or when --seconds are up (a game cut off then is not counted),
then the server is stopped. Prints games played, errors (a connection error or a non-200 answer;
each request is tried again once, with its requestId, after a connection error), actions lost or
doubled, request latency p50/p99/max and requests per second.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ORDER = "etaoinsrhldcumfpgwybvkxjqz"
HOST = "127.0.0.1"


class Tally:
    def __init__(self):
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.games = self.requests = self.mismatches = 0
        self.lock = threading.Lock()


class Player:
    def __init__(self, port: int, name: str, keep_alive: bool, think: float, tally: Tally, rng: random.Random):
        self.port, self.name, self.keep_alive, self.think = port, name, keep_alive, think
        self.tally, self.rng = tally, rng
        self.conn: http.client.HTTPConnection | None = None
        self.count = 0

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def _once(self, data: bytes) -> tuple[int, dict]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
        headers = {"Content-Type": "application/json"}
        if not self.keep_alive:
            headers["Connection"] = "close"
        try:
            self.conn.request("POST", "/game/on", body=data, headers=headers)
            resp = self.conn.getresponse()
            body = resp.read()
        except BaseException:
            self.close()
            raise
        if resp.will_close:
            self.close()
        return resp.status, json.loads(body)

    def post(self, payload: dict) -> dict:
        if self.think:
            time.sleep(self.rng.uniform(0, 2 * self.think))
        if payload["action"] in ("nextWord", "guessWord"):
            self.count += 1
            payload = {**payload, "requestId": f"{self.name}-{self.count}"}
        data = json.dumps(payload).encode()
        for attempt in (1, 2):
            t = time.perf_counter()
            try:
                status, answer = self._once(data)
            except (OSError, http.client.HTTPException) as exc:
                with self.tally.lock:
                    self.tally.errors.append(f"{payload['action']}: {type(exc).__name__}: {exc}")
                if attempt == 2:
                    raise
                continue
            with self.tally.lock:
                self.tally.latencies.append(time.perf_counter() - t)
                self.tally.requests += 1
                if status != 200:
                    self.tally.errors.append(f"{payload['action']}: {status} {answer.get('message')}")
            if status != 200:
                raise RuntimeError(f"{status} {answer}")
            return answer
        raise AssertionError("unreachable")

    def game(self, deadline: float) -> bool:
        """One whole game; False when the deadline came first. Checks the server's counts."""
        sid = self.post({"playerId": self.name, "action": "startGame"})["sessionId"]
        words = misses = 0
        while time.monotonic() < deadline:
            first = self.post({"sessionId": sid, "action": "nextWord"})
            if "data" not in first:
                break
            words += 1
            self._check(first["data"]["totalWordCount"] == words)
            word_misses = 0
            for letter in ORDER:
                if time.monotonic() >= deadline:
                    return False
                answer = self.post({"sessionId": sid, "action": "guessWord", "guess": letter})
                shown = answer["data"]["word"]
                if letter.upper() not in shown:
                    word_misses += 1
                    misses += 1
                data = answer["data"]
                self._check(data["totalWordCount"] == words and data["wrongGuessCountOfCurrentWord"] == word_misses)
                if answer.get("message") == "No more guess left." or "*" not in shown:
                    break
        else:
            return False
        done = self.post({"sessionId": sid, "action": "submitResult"})["data"]
        self._check(done["totalWordCount"] == words and done["totalWrongGuessCount"] == misses)
        return True

    def _check(self, ok: bool) -> None:
        if not ok:
            with self.tally.lock:
                self.tally.mismatches += 1

    def play(self, games: int, deadline: float) -> None:
        try:
            for _ in range(games):
                if not self.game(deadline):
                    break
                with self.tally.lock:
                    self.tally.games += 1
        except Exception as exc:  # noqa: BLE001 - counted in errors already, or reported here
            with self.tally.lock:
                self.tally.errors.append(f"player {self.name} stopped: {type(exc).__name__}: {exc}")
        finally:
            self.close()


def client_process(port: int, names: list[tuple[str, bool]], think: float, games: int, deadline_in: float) -> dict:
    """Run these players as threads; their tally as plain data."""
    tally = Tally()
    deadline = time.monotonic() + deadline_in
    players = [Player(port, name, keep, think, tally, random.Random(name)) for name, keep in names]
    threads = [threading.Thread(target=p.play, args=(games, deadline)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(deadline_in + 60)
    return {"latencies": tally.latencies, "errors": tally.errors, "games": tally.games,
            "requests": tally.requests, "mismatches": tally.mismatches}


def start_server(folder: str, words_per_game: int, workers: int) -> tuple[subprocess.Popen, int]:
    cmd = [sys.executable, "-c", "import sys; from wordtree.commands import main; sys.exit(main())",
           "hangman-server", "--host", HOST, "--port", "0", "--db", f"{folder}/bench.sqlite3",
           "--words-per-game", str(words_per_game), "--workers", str(workers)]
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=folder)
    line = server.stdout.readline()  # "hangman server on http://127.0.0.1:PORT/game/on ..."
    if "http://" not in line:
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    port = int(line.split("http://")[1].split("/")[0].rsplit(":", 1)[1])
    return server, port


def server_cpu(pid: int) -> float | None:
    """CPU seconds the server process has used (Linux /proc), or None."""
    import os

    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="stop after this long (default 20)")
    parser.add_argument("--games", type=int, default=5, help="games per player at most (default 5)")
    parser.add_argument("--words-per-game", type=int, default=5)
    parser.add_argument("--think", type=float, default=0.2, help="mean pause between requests, seconds (default 0.2)")
    parser.add_argument("--workers", type=int, default=8, help="the server's worker threads (default 8)")
    parser.add_argument("--procs", type=int, default=2, help="client processes (default 2)")
    args = parser.parse_args()

    names = [(f"player{i}", i % 2 == 0) for i in range(args.players)]
    groups = [names[i :: args.procs] for i in range(args.procs)]
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_server(folder, args.words_per_game, args.workers)
        try:
            cpu0 = server_cpu(server.pid)  # after loading the words
            t = time.perf_counter()
            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(args.procs) as pool:
                results = pool.starmap(client_process,
                                       [(port, g, args.think, args.games, args.seconds) for g in groups])
            elapsed = time.perf_counter() - t
            cpu = server_cpu(server.pid)
            cpu = None if cpu is None or cpu0 is None else cpu - cpu0
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
    latencies = sorted(x for r in results for x in r["latencies"])
    errors = [e for r in results for e in r["errors"]]
    requests = sum(r["requests"] for r in results)
    print(f"{args.players} players ({args.players - args.players // 2} kept-alive, {args.players // 2} fresh "
          f"connection per request), think {args.think:g} s, {args.procs} client processes, "
          f"server workers {args.workers}")
    print(f"games played: {sum(r['games'] for r in results)} in {elapsed:.1f} s "
          f"({args.words_per_game} words each)")
    print(f"errors: {len(errors)}")
    for line in errors[:10]:
        print(f"  {line}")
    print(f"lost or doubled actions: {sum(r['mismatches'] for r in results)}")
    if latencies:
        print(f"latency: p50 {percentile(latencies, 0.5) * 1000:.2f} ms, p99 {percentile(latencies, 0.99) * 1000:.2f} ms, "
              f"max {latencies[-1] * 1000:.2f} ms over {requests} requests")
    print(f"requests per second: {requests / elapsed:.0f}"
          + (f"; server CPU {cpu / max(requests, 1) * 1e6:.0f} us a request" if cpu is not None else ""))


if __name__ == "__main__":
    main()
