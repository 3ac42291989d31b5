#!/usr/bin/env bash
# Benchmark: `mirrorless lint` (release) against ripgrep searching the same tree for the six
# removed names. Not part of `cargo test`. Results are recorded in docs/benchmarks/lint.md.
#
# Usage: benches/lint_vs_rg.sh [CORPUS_DIR] [RUNS]
#   CORPUS_DIR  default: ~/.cargo/registry/src (fill it by building the workspace)
#   RUNS        default: 5 (the best wall time of RUNS warm runs is reported)
#
# Three scenarios:
#   clean        the corpus as is (no file mentions `agent/`: walk + read + prefilter). This is
#                the target: within 1.5x of rg.
#   planted-1    the corpus plus one copy of fixtures/lint/rust (every shape the linter
#                resolves: parsing, both passes, cross-file resolution, rendering)
#   planted-200  the corpus plus 200 copies: 5,400 files to parse, each identifier declared
#                200 times (a stress case for resolution, not a realistic tree)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-$HOME/.cargo/registry/src}
runs=${2:-5}

if ! command -v rg >/dev/null; then
    (apt-get update -qq && apt-get install -y -qq ripgrep) >/dev/null
fi
cargo build --release -q -p mirrorless
bin=$PWD/target/release/mirrorless
names=(agent/stream-chunk agent/steering agent/turn-start agent/turn-end agent/step-start agent/step-end)
rg_args=(-c -F)
for n in "${names[@]}"; do rg_args+=(-e "$n"); done

best() { # best wall time in seconds of "$@" over $runs runs (stdout discarded)
    local best=999999
    for _ in $(seq "$runs"); do
        local s e
        s=$(date +%s.%N)
        "$@" >/dev/null 2>&1 || true
        e=$(date +%s.%N)
        best=$(echo "$s $e $best" | awk '{d=$2-$1; print (d<$3)?d:$3}')
    done
    echo "$best"
}

describe() {
    local dir=$1
    local files bytes lines
    files=$(find "$dir" -name '*.rs' -type f | wc -l)
    bytes=$(find "$dir" -name '*.rs' -type f -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
    lines=$(find "$dir" -name '*.rs' -type f -print0 | xargs -0 cat | wc -l)
    echo "$files $bytes $lines"
}

run_scenario() {
    local label=$1 dir=$2
    read -r files bytes lines < <(describe "$dir")
    local t_rg t_rgrs t_lint t_lint1 findings
    t_rg=$(best rg "${rg_args[@]}" "$dir")
    t_rgrs=$(best rg -t rust "${rg_args[@]}" "$dir")
    t_lint=$(best "$bin" lint --no-config --format json "$dir")
    t_lint1=$(best "$bin" lint --no-config --format json -j 1 "$dir")
    findings=$("$bin" lint --no-config --format json "$dir" 2>/dev/null | grep -c '"rule":' || true)
    awk -v l="$label" -v f="$files" -v b="$bytes" -v n="$lines" -v rg="$t_rg" -v rgrs="$t_rgrs" \
        -v li="$t_lint" -v l1="$t_lint1" -v fi="$findings" 'BEGIN {
        printf "| %s | %d | %.1f | %d | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %.1f M | %d |\n",
            l, f, b/1e6, n, rg, rgrs, li, l1, li/rg, li/rgrs, n/li/1e6, fi }'
}

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {m=$2} END {print m}' /proc/cpuinfo 2>/dev/null), $(rg --version | head -1), $("$bin" --version)"
echo
echo "| scenario | .rs files | MB | lines | rg (all files) s | rg -t rust s | lint s | lint -j1 s | ratio vs rg | ratio vs rg -t rust | lint lines/s | findings |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
run_scenario clean "$corpus"

planted=$(mktemp -d)
trap 'rm -rf "$planted"' EXIT
cp -r "$corpus" "$planted/corpus"
cp -r fixtures/lint/rust "$planted/corpus/planted-1"
run_scenario planted-1 "$planted/corpus"
for i in $(seq 2 200); do cp -r fixtures/lint/rust "$planted/corpus/planted-$i"; done
run_scenario planted-200 "$planted/corpus"
