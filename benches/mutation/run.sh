#!/bin/sh
# Mutation benchmark of the suite (docs/benchmarks/mutation.md): how many broken
# implementations does `mirrorless run` catch?
#
#   benches/mutation/run.sh [TARGET...]      TARGET: py, js, rust (default: all three)
#
#   py    the Python reference adapter (fixtures/adapters/reference-py/adapter.py), mutated by
#         py_mutate.py, each mutant run by run_mutants.py under `mirrorless run`
#   js    the Node reference adapter (fixtures/adapters/reference-js/adapter.mjs), js_mutate.py
#   rust  the embedded reference (conformance/src/reference/), cargo-mutants with
#         .cargo/mutants.toml (install it first: cargo install --locked cargo-mutants@27.1.0)
#
# Every target first checks that the unmutated implementation passes (m0000 for the adapters,
# cargo-mutants' baseline for rust) and stops if it does not. An adapter's survivors are run
# once more with --validate-protocol (every message checked against the stdio schemas).
# Results: OUT/{py,js}/results.tsv and results-only-validated.tsv (the survivors' second run),
# OUT/rust/mutants.out/outcomes.json (+ caught.txt, missed.txt, …); then
#   python3 benches/mutation/summarize.py py=OUT/py js=OUT/js rust=OUT/rust
# writes docs/benchmarks/mutation/*-results.tsv and prints the table.
#
# Environment: OUT (default target/mutation), SEED (7), CASES (256 per profile), TIMEOUT
# (120 s per adapter mutant), JOBS (1; 2 only on an idle machine), SHARD (rust only, e.g. 1/2:
# run one shard of the cargo-mutants set), ONLY (adapters: comma-separated mutant ids to re-run,
# written to results-only.tsv). Everything runs under nice -n 19.
#
# Examples:
#   benches/mutation/run.sh                  all three targets, one after the other
#   JOBS=2 benches/mutation/run.sh py js     both adapters, two mutants at a time
#   SHARD=1/2 benches/mutation/run.sh rust   half of the cargo-mutants set
set -eu
cd "$(dirname "$0")/../.."
OUT=${OUT:-target/mutation}
SEED=${SEED:-7} CASES=${CASES:-256} TIMEOUT=${TIMEOUT:-120} JOBS=${JOBS:-1}
[ $# -gt 0 ] || set -- py js rust

adapter() { # NAME INTERPRETER MUTATOR SOURCE
  [ -n "${ONLY:-}" ] || { rm -rf "${OUT:?}/$1"; python3 "benches/mutation/$3" "$4" "$OUT/$1"; }
  run="python3 benches/mutation/run_mutants.py --bin target/release/mirrorless --seed $SEED"
  run="$run --cases $CASES --timeout $TIMEOUT --jobs $JOBS --interpreter $2"
  $run ${ONLY:+--only "$ONLY"} "$OUT/$1"
  # The survivors once more with every message checked against the stdio JSON Schemas: a
  # mutant that writes, say, an event without `seq` does not conform either.
  alive=$(awk -F '\t' 'NR > 1 && $2 != "killed" { printf "%s%s", s, $1; s = "," }' \
    "$OUT/$1/results${ONLY:+-only}.tsv")
  [ -z "$alive" ] || $run --only "$alive" --validate-protocol "$OUT/$1"
}

for target in "$@"; do
  case $target in
    py | js) nice -n 19 cargo build --release --locked ;;
  esac
  case $target in
    py) adapter py python3 py_mutate.py fixtures/adapters/reference-py/adapter.py ;;
    js) adapter js node js_mutate.py fixtures/adapters/reference-js/adapter.mjs ;;
    rust)
      command -v cargo-mutants >/dev/null ||
        { echo "cargo-mutants is not installed: cargo install --locked cargo-mutants@27.1.0" >&2; exit 2; }
      mkdir -p "$OUT/rust"
      # The suite! test reads its seed and case count from these; shrinking a counterexample
      # only costs time here (the verdict is the same).
      PROPTEST_RNG_SEED=$SEED PROPTEST_CASES=$CASES PROPTEST_MAX_SHRINK_ITERS=0 \
        nice -n 19 cargo mutants --package mirrorless-conformance --jobs "$JOBS" \
        --output "$OUT/rust" --no-shuffle ${SHARD:+--shard "$SHARD"} ;;
    *) echo "unknown target $target (py, js or rust)" >&2; exit 2 ;;
  esac
done
