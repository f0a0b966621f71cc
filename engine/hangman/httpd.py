"""A small HTTP/1.1 server for one JSON endpoint: POST a JSON value, get a JSON object back.

Why not http.server: its ThreadingHTTPServer runs a thread per connection with a listen queue of
5, has no timeouts, refuses chunked bodies (and then reads their bytes as the next request) and
writes the headers apart from the body, which Nagle's algorithm and delayed ACKs turn into 40 ms
a request on a kept-alive connection. Why not a server library (waitress, cheroot): they answer
the errors they detect themselves (too large, malformed, timed out) as text, and the protocol
wants every failure as a JSON object; and the standard library does it in one module.

How: one thread waits on every socket with `selectors` (a listen queue of 1024; an idle
kept-alive connection costs no thread; a half-sent request occupies no worker and is answered 408
at its deadline) and reads each request whole (Content-Length or chunked, at most MAX_BODY bytes,
else 413); a fixed pool of worker threads parses the JSON, calls the handler and writes the whole
response in one send on a TCP_NODELAY socket, then hands the connection back to the loop.
An unreadable request is answered with its status and a JSON message and the connection closed.
"""

from __future__ import annotations

import json
import selectors
import socket
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from email.utils import formatdate
from http import HTTPStatus

MAX_BODY = 65536
MAX_HEAD = 16384
RETRY_AFTER = 1  # seconds, in the Retry-After of a 503
class HttpError(Exception):
    """A request that cannot be read: answered with `status` and a JSON message, then closed."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Request:
    __slots__ = ("method", "target", "version", "keep_alive", "chunked", "length", "expect_continue", "body")

    def __init__(self, method, target, version, keep_alive, chunked, length, expect_continue):
        self.method, self.target, self.version = method, target, version
        self.keep_alive, self.chunked, self.length = keep_alive, chunked, length
        self.expect_continue = expect_continue
        self.body = b""


def parse_head(buf: bytearray) -> tuple[Request, int] | None:
    """The request line and headers at the start of `buf` and where the body starts, or None
    while they are incomplete; HttpError when they are malformed or too large."""
    start = 0
    while buf.startswith(b"\r\n", start):  # empty lines before a request are allowed
        start += 2
    end = buf.find(b"\r\n\r\n", start)
    if end < 0 and len(buf) - start <= MAX_HEAD:
        return None
    if end < 0 or end - start > MAX_HEAD:
        raise HttpError(431, f"the request head is larger than {MAX_HEAD} bytes")
    lines = bytes(buf[start:end]).decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[0].isalpha() or not parts[1]:
        raise HttpError(400, "malformed request line")
    method, target, version = parts
    if version not in ("HTTP/1.1", "HTTP/1.0"):
        raise HttpError(505 if version.startswith("HTTP/") else 400, f"unsupported protocol {version!r}")
    if len(lines) > 101:
        raise HttpError(431, "more than 100 header lines")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if not sep or not name or name != name.strip():
            raise HttpError(400, f"malformed header line {line[:80]!r}")
        name, value = name.lower(), value.strip()
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    tokens = {t.strip().lower() for t in headers.get("connection", "").split(",")}
    keep_alive = "close" not in tokens if version == "HTTP/1.1" else "keep-alive" in tokens
    expect = headers.get("expect", "").lower() == "100-continue"
    te = headers.get("transfer-encoding")
    if te is not None:
        if "content-length" in headers:
            raise HttpError(400, "a request may not have both Transfer-Encoding and Content-Length")
        if te.lower() != "chunked":
            raise HttpError(501, f"unsupported transfer coding {te!r}; send Content-Length or chunked")
        return Request(method, target, version, keep_alive, True, 0, expect), end + 4
    length = headers.get("content-length", "0")
    if not (length.isascii() and length.isdigit()):
        raise HttpError(400, f"bad Content-Length {length[:40]!r}")
    if int(length) > MAX_BODY:
        raise HttpError(413, f"the body is larger than {MAX_BODY} bytes")
    return Request(method, target, version, keep_alive, False, int(length), expect), end + 4


def dechunk(buf: bytearray, pos: int, body: bytearray) -> tuple[int, bool]:
    """Move the complete chunks of `buf` from `pos` into `body`: (the new pos, whether the last
    chunk and its trailers are in). Each byte is looked at once however the chunks arrive."""
    while True:
        eol = buf.find(b"\r\n", pos)
        if eol < 0:
            if len(buf) - pos > 1024:
                raise HttpError(400, "malformed chunk size line")
            return pos, False
        size_text = bytes(buf[pos:eol]).split(b";")[0].strip()
        if not size_text or len(size_text) > 8 or size_text.strip(b"0123456789abcdefABCDEF"):
            raise HttpError(400, "malformed chunk size line")
        size = int(size_text, 16)
        if size == 0:  # the last chunk, then optional trailer lines and an empty line
            end = buf.find(b"\r\n\r\n", eol)
            if end < 0:
                if len(buf) - eol > MAX_HEAD:
                    raise HttpError(431, "the trailers are too large")
                return pos, False
            return end + 4, True
        if len(body) + size > MAX_BODY:
            raise HttpError(413, f"the body is larger than {MAX_BODY} bytes")
        if len(buf) < eol + size + 4:
            return pos, False
        if buf[eol + 2 + size : eol + 4 + size] != b"\r\n":
            raise HttpError(400, "a chunk is longer than its size")
        body += buf[eol + 2 : eol + 2 + size]
        pos = eol + 4 + size


def response(status: int, answer: dict, keep_alive: bool, version: str = "HTTP/1.1", head_only: bool = False,
             headers=()) -> bytes:
    """The whole response as one bytes object, to be written in one send."""
    body = json.dumps(answer).encode()
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", f"Date: {formatdate(usegmt=True)}",
             "Content-Type: application/json", f"Content-Length: {len(body)}"]
    lines += [f"{name}: {value}" for name, value in headers]
    if not keep_alive:
        lines.append("Connection: close")
    elif version == "HTTP/1.0":
        lines.append("Connection: keep-alive")
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    return head if head_only else head + body


class _Conn:
    __slots__ = ("sock", "buf", "deadline", "head", "pos", "body", "continued", "closing", "busy")

    def __init__(self, sock, deadline):
        self.sock, self.buf, self.deadline = sock, bytearray(), deadline
        self.head, self.pos, self.body, self.continued = None, 0, bytearray(), False
        self.closing = self.busy = False


class JsonServer:
    """POST `path` answered by `handler(value) -> (status, answer)`: one thread waits on every socket and reads each request
    whole, `workers` threads answer them. `request_timeout` seconds to send a whole request (else
    408) and to take a response; `idle_timeout` seconds a kept-alive connection may wait between
    requests; `max_connections` connections at most, the one idle longest closed to make room for
    a new one. Used like socketserver: serve_forever() in a thread, shutdown(), server_close()."""

    def __init__(self, handler, path: str, host: str = "127.0.0.1", port: int = 0, *, workers: int = 8,
                 backlog: int = 1024, request_timeout: float = 10.0, idle_timeout: float = 60.0,
                 max_connections: int = 4096):
        self.handler, self.path = handler, path.rstrip("/")
        self.request_timeout, self.idle_timeout = request_timeout, idle_timeout
        self.max_connections = max_connections
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.create_server((host, port), family=family, backlog=backlog)
        self.socket.setblocking(False)
        self.server_address = self.socket.getsockname()
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="hangman-worker")
        self._sel = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._returned: deque = deque()  # (conn, keep) from the workers, taken back by the loop
        self._conns: dict[int, _Conn] = {}
        self._listening = False
        self._stop = threading.Event()
        self._running = threading.Event()
        self._done = threading.Event()

    # -- the loop thread ------------------------------------------------------------------------
    def serve_forever(self, poll_interval: float = 0.5) -> None:
        self._stop.clear()
        self._done.clear()
        self._sel.register(self._wake_r, selectors.EVENT_READ, None)
        self._listen(True)
        self._running.set()
        sweep = 0.0
        try:
            while not self._stop.is_set():
                for key, _ in self._sel.select(min(poll_interval, 0.1)):
                    if key.data is None:
                        self._drain_wake()
                    elif key.data == "listen":
                        self._accept()
                    else:
                        self._readable(key.data)
                while self._returned:
                    self._take_back(*self._returned.popleft())
                now = time.monotonic()
                if now >= sweep:
                    self._sweep(now)
                    sweep = now + 0.1
        finally:
            self._running.clear()
            self._listen(False)
            self._sel.unregister(self._wake_r)
            for conn in list(self._conns.values()):
                if not conn.busy:
                    self._close(conn)
            self._done.set()

    def _listen(self, on: bool) -> None:
        if on and not self._listening:
            self._sel.register(self.socket, selectors.EVENT_READ, "listen")
        elif not on and self._listening:
            self._sel.unregister(self.socket)
        self._listening = on

    def _accept(self) -> None:
        for _ in range(64):
            if len(self._conns) >= self.max_connections and not self._make_room():
                self._listen(False)  # every connection is at work: the rest wait in the listen queue
                return
            try:
                sock, _ = self.socket.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of file descriptors: leave them in the queue for now
                return
            sock.setblocking(False)
            if sock.family in (socket.AF_INET, socket.AF_INET6):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn = _Conn(sock, time.monotonic() + self.idle_timeout)
            self._conns[sock.fileno()] = conn
            self._sel.register(sock, selectors.EVENT_READ, conn)

    def _make_room(self) -> bool:
        """At the connection limit, close the connection that has waited longest for a next request
        (one closing after an error first), so that idle kept-alive connections never keep a new
        client waiting; False when every connection is reading or answering a request."""
        idle = [conn for conn in self._conns.values() if not conn.busy and (conn.closing or not conn.buf)]
        if not idle:
            return False
        self._close(min(idle, key=lambda conn: (not conn.closing, conn.deadline)))
        return True

    def _readable(self, conn: _Conn) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            return self._close(conn)
        if conn.closing:  # read and dropped until the client sees our error and closes
            return
        if not conn.buf:
            conn.deadline = time.monotonic() + self.request_timeout
        conn.buf += data
        self._try_dispatch(conn)

    def _try_dispatch(self, conn: _Conn) -> None:
        try:
            if conn.head is None:
                parsed = parse_head(conn.buf)
                if parsed is None:
                    return
                conn.head, conn.pos = parsed
                conn.body, conn.continued = bytearray(), False
            req = conn.head
            if req.chunked:
                conn.pos, done = dechunk(conn.buf, conn.pos, conn.body)
                end = conn.pos
                if not done and len(conn.buf) > MAX_HEAD + 4 * MAX_BODY:  # sizes and extensions count too
                    raise HttpError(413, f"the chunked body is larger than {4 * MAX_BODY} bytes with its framing")
            else:
                end = conn.pos + req.length
                done = len(conn.buf) >= end
        except HttpError as exc:
            return self._fail(conn, exc)
        if not done:
            if req.expect_continue and not conn.continued:
                conn.continued = True
                self._send_now(conn, b"HTTP/1.1 100 Continue\r\n\r\n")
            return
        req.body = bytes(conn.body) if req.chunked else bytes(conn.buf[conn.pos:end])
        del conn.buf[:end]
        conn.head = None
        conn.busy = True
        self._sel.unregister(conn.sock)
        self._pool.submit(self._serve, conn, req)

    def _take_back(self, conn: _Conn, keep: bool) -> None:
        conn.busy = False
        if not keep or self._stop.is_set():
            return self._close(conn)
        now = time.monotonic()
        conn.deadline = now + (self.request_timeout if conn.buf else self.idle_timeout)
        self._sel.register(conn.sock, selectors.EVENT_READ, conn)
        if conn.buf:  # the client sent its next request before this answer
            self._try_dispatch(conn)

    def _sweep(self, now: float) -> None:
        for conn in list(self._conns.values()):
            if conn.busy or now < conn.deadline:
                continue
            if conn.buf and not conn.closing:
                self._fail(conn, HttpError(408, f"the request was not completed within {self.request_timeout:g} s"))
            else:
                self._close(conn)

    def _fail(self, conn: _Conn, exc: HttpError) -> None:
        """Answer an unreadable request and close: the write side at once, the socket once the
        client has read the answer (or in 2 s), so a client still sending gets it, not a reset."""
        self._send_now(conn, response(exc.status, {"message": str(exc)}, False))
        conn.closing, conn.head = True, None
        conn.buf.clear()
        conn.deadline = time.monotonic() + 2.0
        try:
            conn.sock.shutdown(socket.SHUT_WR)
        except OSError:
            self._close(conn)

    @staticmethod
    def _send_now(conn: _Conn, data: bytes) -> None:
        try:
            conn.sock.send(data)  # small: fits the socket's buffer
        except OSError:
            pass

    def _close(self, conn: _Conn) -> None:
        fd = conn.sock.fileno()
        if self._conns.pop(fd, None) is None:
            return
        if not conn.busy:
            try:
                self._sel.unregister(conn.sock)
            except (KeyError, ValueError):
                pass
        conn.sock.close()
        if not self._listening and self._running.is_set() and len(self._conns) < self.max_connections:
            self._listen(True)

    def _drain_wake(self) -> None:
        try:
            while self._wake_r.recv(4096):
                pass
        except (BlockingIOError, InterruptedError):
            pass

    # -- the workers ----------------------------------------------------------------------------
    def _serve(self, conn: _Conn, req: Request) -> None:
        try:
            status, answer, headers = self._answer(req)
        except Exception as exc:  # noqa: BLE001 - a bug must still be answered, as JSON
            status, answer, headers = 500, {"message": f"internal error ({type(exc).__name__})"}, ()
        keep = req.keep_alive
        data = response(status, answer, keep, req.version, req.method == "HEAD", headers)
        try:
            conn.sock.settimeout(self.request_timeout)
            conn.sock.sendall(data)
            conn.sock.setblocking(False)
        except OSError:
            keep = False
        self._returned.append((conn, keep))
        try:
            self._wake_w.send(b"\0")
        except OSError:  # the wake-up pipe is full: the loop is awake anyway
            pass

    def _answer(self, req: Request) -> tuple[int, dict, tuple]:
        if req.method != "POST":
            return 405, {"message": f"POST a JSON object to {self.path}"}, (("Allow", "POST"),)
        if req.target.split("?")[0].rstrip("/") != self.path:
            return 404, {"message": f"no such endpoint {req.target[:200]}; POST to {self.path}"}, ()
        try:
            request = json.loads(req.body)
        except RecursionError:
            return 400, {"message": "the JSON is nested too deeply"}, ()
        except ValueError:  # not JSON, not UTF-8, or a number too long to convert
            return 400, {"message": "the body is not JSON"}, ()
        status, answer = self.handler(request)
        return status, answer, ((("Retry-After", str(RETRY_AFTER)),) if status == 503 else ())

    # -- control ----------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Stop serve_forever (called from another thread) and wait until it has returned."""
        if not self._running.is_set():
            return
        self._stop.set()
        try:
            self._wake_w.send(b"\0")
        except OSError:
            pass
        self._done.wait()

    def server_close(self) -> None:
        self._pool.shutdown(wait=True)
        while self._returned:
            self._returned.popleft()[0].sock.close()
        for conn in list(self._conns.values()):
            conn.sock.close()
        self._conns.clear()
        self.socket.close()
        self._sel.close()
        self._wake_r.close()
        self._wake_w.close()

