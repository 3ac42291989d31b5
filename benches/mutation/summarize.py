#!/usr/bin/env python3
"""Tabulates a mutation run for docs/benchmarks/mutation.md.

    python3 benches/mutation/summarize.py [--out docs/benchmarks/mutation] [--survivors FILE] \\
        [py=target/mutation/py] [js=target/mutation/js] [rust=target/mutation/rust]

For each target given as NAME=DIR: an adapter directory holds `results.tsv` (run_mutants.py) and
`mutants.tsv` plus the mutator's note on dropped mutants (`unviable.txt`); a cargo-mutants
directory holds `mutants.out/outcomes.json`. Writes OUT/NAME-results.tsv (one row per mutant: id,
verdict, exit code or cargo-mutants summary, seconds, what caught it, line, operator, mutation)
and prints one Markdown table row per target: mutants, killed, survived, timed out, unviable,
argued equivalent, and killed % of the non-equivalent mutants.

The survivors file (default OUT/survivors.tsv: target, id, group, reason) says which survivors
are argued equivalent (group `equivalent`) and which are open; a survivor it does not list is
reported as unexplained.
"""

import argparse
import csv
import json
import os
import sys

COLS = ["id", "verdict", "code", "seconds", "failed", "line", "operator", "description"]


def adapter_rows(d):
    with open(os.path.join(d, "results.tsv"), encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    only = os.path.join(d, "results-only.tsv")
    if os.path.exists(only):
        # A re-run of some mutants (--only) on a newer tree replaces their first verdicts.
        with open(only, encoding="utf-8") as f:
            newer = {r["id"]: r for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)}
        rows = [newer.get(r["id"], r) for r in rows]
    unviable = 0
    note = os.path.join(d, "unviable.txt")
    if os.path.exists(note):
        with open(note, encoding="utf-8") as f:
            unviable = sum(1 for line in f if line.strip())
    return rows, unviable


def cargo_rows(d):
    with open(os.path.join(d, "mutants.out", "outcomes.json"), encoding="utf-8") as f:
        outcomes = json.load(f)
    verdicts = {"CaughtMutant": "killed", "MissedMutant": "survived", "Timeout": "timeout",
                "Unviable": "unviable", "Success": "survived", "Failure": "killed"}
    rows = []
    for n, o in enumerate(outcomes["outcomes"], 1):
        scenario = o["scenario"]
        if not isinstance(scenario, dict) or "Mutant" not in scenario:
            continue  # the baseline
        m = scenario["Mutant"]
        seconds = sum(p.get("duration", {}).get("secs", 0) if isinstance(p.get("duration"), dict)
                      else p.get("duration", 0) for p in o.get("phase_results", []))
        span = m.get("span", {}).get("start", {})
        rows.append({
            "id": "r%04d" % n,
            "verdict": verdicts.get(o["summary"], o["summary"]),
            "code": o["summary"],
            "seconds": "%.1f" % seconds,
            "failed": "",
            "line": "%s:%s" % (m.get("file", ""), span.get("line", "")),
            "operator": m.get("genre", ""),
            "description": "%s%s" % (
                ("replace %s with %s" % (m.get("function", {}).get("function_name", ""),
                                         m.get("replacement", "")))
                if m.get("genre") == "FnValue" else m.get("replacement", ""),
                (" in %s" % m["function"]["function_name"]) if m.get("function") and
                m.get("genre") != "FnValue" else ""),
        })
    return rows, 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="docs/benchmarks/mutation")
    p.add_argument("--survivors")
    p.add_argument("targets", nargs="+", help="NAME=DIR")
    args = p.parse_args()
    survivors = {}
    path = args.survivors or os.path.join(args.out, "survivors.tsv")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
                survivors[(r["target"], r["id"])] = r
    print("| target | mutants | killed | survived | timed out | unviable | equivalent "
          "| killed % of non-equivalent |")
    print("|---|---|---|---|---|---|---|---|")
    unexplained = []
    for spec in args.targets:
        name, d = spec.split("=", 1)
        rows, unviable = (cargo_rows if name == "rust" else adapter_rows)(d)
        with open(os.path.join(args.out, "%s-results.tsv" % name), "w", encoding="utf-8") as f:
            f.write("\t".join(COLS) + "\n")
            for r in rows:
                f.write("\t".join(str(r[c]).replace("\t", " ") for c in COLS) + "\n")
        count = {}
        for r in rows:
            count[r["verdict"]] = count.get(r["verdict"], 0) + 1
        unviable += count.get("unviable", 0)
        alive = [r for r in rows if r["verdict"] in ("survived", "timeout")]
        equivalent = [r for r in alive
                      if survivors.get((name, r["id"]), {}).get("group") == "equivalent"]
        unexplained += ["%s %s line %s: %s" % (name, r["id"], r["line"], r["description"])
                        for r in alive if (name, r["id"]) not in survivors]
        killed = count.get("killed", 0)
        viable = len(rows) - count.get("unviable", 0)
        denominator = viable - len(equivalent)
        print("| %s | %d | %d | %d | %d | %d | %d | %.1f %% |" % (
            name, viable + unviable, killed, count.get("survived", 0), count.get("timeout", 0),
            unviable, len(equivalent), 100.0 * killed / denominator if denominator else 0.0))
        if count.get("error"):
            print("  (%s: %d harness errors, listed as `error`)" % (name, count["error"]))
    if unexplained:
        sys.stderr.write("%d survivors not in the survivors file:\n  %s\n"
                         % (len(unexplained), "\n  ".join(unexplained)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
