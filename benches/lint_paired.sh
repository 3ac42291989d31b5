#!/usr/bin/env bash
# Paired benchmark: `mirrorless lint` (two builds, e.g. the base commit and a change) against
# ripgrep searching the same tree for the removed names, run alternately in one loop so that
# the load of a shared machine falls on all three alike. Not part of `cargo test`; results
# are recorded in docs/benchmarks/lint.md.
#
# Usage: benches/lint_paired.sh BASE_BIN NEW_BIN TREE [TREE...]
# Environment: RUNS (default 7) rounds; each round runs rg, BASE and NEW once, in a rotating
# order. Prints, per tree and command, the median wall time, median CPU time (user + sys) and
# the largest peak resident set, then the ratios. Before timing, it checks that both builds
# print identical JSON reports for the tree (but for the count of files past the prefilter).
set -euo pipefail
base=$1 new=$2
shift 2
runs=${RUNS:-7}
if ! command -v rg >/dev/null; then
    (apt-get update -qq && apt-get install -y -qq ripgrep) >/dev/null
fi
# The names come from the catalogue (`mirrorless explain MIRROR-n`), not a copy.
names=$(mktemp)
out=$(mktemp)
trap 'rm -f "$names" "$out" "$out".*' EXIT
for n in 1 2 3 4 5 6; do
    "$new" explain "MIRROR-$n" | grep -o '`agent/[a-z-]*`' | sed -n 1p | tr -d '`'
done >"$names"
types=(-g '*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,md,markdown,mdx,rs}')

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

one() { # label command...: appends "label wall cpu maxrss_kib" to $out.runs
    local label=$1
    shift
    local s e
    s=$(date +%s.%N)
    /usr/bin/time -f '%U %S %M' -o "$out.time" "$@" >/dev/null 2>&1 || true
    e=$(date +%s.%N)
    read -r user sys rss < <(tail -1 "$out.time")
    echo "$label $(echo "$e - $s" | bc -l) $(echo "$user + $sys" | bc -l) $rss" >>"$out.runs"
}

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {m=$2} END {print m}' /proc/cpuinfo), $(rg --version | head -1)"
for tree in "$@"; do
    files=$(find "$tree" -type f \( -name '*.rs' -o -name '*.ts' -o -name '*.tsx' -o -name '*.mts' -o -name '*.cts' \
        -o -name '*.js' -o -name '*.jsx' -o -name '*.mjs' -o -name '*.cjs' -o -name '*.md' -o -name '*.markdown' -o -name '*.mdx' \) | wc -l)
    mb=$(du -sm "$tree" | cut -f1)
    "$base" lint --no-config --format json "$tree" >"$out.base" 2>/dev/null || true
    "$new" lint --no-config --format json "$tree" >"$out.new" 2>/dev/null || true
    # The findings and file errors must be byte-identical; the summary's `candidates` (files
    # past the prefilter) is what a prefilter change is allowed to change.
    if cmp -s <(jq -S 'del(.summary.candidates)' "$out.base") <(jq -S 'del(.summary.candidates)' "$out.new"); then
        same="identical (candidates: base $(jq .summary.candidates "$out.base"), new $(jq .summary.candidates "$out.new"))"
    else
        same=DIFFERENT
    fi
    findings=$(grep -c '"rule":' "$out.new" || true)
    : >"$out.runs"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    for r in $(seq "$runs"); do
        case $((r % 3)) in
        0) order="rg base new" ;;
        1) order="base new rg" ;;
        *) order="new rg base" ;;
        esac
        for who in $order; do
            case $who in
            rg) one rg rg --hidden --no-ignore -F -c -f "$names" "${types[@]}" "$tree" ;;
            base) one base "$base" lint --no-config --format json "$tree" ;;
            new) one new "$new" lint --no-config --format json "$tree" ;;
            esac
        done
    done
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "tree $tree: $files files of the linted types, $mb MB on disk; $findings findings; JSON base vs new: $same"
    echo "| command | median wall s | median CPU s | peak RSS MiB |"
    echo "|---|---|---|---|"
    for who in rg base new; do
        w=$(awk -v w="$who" '$1==w {print $2}' "$out.runs" | median)
        c=$(awk -v w="$who" '$1==w {print $3}' "$out.runs" | median)
        m=$(awk -v w="$who" '$1==w && $4>m {m=$4} END {printf "%.0f", m/1024}' "$out.runs")
        echo "| $who | $w | $c | $m |"
        eval "wall_$who=$w cpu_$who=$c"
    done
    ratio() { # a / b, or "n/a" when b is 0 (CPU times are counted in 10 ms ticks)
        if [ "$(echo "$2 == 0" | bc -l)" = 1 ]; then echo n/a; else echo "$1 / $2" | bc -l | cut -c1-4; fi
    }
    echo "ratios: base/rg wall $(ratio "$wall_base" "$wall_rg") CPU $(ratio "$cpu_base" "$cpu_rg"); new/rg wall $(ratio "$wall_new" "$wall_rg") CPU $(ratio "$cpu_new" "$cpu_rg")"
    echo
done
