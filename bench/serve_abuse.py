#!/usr/bin/env python3
"""Awkward clients against `gamesolver serve` on loopback, for before/after numbers of the
server's defences (docs/SERVER.md). Starts BINARY serve on an empty data folder (no
databases: positions have no value, which is all that is asked here) and measures:

  slow       SLOW connections from 127.0.0.1 sending a request a byte a second; after
             1.5 s a normal request from --normal-source (127.0.0.2): how long it took,
             and how the slow connections ended (status answered, or still open) within
             --slow-seconds
  burst      BURST connections from as many addresses 127.1.x.y, all connecting at once,
             each sending one request: how many were answered, the slowest, and how much
             the kernel's TcpExtListenOverflows counter rose meanwhile
  pipeline   three requests in one write: how many responses came back
  variant    the README's query, variant=standard,elephant_takes_rat=off: status, error

Every scenario is bounded in count and time and stops by itself.

  bench/serve_abuse.py build/gamesolver [--slow 12] [--burst 300] [-- extra serve options]
"""
import argparse
import json
import os
import re
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time

WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web")


def start_server(binary, data, extra):
    log = tempfile.TemporaryFile(mode="w+")
    process = subprocess.Popen([binary, "serve", "--port", "0", "--data", data, "--web", WEB] + extra,
                               stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        log.seek(0)
        text = log.read()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", text)
        if found:
            return process, int(found.group(1)), text.strip()
        if process.poll() is not None:
            sys.exit("serve_abuse: the server ended: " + text)
        time.sleep(0.05)
    process.kill()
    sys.exit("serve_abuse: the server did not start")


def connect(port, source, blocking=True):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    if blocking:
        s.settimeout(5)
        s.connect(("127.0.0.1", port))
    else:
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
    return s


def status_of(data):
    found = re.match(rb"HTTP/1\.1 (\d+)", data)
    return int(found.group(1)) if found else None


def read_response(s, seconds):
    """Bytes until one response with its Content-Length body is complete, the connection
    closes, or `seconds` pass."""
    data = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([s], [], [], max(0.0, min(0.1, deadline - time.monotonic())))
        if not ready:
            continue
        try:
            chunk = s.recv(65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
        head, sep, body = data.partition(b"\r\n\r\n")
        length = re.search(rb"Content-Length: (\d+)", head)
        if sep and length and len(body) >= int(length.group(1)):
            break
    return data


def normal_request(port, source, seconds=10):
    start = time.monotonic()
    try:
        s = connect(port, source)
        s.sendall(b"GET /api/v1/games/jungle HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = read_response(s, seconds)
        s.close()
    except OSError as error:
        return None, time.monotonic() - start, str(error)
    return status_of(data), time.monotonic() - start, ""


def slow(port, count, seconds, normal_source):
    request = b"GET /api/v1/games HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    clients = []
    for _ in range(count):
        clients.append({"socket": connect(port, "127.0.0.1"), "opened": time.monotonic(), "data": b"",
                        "ended": None})
    result = {}

    def normal():
        status, took, error = normal_request(port, normal_source)
        result.update(status=status, seconds=round(took, 3), error=error)

    start = time.monotonic()
    thread = None
    sent = 0
    while time.monotonic() - start < seconds:
        elapsed = time.monotonic() - start
        if thread is None and elapsed >= 1.5:
            thread = threading.Thread(target=normal)
            thread.start()
        if elapsed >= sent:  # a byte a second on each connection still open
            for c in clients:
                if c["ended"] is None and not c["data"]:
                    try:
                        c["socket"].send(request[sent:sent + 1])
                    except OSError:
                        pass
            sent += 1
        for c in clients:
            if c["ended"] is not None:
                continue
            ready, _, _ = select.select([c["socket"]], [], [], 0)
            if ready:
                try:
                    chunk = c["socket"].recv(65536)
                except OSError:
                    chunk = b""
                c["data"] += chunk
                if not chunk:
                    c["ended"] = time.monotonic() - c["opened"]
        if thread is not None and not thread.is_alive() and all(c["ended"] is not None for c in clients):
            break
        time.sleep(0.05)
    if thread is None:
        thread = threading.Thread(target=normal)
        thread.start()
    thread.join()
    ends = {}
    for c in clients:
        key = "open after %.0f s" % seconds if c["ended"] is None else "status %s" % status_of(c["data"])
        ends.setdefault(key, []).append(c["ended"])
        c["socket"].close()
    summary = {key: {"connections": len(times),
                     "closed after s": None if times[0] is None else [round(min(times), 2), round(max(times), 2)]}
               for key, times in sorted(ends.items())}
    return {"normal request from " + normal_source: result, "slow connections": summary}


def burst(port, count, seconds):
    def overflows():
        with open("/proc/net/netstat") as f:
            lines = f.read().splitlines()
        for names, values in zip(lines[0::2], lines[1::2]):
            if names.startswith("TcpExt:"):
                table = dict(zip(names.split()[1:], values.split()[1:]))
                return int(table.get("ListenOverflows", 0))
        return 0

    before = overflows()
    request = b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    clients = []
    start = time.monotonic()
    for i in range(count):
        source = "127.1.%d.%d" % (i // 200, i % 200 + 1)
        clients.append({"socket": connect(port, source, blocking=False), "start": time.monotonic(),
                        "sent": False, "data": b"", "took": None, "status": None})
    poller = select.poll()
    by_fd = {}
    for c in clients:
        poller.register(c["socket"], select.POLLOUT)
        by_fd[c["socket"].fileno()] = c
    left = count
    while left and time.monotonic() - start < seconds:
        for fd, events in poller.poll(100):
            c = by_fd[fd]
            if not c["sent"]:
                if events & (select.POLLERR | select.POLLHUP):
                    c["took"] = time.monotonic() - c["start"]
                    poller.unregister(fd)
                    left -= 1
                    continue
                c["socket"].send(request)
                c["sent"] = True
                poller.modify(fd, select.POLLIN)
                continue
            try:
                chunk = c["socket"].recv(65536)
            except OSError:
                chunk = b""
            c["data"] += chunk
            head, sep, body = c["data"].partition(b"\r\n\r\n")
            length = re.search(rb"Content-Length: (\d+)", head)
            if not chunk or (sep and length and len(body) >= int(length.group(1))):
                c["took"] = time.monotonic() - c["start"]
                c["status"] = status_of(c["data"])
                poller.unregister(fd)
                left -= 1
    took = sorted(c["took"] for c in clients if c["took"] is not None)
    statuses = {}
    for c in clients:
        statuses[str(c["status"])] = statuses.get(str(c["status"]), 0) + 1
        c["socket"].close()
    return {"connections": count, "statuses": statuses, "unfinished": left,
            "slowest s": round(took[-1], 3) if took else None,
            "median s": round(took[len(took) // 2], 3) if took else None,
            "over 1 s": sum(1 for t in took if t >= 1.0),
            "TcpExtListenOverflows rose by": overflows() - before}


def pipeline(port):
    s = connect(port, "127.0.0.3")
    s.sendall(b"GET /api/v1/games/jungle HTTP/1.1\r\nHost: x\r\n\r\n"
              b"GET /api/v1/games/morris HTTP/1.1\r\nHost: x\r\n\r\n"
              b"GET /api/v1/games/checkers HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    data = b""
    start = time.monotonic()
    while time.monotonic() - start < 10:
        ready, _, _ = select.select([s], [], [], 0.1)
        if ready:
            try:
                chunk = s.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
    s.close()
    return {"responses": len(re.findall(rb"HTTP/1\.1 \d+", data)),
            "statuses": [int(x) for x in re.findall(rb"HTTP/1\.1 (\d+)", data)],
            "seconds": round(time.monotonic() - start, 2)}


def variant(port):
    s = connect(port, "127.0.0.4")
    s.sendall(b"GET /api/v1/games/jungle/positions?p=start&variant=standard,elephant_takes_rat=off HTTP/1.1\r\n"
              b"Host: x\r\nConnection: close\r\n\r\n")
    data = read_response(s, 10)
    s.close()
    body = data.partition(b"\r\n\r\n")[2]
    try:
        parsed = json.loads(body)
    except ValueError:
        parsed = {}
    return {"status": status_of(data), "error": parsed.get("error"), "rules": parsed.get("rules")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--slow", type=int, default=12, help="slow connections")
    parser.add_argument("--slow-seconds", type=float, default=15, help="how long to watch them")
    parser.add_argument("--normal-source", default="127.0.0.2", help="address of the normal request")
    parser.add_argument("--burst", type=int, default=300, help="connections at once")
    parser.add_argument("--only", choices=["slow", "burst", "pipeline", "variant"], action="append")
    parser.add_argument("extra", nargs="*", help="more options for serve (after --)")
    args = parser.parse_args()
    scenarios = args.only or ["variant", "pipeline", "burst", "slow"]
    with tempfile.TemporaryDirectory() as data:
        process, port, line = start_server(args.binary, data, args.extra)
        report = {"server": line}
        try:
            for name in scenarios:
                if name == "slow":
                    report["slow"] = slow(port, args.slow, args.slow_seconds, args.normal_source)
                elif name == "burst":
                    report["burst"] = burst(port, args.burst, 30)
                elif name == "pipeline":
                    report["pipeline"] = pipeline(port)
                else:
                    report["variant"] = variant(port)
        finally:
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
