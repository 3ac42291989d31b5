#!/usr/bin/env bash
# Benchmark: `mirrorless lint` on a large TypeScript/JavaScript tree against `rg -F` for the
# six removed names. Results are recorded in docs/benchmarks/lint-ts.md.
#
# Usage: docs/benchmarks/lint-ts.sh [CORPUS_DIR]
#   CORPUS_DIR defaults to target/bench/lint-ts in the checkout; it is created with `npm install` of a real
#   application's dependency set the first time (a few hundred MB, needs the npm registry).
# Environment: RUNS (default 5) timed runs per command after one warm-up run.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${1:-$root/target/bench/lint-ts}
runs=${RUNS:-5}

if ! command -v rg >/dev/null; then
    echo "installing ripgrep" >&2
    apt-get update -qq && apt-get install -y -qq ripgrep
fi

if [ ! -d "$corpus/node_modules" ]; then
    echo "installing the corpus into $corpus" >&2
    npm install --prefix "$corpus" --no-audit --no-fund --ignore-scripts \
        typescript @types/node react react-dom next eslint @typescript-eslint/parser vite >&2
fi

# A few planted files, so both tools have something to find (the npm set names none).
planted="$corpus/mirrorless-planted"
mkdir -p "$planted"
cat > "$planted/plugin.ts" <<'EOF'
export function apply(ctx: Context) {
  ctx.on('agent/stream-chunk', (_a, _t, _s, chunk) => print(chunk))
  ctx.emit('agent/turn-end', agent, turn, reason) // agent/steering
}
EOF
cat > "$planted/README.md" <<'EOF'
Listens to `agent/turn-start` and `agent/step-end`.
EOF

(cd "$root" && cargo build --release --locked --bin mirrorless >&2)
bin="$root/target/release/mirrorless"

# The six names come from the shared catalogue (`mirrorless explain MIRROR-n`), not a copy.
names=$(mktemp)
for n in 1 2 3 4 5 6; do
    "$bin" explain "MIRROR-$n" | grep -o '`agent/[a-z-]*`' | sed -n 1p | tr -d '`'
done > "$names"
echo "names: $(tr '\n' ' ' < "$names")" >&2

types=(-g '*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,md,markdown,mdx,rs}')

time_best() { # prints best wall, median wall and median CPU (user+sys) of RUNS runs, in seconds
    "$@" >/dev/null 2>&1 || true
    local walls=() cpus=() out
    out=$(mktemp)
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%e %U %S' -o "$out" "$@" >/dev/null 2>&1 || true
        read -r wall user sys < <(tail -1 "$out")
        walls+=("$wall")
        cpus+=("$(echo "$user + $sys" | bc -l)")
    done
    rm -f "$out"
    local w c
    w=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.3f %.3f", a[1], a[int((NR+1)/2)]}')
    c=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}')
    echo "$w $c"
}

files=$(find "$corpus" -type f | wc -l)
mb=$(du -sm "$corpus" | cut -f1)
worst_mb=$(rg --hidden --no-ignore -F -l "use strict" "${types[@]}" "$corpus" | tr '\n' '\0' | du -cb --apparent-size --files0-from=- | tail -1 | awk '{printf "%.0f", $1/1048576}')
lint_files=$(find "$corpus" -type f \( -name '*.ts' -o -name '*.tsx' -o -name '*.mts' -o -name '*.cts' \
    -o -name '*.js' -o -name '*.jsx' -o -name '*.mjs' -o -name '*.cjs' -o -name '*.md' -o -name '*.markdown' -o -name '*.mdx' \
    -o -name '*.rs' \) | wc -l)
lint_mb=$(find "$corpus" -type f \( -name '*.ts' -o -name '*.tsx' -o -name '*.mts' -o -name '*.cts' \
    -o -name '*.js' -o -name '*.jsx' -o -name '*.mjs' -o -name '*.cjs' -o -name '*.md' -o -name '*.markdown' -o -name '*.mdx' \
    -o -name '*.rs' \) -printf '%s\n' | awk '{s+=$1} END {printf "%.0f", s/1048576}')

echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
read -r rg_best rg_med rg_cpu < <(time_best rg --hidden --no-ignore -F -c -f "$names" "$corpus")
read -r rgt_best rgt_med rgt_cpu < <(time_best rg --hidden --no-ignore -F -c -f "$names" "${types[@]}" "$corpus")
read -r ml_best ml_med ml_cpu < <(time_best "$bin" lint --no-config --format json "$corpus")
read -r ml1_best ml1_med ml1_cpu < <(time_best "$bin" lint --no-config --format json -j 1 "$corpus")

# Worst case: an extra "removed event" that almost every CommonJS file contains, so most files
# pass the prefilter and are parsed by oxc and classified (the output is large and discarded).
worst=$(mktemp -d)
printf '[[lint.events]]\nname = "use strict"\nreplacement = "benchmark only"\n' > "$worst/mirrorless.toml"
read -r rgw_best rgw_med rgw_cpu < <(time_best rg --hidden --no-ignore -F -c "use strict" "${types[@]}" "$corpus")
read -r mlw_best mlw_med mlw_cpu < <(time_best "$bin" lint --config "$worst/mirrorless.toml" --format json "$corpus")
worst_summary=$("$bin" lint --config "$worst/mirrorless.toml" --color never "$corpus" 2>&1 | tail -1 || true)
rm -rf "$worst"

hits=$(rg --hidden --no-ignore -F -c -f "$names" "$corpus" | wc -l)
summary=$("$bin" lint --no-config --color never "$corpus" 2>&1 | tail -1 || true)

cat <<EOF
machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(rustc --version), $(rg --version | head -1)
corpus: $corpus: $files files, $mb MB on disk; $lint_files files / $lint_mb MB of the types mirrorless reads
rg files with a hit: $hits
mirrorless: $summary

command                                   best wall  median wall  median CPU (s)
rg -F -f names (all files)                $rg_best      $rg_med        $rg_cpu
rg -F -f names (the same file types)      $rgt_best      $rgt_med        $rgt_cpu
mirrorless lint (default threads)         $ml_best      $ml_med        $ml_cpu
mirrorless lint -j 1                      $ml1_best      $ml1_med        $ml1_cpu
ratio mirrorless / rg, all files:    wall $(echo "$ml_med / $rg_med" | bc -l | cut -c1-4), CPU $(echo "$ml_cpu / $rg_cpu" | bc -l | cut -c1-4)
ratio mirrorless / rg, same types:   wall $(echo "$ml_med / $rgt_med" | bc -l | cut -c1-4), CPU $(echo "$ml_cpu / $rgt_cpu" | bc -l | cut -c1-4)

worst case (extra event "use strict", in files totalling $worst_mb MB: $worst_summary)
rg -F "use strict" (the same file types)  $rgw_best      $rgw_med        $rgw_cpu
mirrorless lint, every such file parsed   $mlw_best      $mlw_med        $mlw_cpu
ratio:                               wall $(echo "$mlw_med / $rgw_med" | bc -l | cut -c1-4), CPU $(echo "$mlw_cpu / $rgw_cpu" | bc -l | cut -c1-4)
load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)
EOF
rm -f "$names"
