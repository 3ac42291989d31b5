#!/usr/bin/env python3
"""Tabulates a mutation run for docs/benchmarks/mutation.md.

    python3 benches/mutation/summarize.py [--out docs/benchmarks/mutation] [--survivors FILE] \\
        [py=target/mutation/py] [js=target/mutation/js] [rust=target/mutation/rust]

For each target given as NAME=DIR: an adapter directory holds `results.tsv` (run_mutants.py) and
`mutants.tsv` plus the mutator's note on dropped mutants (`unviable.txt`); a cargo-mutants
directory holds `mutants.out/outcomes.json`. Writes OUT/NAME-results.tsv (one row per mutant: id,
verdict, exit code or cargo-mutants summary, seconds, what caught it, line, operator, mutation)
and prints one Markdown table row per target: mutants, killed, survived, timed out, unviable,
argued equivalent, and the share of the viable non-equivalent mutants killed or timed out.

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
    # A run of some mutants (--only, then --only --validate-protocol) replaces their verdicts in
    # results.tsv, and adds the mutants the first run did not reach (a run split in two).
    for name in ("results-only.tsv", "results-only-validated.tsv"):
        only = os.path.join(d, name)
        if not os.path.exists(only):
            continue
        with open(only, encoding="utf-8") as f:
            newer = {r["id"]: r for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)}
        seen = {r["id"] for r in rows}
        rows = [newer.get(r["id"], r) for r in rows]
        rows += [r for i, r in sorted(newer.items()) if i not in seen]
    unviable = 0
    note = os.path.join(d, "unviable.txt")
    if os.path.exists(note):
        with open(note, encoding="utf-8") as f:
            unviable = sum(1 for line in f if line.strip())
    return rows, unviable


def failed_tests(d, log_path):
    """The suite! tests a caught mutant failed (`failures:` list of the test log)."""
    if not log_path:
        return ""
    try:
        with open(os.path.join(d, "mutants.out", log_path), encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return ""
    names = set()
    for line in text.splitlines():
        # `test mirrorless_conformance_suite::chunk_1 ... FAILED` -> CHUNK-1
        if line.startswith("test mirrorless_conformance_suite::") and line.endswith("FAILED"):
            test = line.split("::")[1].split()[0]
            names.add(test.upper().replace("_", "-") if test[-1].isdigit() else test)
    return ",".join(sorted(names))


def cargo_rows(spec):
    """Rows of one or more cargo-mutants output directories, `DIR[,DIR…]`: a later directory (a
    rerun with --iterate on a newer tree) replaces the verdicts of the mutants it tested. Ids
    (r0001 …) number the mutants in the first directory's `mutants.json` (source order)."""
    dirs = spec.split(",")
    with open(os.path.join(dirs[0], "mutants.out", "mutants.json"), encoding="utf-8") as f:
        names = [m["name"] for m in json.load(f)]
    verdicts = {"CaughtMutant": "killed", "MissedMutant": "survived", "Timeout": "timeout",
                "Unviable": "unviable"}
    by_name = {}
    for d in dirs:
        with open(os.path.join(d, "mutants.out", "outcomes.json"), encoding="utf-8") as f:
            outcomes = json.load(f)
        for o in outcomes["outcomes"]:
            scenario = o["scenario"]
            if not isinstance(scenario, dict) or "Mutant" not in scenario:
                continue  # the baseline
            m = scenario["Mutant"]
            where, _, what = m["name"].partition(": ")
            by_name[m["name"]] = {
                "verdict": verdicts.get(o["summary"], o["summary"]),
                "code": o["summary"],
                "seconds": "%.1f" % sum(p.get("duration") or 0 for p in o.get("phase_results", [])),
                "failed": failed_tests(d, o.get("log_path")),
                "line": where,
                "operator": m.get("genre", ""),
                "description": what,
            }
    rows = []
    for n, name in enumerate(names, 1):
        if name in by_name:
            rows.append(dict(by_name[name], id="r%04d" % n))
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
          "| killed or timed out, % of non-equivalent |")
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
        # A timed-out mutant hangs the suite: detected, like a kill (cargo-mutants' convention
        # too), so only survivors need an explanation.
        alive = [r for r in rows if r["verdict"] == "survived"]
        equivalent = [r for r in alive
                      if survivors.get((name, r["id"]), {}).get("group") == "equivalent"]
        unexplained += ["%s %s line %s: %s" % (name, r["id"], r["line"], r["description"])
                        for r in alive if (name, r["id"]) not in survivors]
        detected = count.get("killed", 0) + count.get("timeout", 0)
        viable = len(rows) - count.get("unviable", 0)
        denominator = viable - len(equivalent)
        print("| %s | %d | %d | %d | %d | %d | %d | %.1f %% |" % (
            name, viable + unviable, count.get("killed", 0), count.get("survived", 0),
            count.get("timeout", 0), unviable, len(equivalent),
            100.0 * detected / denominator if denominator else 0.0))
        if count.get("error"):
            print("  (%s: %d harness errors, listed as `error`)" % (name, count["error"]))
    if unexplained:
        sys.stderr.write("%d survivors not in the survivors file:\n  %s\n"
                         % (len(unexplained), "\n  ".join(unexplained)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
