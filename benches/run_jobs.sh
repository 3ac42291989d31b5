#!/usr/bin/env bash
# Paired benchmark: `mirrorless run -j 1` against `-j 2` (issue #32 item 2: `-j 2` at most
# 0.6x the wall time of `-j 1` on two cores), embedded and over the stdio protocol (the Rust
# reference served by `mirrorless reference-impl --stdio`), run alternately in one loop so that
# the load of a shared machine falls on both alike. Optionally a second build (BASE_BIN, e.g.
# the commit before the worker pool) is timed in the same rounds. Not part of `cargo test`;
# results are recorded in docs/benchmarks/run.md.
#
# Usage: benches/run_jobs.sh BIN [BASE_BIN]
# Environment: RUNS (default 5) rounds per row; CASES (default "2000 4000") generated cases per
# profile; SEED (default 3). Each round runs every build with -j 1 and -j 2 in a rotating
# order. Prints, per row, the median wall time, median CPU time (user + sys, children
# included: the stdio implementation processes) and the ratio -j 2 / -j 1 of each, with the
# load average before and after. Before timing, it checks that -j 1 and -j 2 print the same
# JSON report (but for the clock) for every row.
set -euo pipefail
new=$1
base=${2:-}
runs=${RUNS:-5}
cases_list=${CASES:-2000 4000}
seed=${SEED:-3}
out=$(mktemp)
trap 'rm -f "$out" "$out".*' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

one() { # label command...: appends "label wall cpu" to $out.runs
    local label=$1
    shift
    local s e user sys
    s=$(date +%s.%N)
    /usr/bin/time -f '%U %S' -o "$out.time" "$@" >/dev/null 2>&1 || true
    e=$(date +%s.%N)
    read -r user sys < <(tail -1 "$out.time")
    echo "$label $(echo "$e - $s" | bc -l) $(echo "$user + $sys" | bc -l)" >>"$out.runs"
}

normalized() { # the JSON report of a run, without the clock
    "$@" 2>/dev/null | jq -S 'walk(if type == "object" then del(.seconds, .cases_per_second) else . end)'
}

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {m=$2} END {print m}' /proc/cpuinfo)"
for cases in $cases_list; do
    for mode in embedded stdio; do
        args=(run --no-corpus --seed "$seed" --cases "$cases")
        impl=()
        [ "$mode" = stdio ] && impl=(-- "$new" reference-impl --stdio)
        if cmp -s <(normalized "$new" "${args[@]}" --format json -j 1 "${impl[@]}") \
            <(normalized "$new" "${args[@]}" --format json -j 2 "${impl[@]}"); then
            same="-j 1 and -j 2 reports identical"
        else
            same="-j 1 and -j 2 reports DIFFER"
        fi
        builds=(new)
        [ -n "$base" ] && builds+=(base)
        : >"$out.runs"
        load_before=$(cut -d' ' -f1-3 /proc/loadavg)
        for r in $(seq "$runs"); do
            jobs_order="1 2"
            [ $((r % 2)) -eq 0 ] && jobs_order="2 1"
            for b in "${builds[@]}"; do
                bin=$new
                [ "$b" = base ] && bin=$base
                for j in $jobs_order; do
                    one "$b-j$j" "$bin" "${args[@]}" -j "$j" "${impl[@]}"
                done
            done
        done
        load_after=$(cut -d' ' -f1-3 /proc/loadavg)
        echo
        echo "## $mode, $cases cases per profile (seed $seed, $runs rounds; $same)"
        echo "load average before: $load_before; after: $load_after"
        printf '%-10s %10s %10s\n' run "wall s" "CPU s"
        for b in "${builds[@]}"; do
            for j in 1 2; do
                w=$(awk -v l="$b-j$j" '$1 == l {print $2}' "$out.runs" | median)
                c=$(awk -v l="$b-j$j" '$1 == l {print $3}' "$out.runs" | median)
                printf '%-10s %10.2f %10.2f\n' "$b -j $j" "$w" "$c"
                eval "w_${b}_$j=$w c_${b}_$j=$c"
            done
            eval "printf '%-10s %10.2f %10.2f\n' '$b 2/1' \$(echo \"\$w_${b}_2 / \$w_${b}_1\" | bc -l) \$(echo \"\$c_${b}_2 / \$c_${b}_1\" | bc -l)"
        done
    done
done
