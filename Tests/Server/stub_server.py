#!/usr/bin/env python3
"""A real HTTP server on 127.0.0.1 for URLStubs' passthrough and recording tests.

Standard library only. Prints the port it listens on as its first line, then serves until its
standard input closes (so it never outlives the test process that started it).
Endpoints:
  GET  /json                 a JSON document with nested objects and an array of objects
  GET  /big                  JSON with integers a Double cannot hold exactly, and a fraction
  GET  /text                 plain text (not JSON)
  ANY  /echo                 {"method", "path", "query", "headers", "body"} of the request
  GET  /redirect             302 to /json
  GET  /login                302 to /home, setting the cookie session=s1
  GET  /home                 the Cookie header it received, as text
  GET  /cookies              two Set-Cookie headers
  GET  /slow?ms=N            the body "slow" after N milliseconds
  GET  /bytes?n=N            N bytes of plain text (a repeating alphabet)
  GET  /secret               needs Authorization; returns a token
  GET  /account              feature flags named by "key", and a session whose credentials are
                             objects, arrays, numbers, booleans and null (ACCOUNT)
  GET  /__count?path=P&tag=T how many requests this server saw for path P with ?tag=T
                             (tests use a tag of their own, so parallel tests never mix counts)
"""
import json, os, sys, threading, time, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

counts = {}
lock = threading.Lock()

DOCUMENT = {
    "user": {"name": "Ada", "age": 36, "legacyId": "u-1"},
    "items": [{"id": 1, "price": 10, "name": "teapot"}, {"id": 2, "price": 20, "name": "kettle"}],
    "currency": "USD",
}

ACCOUNT = {
    "flags": [{"key": "dark_mode", "enabled": True}, {"key": "beta", "enabled": False}],
    "session": {
        "token": {"value": "tok-abcdef-123456", "expiresIn": 3600},
        "refresh_token": ["rt-one-aaaa", "rt-two-bbbb"],
        "password": None, "secret": True, "api_key": 87654321,
    },
    "cacheSeconds": 3600,
}

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json", headers=()):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def handle_any(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        tag = query.get("tag", [""])[0]
        if url.path != "/__count":
            with lock:
                counts[url.path + "#" + tag] = counts.get(url.path + "#" + tag, 0) + 1
        if url.path == "/json":
            self.send(200, json.dumps(DOCUMENT, sort_keys=True))
        elif url.path == "/big":
            self.send(200, '{"id":9007199254740993,"owner":-9007199254740995,"ratio":0.1,"name":"big"}')
        elif url.path == "/text":
            self.send(200, "plain words, not JSON", "text/plain")
        elif url.path == "/echo":
            self.send(200, json.dumps({
                "method": self.command, "path": url.path, "query": url.query,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
            }, sort_keys=True))
        elif url.path == "/redirect":
            self.send(302, "", "text/plain", [("Location", "/json")])
        elif url.path == "/login":
            self.send(302, "", "text/plain", [("Location", "/home"), ("Set-Cookie", "session=s1; Path=/")])
        elif url.path == "/home":
            self.send(200, "cookie: " + self.headers.get("Cookie", "none"), "text/plain")
        elif url.path == "/cookies":
            self.send(200, "{}", headers=[("Set-Cookie", "a=1; Path=/"), ("Set-Cookie", "b=2; Path=/")])
        elif url.path == "/slow":
            time.sleep(int(query.get("ms", ["200"])[0]) / 1000)
            self.send(200, "slow", "text/plain")
        elif url.path == "/bytes":
            count = int(query.get("n", ["1024"])[0])
            self.send(200, (b"abcdefghijklmnopqrstuvwxyz" * (count // 26 + 1))[:count], "text/plain")
        elif url.path == "/secret":
            if not self.headers.get("Authorization"):
                self.send(401, '{"error":"no credentials"}')
            else:
                self.send(200, json.dumps({"token": "server-secret-token", "user": "ada"}, sort_keys=True),
                          headers=[("Set-Cookie", "sid=server-session; Path=/")])
        elif url.path == "/account":
            self.send(200, json.dumps(ACCOUNT, sort_keys=True))
        elif url.path == "/__count":
            with lock:
                count = counts.get(query.get("path", [""])[0] + "#" + tag, 0)
            self.send(200, json.dumps({"count": count}))
        else:
            self.send(404, '{"error":"not found"}')

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = handle_any

class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A client that gave up first (a timeout test hanging up on /slow) is expected: only
        # other failures are worth a traceback in the test log.
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)

def main():
    server = Server(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()          # returns when the parent closes the pipe or dies
    os._exit(0)

if __name__ == "__main__":
    main()
