#!/usr/bin/env python3
"""Runs `mirrorless run` on every mutant in a directory and tabulates the verdicts.

    python3 benches/mutation/run_mutants.py --bin target/release/mirrorless \\
        --seed 7 --cases 256 --timeout 120 --jobs 2 --interpreter python3 MUTANT_DIR

MUTANT_DIR holds `mutants.tsv` (id, line, operator, description) and one file per mutant, as
written by py_mutate.py or js_mutate.py. Each mutant is run as

    mirrorless run --seed S --cases N --no-corpus --no-shrink -j 1 --max-restarts 0 \
        -- INTERPRETER MUTANT

with its own working directory (the first fault ends a mutant's run: it is killed either
way). The verdict: `killed` when the run exits 1 (NOT CONFORMANT) or 2 (the implementation
could not be driven), `survived` on exit 0, `timeout` when it is still running after --timeout
seconds (it is then killed). Writes MUTANT_DIR/results.tsv (id, verdict, exit code, seconds,
failed requirements, line, operator, description) and prints the totals; survivors are listed
at the end.
"""

import argparse
import concurrent.futures
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

FAILED = re.compile(r"^\s*failed: (.*)$")


def run_one(args, mutant):
    path = os.path.join(args.dir, mutant["file"])
    # --max-restarts 0: the first crash, hang or protocol break ends the run (exit 2), where the
    # default would restart the process up to ten times and wait out a timeout for each hang;
    # either way the mutant is killed, but hanging mutants took two thirds of the run time.
    cmd = ["nice", "-n", "19", args.bin, "run", "--seed", str(args.seed), "--cases",
           str(args.cases), "--no-corpus", "--no-shrink", "-j", "1", "--max-restarts", "0"]
    if args.validate_protocol:
        cmd.append("--validate-protocol")
    cmd += ["--", args.interpreter, path]
    # The interpreter's own defaults, as an implementer's CI has them: an environment that
    # sets PYTHONUNBUFFERED (this machine's does) would hide a missing flush.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mutant-") as cwd:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, errors="replace", start_new_session=True, env=env)
        try:
            out, err = proc.communicate(timeout=args.timeout)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the run and the implementation it drives
            out, err = proc.communicate()
            code = None
    seconds = time.monotonic() - start
    failed = sorted({r.strip() for line in out.splitlines() for m in [FAILED.match(line)] if m
                     for r in m.group(1).split(",")})
    if code is None:
        verdict = "timeout"
    elif code == 0:
        verdict = "survived"
    elif code in (1, 2):
        verdict = "killed"
    else:
        verdict = "error"  # a harness crash: neither a kill nor a survivor, listed for review
    note = ",".join(failed) if failed else (err.strip().splitlines() or [""])[-1][:160]
    return dict(mutant, verdict=verdict, code="" if code is None else str(code),
                seconds="%.1f" % seconds, failed=note.replace("\t", " "))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True, help="the mirrorless binary (a release build)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--cases", type=int, default=256, help="generated cases per profile")
    p.add_argument("--timeout", type=float, default=120, help="seconds per mutant")
    p.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    p.add_argument("--interpreter", required=True, help="python3 or node")
    p.add_argument("--only", help="comma-separated mutant ids to run (default: all)")
    p.add_argument("--validate-protocol", action="store_true",
                   help="run with --validate-protocol: a message that breaks the stdio schema "
                        "(an event without `seq`, …) kills the mutant")
    p.add_argument("dir")
    args = p.parse_args()
    args.bin = os.path.abspath(args.bin)
    args.dir = os.path.abspath(args.dir)
    ext = ".py" if "python" in args.interpreter else ".mjs"
    with open(os.path.join(args.dir, "mutants.tsv"), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        mutants = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]
    for m in mutants:
        m["file"] = m["id"] + ext
    if args.only:
        wanted = set(args.only.split(","))
        mutants = [m for m in mutants if m["id"] in wanted]
    # The unmutated round trip must pass, or every verdict below is meaningless.
    baseline = run_one(args, {"id": "m0000", "file": "m0000" + ext, "line": "0",
                              "operator": "none", "description": "unmutated"})
    if baseline["verdict"] != "survived":
        sys.stderr.write("the unmutated source does not pass: %r\n" % baseline)
        return 2
    results = []
    cols = ["id", "verdict", "code", "seconds", "failed", "line", "operator", "description"]
    out_name = ("results" + ("-only" if args.only else "")
                + ("-validated" if args.validate_protocol else "") + ".tsv")
    # Rows are written as they come, so an interrupted run still leaves its partial results.
    with open(os.path.join(args.dir, out_name), "w", encoding="utf-8") as f, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        f.write("\t".join(cols) + "\n")
        for i, r in enumerate(pool.map(lambda m: run_one(args, m), mutants), 1):
            results.append(r)
            f.write("\t".join(r[c] for c in cols) + "\n")
            f.flush()
            if i % 50 == 0:
                sys.stderr.write("%d/%d mutants\n" % (i, len(mutants)))
    counts = {}
    for r in results:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    print("%d mutants: %s" % (len(results), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    for r in results:
        if r["verdict"] != "killed":
            print("%s\t%s\tline %s\t%s\t%s" % (r["verdict"], r["id"], r["line"], r["operator"], r["description"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
