#!/bin/sh
# Mutation benchmark of the two reference adapters (docs/benchmarks/mutation.md).
#   benches/mutation/run.sh [OUT_DIR]     (default: target/mutation)
# Builds the release binary, writes every mutant to OUT_DIR/{py,js}/ and runs the suite on each
# under nice -n 19. Override SEED, CASES, TIMEOUT, JOBS in the environment.
set -eu
cd "$(dirname "$0")/../.."
OUT=${1:-target/mutation}
SEED=${SEED:-7} CASES=${CASES:-256} TIMEOUT=${TIMEOUT:-120} JOBS=${JOBS:-2}
cargo build --release
rm -rf "$OUT/py" "$OUT/js"
python3 benches/mutation/py_mutate.py fixtures/adapters/reference-py/adapter.py "$OUT/py"
python3 benches/mutation/js_mutate.py fixtures/adapters/reference-js/adapter.mjs "$OUT/js"
for t in py:python3 js:node; do
  python3 benches/mutation/run_mutants.py --bin target/release/mirrorless --seed "$SEED" \
    --cases "$CASES" --timeout "$TIMEOUT" --jobs "$JOBS" --interpreter "${t#*:}" "$OUT/${t%%:*}"
done
