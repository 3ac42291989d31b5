#!/usr/bin/env bash
# Issue #32 item 4 ("byte-identical reports"): `mirrorless check` reports of two binaries
# compared byte for byte (stdout, stderr, exit status) on the same inputs.
#
# usage: benches/check_identity.sh BASE NEW [LOG...]
#
# Inputs: every log under fixtures/, the fixtures/check tree as one input, and for each LOG
# given (e.g. the bench's logs, kept with MIRRORLESS_BENCH_KEEP) its first 150,000 lines and
# four 30,000-line cuts damaged at random by benches/check_damage.py. Each input is checked
# with --format human, json and markdown, each with --profile 2026-07, --profile 2026-08 and
# detection; NEW also with -j 1 and -j 2 (BASE as it runs by default). Prints the number of
# runs and every difference; exits 1 on a difference.
set -euo pipefail
base=$1 new=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inputs=()
while IFS= read -r f; do inputs+=("$f"); done < <(find fixtures -name '*.jsonl' | sort)
inputs+=(fixtures/check)
seed=1
for log in "$@"; do
  name=$(basename "$log" .jsonl)
  head -n 150000 "$log" > "$work/$name-head.jsonl"
  inputs+=("$work/$name-head.jsonl")
  for k in 1 2 3 4; do
    python3 benches/check_damage.py "$log" "$work/$name-damaged-$k.jsonl" "$seed" 30000
    inputs+=("$work/$name-damaged-$k.jsonl")
    seed=$((seed + 1))
  done
done
runs=0 diffs=0
run() {
  local status=0
  "$@" > "$work/out" 2> "$work/err" || status=$?
  cat "$work/out" "$work/err"
  echo "exit $status"
}
for input in "${inputs[@]}"; do
  for format in human json markdown; do
    for profile in "" "--profile 2026-07" "--profile 2026-08"; do
      # shellcheck disable=SC2086
      want=$(run "$base" check --format "$format" $profile "$input" | sha256sum)
      for jobs in "" "-j 1" "-j 2"; do
        # shellcheck disable=SC2086
        got=$(run "$new" check --format "$format" $profile $jobs "$input" | sha256sum)
        runs=$((runs + 1))
        if [ "$want" != "$got" ]; then
          diffs=$((diffs + 1))
          echo "DIFFERENT: check --format $format $profile $jobs $input"
        fi
      done
    done
  done
done
echo "$runs runs, $diffs different"
[ "$diffs" -eq 0 ]
