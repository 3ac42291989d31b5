#!/usr/bin/env python3
"""Paired benchmark: how long `mirrorless lsp` takes to answer `textDocument/codeAction`.

Not part of `cargo test`; results are recorded in docs/benchmarks/lsp.md.

Usage: benches/lsp_code_actions.py [--rounds N] BIN[=LABEL]... -- WORKSPACE FILE

Each build runs as `BIN lsp` in WORKSPACE (a checkout of upstream's repository, say), spoken
to over its standard input and output as an editor does. FILE (relative to WORKSPACE) is
opened as it is on disk; once its diagnostics are published, the server is asked for the code
actions of each diagnostic in turn, as an editor asks when the cursor rests on one. Every
answer that offers a suppression comment made the server lint the workspace with that comment
in place first, to check that it silences its finding and nothing else. Each request is timed
from sending it to reading its answer (wall), and the server's CPU time over all of them is
read from /proc. The builds take turns, N rounds each, in an order that rotates every round;
their answers must be the same. Prints per build the median and 95th percentile of the
answers' wall time, the CPU time per answer, and the ratios to the first build.
"""

import json
import os
import statistics
import subprocess
import sys
import time


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


class Server:
    def __init__(self, binary, root):
        self.proc = subprocess.Popen(
            [binary, "lsp"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0
        uri = "file://" + root
        self.request("initialize", {"processId": None, "rootUri": uri, "capabilities": {}})
        self.notify("initialized", {})

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("the server ended")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        ident = self.next_id
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        while True:
            msg = self.read()
            if msg.get("id") == ident and "method" not in msg:
                return msg
            if "method" in msg and "id" in msg:
                # A request of the server's (registering file watchers): answered empty.
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})

    def diagnostics(self, uri):
        while True:
            msg = self.read()
            if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                return msg["params"]["diagnostics"]
            if "method" in msg and "id" in msg:
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})

    def stop(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.proc.wait(timeout=60)


def round_of(binary, root, rel):
    """(wall seconds per answer, CPU seconds over all answers, the answers' titles)."""
    server = Server(binary, root)
    path = os.path.join(root, rel)
    uri = "file://" + path
    with open(path) as f:
        text = f.read()
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "typescript", "version": 1, "text": text}},
    )
    diagnostics = server.diagnostics(uri)
    if not diagnostics:
        sys.exit(f"{rel}: no diagnostics to ask code actions for")
    walls, titles = [], []
    cpu_before = cpu_seconds(server.proc.pid)
    for d in diagnostics:
        start = time.perf_counter()
        answer = server.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": [d]}},
        )
        walls.append(time.perf_counter() - start)
        titles.append([a["title"] for a in answer["result"]])
    cpu = cpu_seconds(server.proc.pid) - cpu_before
    server.stop()
    return walls, cpu, titles


def main():
    args = sys.argv[1:]
    rounds = 5
    if args[:1] == ["--rounds"]:
        rounds = int(args[1])
        args = args[2:]
    split = args.index("--")
    builds = [(b.split("=", 1) + [b])[:2] for b in args[:split]]
    root, rel = os.path.abspath(args[split + 1]), args[split + 2]
    walls = {label: [] for _, label in builds}
    cpus = {label: [] for _, label in builds}
    answers = {}
    for r in range(rounds):
        order = builds[r % len(builds):] + builds[: r % len(builds)]
        for binary, label in order:
            w, cpu, titles = round_of(binary, root, rel)
            walls[label].extend(w)
            cpus[label].append(cpu / len(w))
            answers.setdefault(label, titles)
    first = builds[0][1]
    for _, label in builds:
        if answers[label] != answers[first]:
            sys.exit(f"{label} answers otherwise than {first}")
    suppressions = sum(any(t.startswith("Suppress ") for t in ts) for ts in answers[first])
    print(f"{rel}: {len(answers[first])} diagnostics, {suppressions} with a suppression offered; {rounds} rounds")
    print("| build | median ms | p95 ms | CPU ms per answer | median / first |")
    print("|---|---|---|---|---|")
    base = statistics.median(walls[first])
    for _, label in builds:
        w = sorted(walls[label])
        med = statistics.median(w)
        p95 = w[min(len(w) - 1, int(0.95 * len(w)))]
        cpu = statistics.median(cpus[label])
        print(f"| {label} | {med * 1000:.1f} | {p95 * 1000:.1f} | {cpu * 1000:.1f} | {med / base:.2f} |")


if __name__ == "__main__":
    main()
