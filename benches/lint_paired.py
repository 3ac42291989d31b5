#!/usr/bin/env python3
"""Paired benchmark: `mirrorless lint` builds against ripgrep on the same trees, alternating.

Not part of `cargo test`; results are recorded in docs/benchmarks/lint.md (issue 32 item 1).

Usage: benches/lint_paired.py [--runs N] [--human] [--callgrind] BIN[=LABEL]... -- TREE...

Per tree: one untimed run of every build, whose JSON reports must agree (but for
`summary.candidates`, the count a prefilter change may change); then N rounds, each running
`rg` and every build once, in an order that rotates every round, so the load of a shared
machine falls on all alike. Each run is timed by `os.wait4` on the child: wall time
(perf_counter around fork and wait), CPU time (user + sys, microseconds) and peak resident
set (GNU time). Prints medians (and the load average before and after), then the ratios to `rg`. With
`--callgrind`, also the instructions of one `-j 1` run of each build and of `rg -j1` under
`valgrind --tool=callgrind` (load-independent; hardware counters are often unavailable on
shared machines).

Commands (the file types `mirrorless lint` reads; the six names from `mirrorless explain`):
  rg --hidden --no-ignore -F -c -f NAMES -g '*.{ts,tsx,...,rs}' TREE
  BIN lint --no-config --format json TREE
With `--human`, the builds are timed in the default format, the one a person reads (the JSON
reports are still the ones compared):
  BIN lint --no-config TREE
"""

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

GLOB = "*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,md,markdown,mdx,rs}"


def names(bin_path):
    out = []
    for n in range(1, 7):
        text = subprocess.run([bin_path, "explain", f"MIRROR-{n}"], capture_output=True, text=True).stdout
        m = re.search(r"`(agent/[a-z-]*)`", text)
        if not m:
            sys.exit(f"no name in `{bin_path} explain MIRROR-{n}`")
        out.append(m.group(1))
    return out


def timed(cmd):
    """(wall s, cpu s, max rss KiB) of one run of cmd, output discarded. The command runs
    under GNU time, whose report gives its peak resident set: a child forked from this
    Python process would count Python's pages as its own until its `exec`."""
    with tempfile.NamedTemporaryFile("r") as rss, open(os.devnull, "wb") as null:
        start = time.perf_counter()
        p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss.name] + cmd, stdout=null, stderr=null)
        # The rusage of `time` includes that of the command it waited for.
        _, _, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - start
        kib = int(rss.read().split()[-1])
    return wall, usage.ru_utime + usage.ru_stime, kib


def callgrind(cmd):
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={d}/out"] + cmd,
            capture_output=True,
            text=True,
        )
        m = re.search(r"Collected : (\d+)", r.stderr)
        return int(m.group(1)) if m else None


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    args = sys.argv[1:]
    runs, grind, human = 7, False, False
    while args and args[0].startswith("--") and args[0] != "--":
        if args[0] == "--runs":
            runs = int(args[1])
            args = args[2:]
        elif args[0] == "--human":
            human = True
            args = args[1:]
        elif args[0] == "--callgrind":
            grind = True
            args = args[1:]
        else:
            sys.exit(__doc__)
    if "--" not in args:
        sys.exit(__doc__)
    sep = args.index("--")
    builds = [(b.split("=", 1) + [os.path.basename(b)])[:2] for b in args[:sep]]
    trees = args[sep + 1 :]
    if not builds or not trees:
        sys.exit(__doc__)
    with tempfile.NamedTemporaryFile("w", suffix=".names", delete=False) as f:
        f.write("\n".join(names(builds[-1][0])) + "\n")
        names_file = f.name
    nproc = os.cpu_count()
    model = next(
        (l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?"
    )
    rg_version = subprocess.run(["rg", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    fmt = [] if human else ["--format", "json"]
    print(f"machine: {nproc} cores, {model}, {rg_version}; {runs} rounds; "
          f"lint timed in the {'human' if human else 'JSON'} format")
    for tree in trees:
        commands = {"rg": ["rg", "--hidden", "--no-ignore", "-F", "-c", "-f", names_file, "-g", GLOB, tree]}
        for path, label in builds:
            commands[label] = [path, "lint", "--no-config"] + fmt + [tree]
        reports = {}
        for path, label in builds:
            json_cmd = [path, "lint", "--no-config", "--format", "json", tree]
            out = subprocess.run(json_cmd, capture_output=True, text=True).stdout
            reports[label] = json.loads(out)
        first = builds[0][1]

        def comparable(r):
            r = json.loads(json.dumps(r))
            r["summary"].pop("candidates", None)
            return r

        same = all(comparable(reports[l]) == comparable(reports[first]) for _, l in builds)
        cands = ", ".join(f"{l} {reports[l]['summary']['candidates']}" for _, l in builds)
        findings = len(reports[first]["findings"])
        files = reports[first]["summary"]["files"]
        print(f"\ntree {tree}: {files} files linted, {findings} findings; reports "
              f"{'identical' if same else 'DIFFERENT'} (candidates: {cands})")
        print(f"load before: {loadavg()}")
        labels = list(commands)
        samples = {l: [] for l in labels}
        for r in range(runs):
            k = r % len(labels)
            for label in labels[k:] + labels[:k]:
                samples[label].append(timed(commands[label]))
        print(f"load after: {loadavg()}")
        print("| command | median wall ms | median CPU ms | peak RSS MiB | wall / rg | CPU / rg |")
        print("|---|---|---|---|---|---|")
        med = {l: (statistics.median(s[0] for s in samples[l]), statistics.median(s[1] for s in samples[l])) for l in labels}
        for l in labels:
            w, c = med[l]
            rss = max(s[2] for s in samples[l]) / 1024
            print(f"| {l} | {w * 1000:.1f} | {c * 1000:.1f} | {rss:.0f} | {w / med['rg'][0]:.2f} | "
                  f"{c / med['rg'][1]:.2f} |")
        if grind:
            rg1 = callgrind(["rg", "-j1"] + commands["rg"][1:])
            line = f"callgrind instructions (-j 1): rg {rg1:,}" if rg1 else "callgrind: rg n/a"
            for path, label in builds:
                n = callgrind([path, "lint", "--no-config"] + fmt + ["-j", "1", tree])
                line += f"; {label} {n:,}" if n else f"; {label} n/a"
            print(line)
    os.unlink(names_file)


if __name__ == "__main__":
    main()
