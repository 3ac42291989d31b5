#!/usr/bin/env bash
# Paired benchmark of the TypeScript/JavaScript depth estimate (issue 32 item 1, fifth round):
# the `depth_estimate` bench target built at BASE_REV and at the work tree, on the same corpus,
# alternating. Results are recorded in docs/benchmarks/lint.md.
#
# Usage: benches/depth_paired.sh BASE_REV CORPUS [PAIRS] [ROUNDS]
#
# - Builds the bench at the work tree, and at BASE_REV in a temporary git worktree (the bench
#   file and its Cargo.toml entry are copied there if BASE_REV predates them), both into this
#   checkout's target/ so that dependencies are built once.
# - Checks that the two builds estimate every file of CORPUS identically in both JSX readings
#   (`--print`): the faster scanner must change no result.
# - Runs PAIRS (default 6) pairs, base then new, then new then base, alternating; each run is
#   ROUNDS (default 5) in-process rounds over the corpus and prints ns/byte (wall and this
#   thread's CPU time, min and median). Prints the load average before and after.
#
# Run under `nice -n -5` on a shared machine.
set -euo pipefail

base_rev=${1:?usage: benches/depth_paired.sh BASE_REV CORPUS [PAIRS] [ROUNDS]}
corpus=${2:?usage: benches/depth_paired.sh BASE_REV CORPUS [PAIRS] [ROUNDS]}
pairs=${3:-6}
rounds=${4:-5}
root=$(git rev-parse --show-toplevel)
target=$root/target
out=$(mktemp -d)
base_tree=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$base_tree" >/dev/null 2>&1 || true; rm -rf "$out"' EXIT

build() { # DIR -> path of the bench executable
    (cd "$1" && CARGO_TARGET_DIR=$target nice -n 19 cargo bench -p mirrorless-lint --bench depth_estimate --no-run 2>&1) |
        sed -n 's/.*Executable .*(\(.*\))$/\1/p' | tail -1
}

new_exe=$(build "$root")
[ -n "$new_exe" ] || { echo "the bench did not build at the work tree" >&2; exit 1; }
# Relative to the target directory: the two builds share it.
case $new_exe in /*) ;; *) new_exe=$root/$new_exe ;; esac
cp "$new_exe" "$out/new"

rmdir "$base_tree"
git -C "$root" worktree add --detach "$base_tree" "$base_rev" >/dev/null
if [ ! -e "$base_tree/lint/benches/depth_estimate.rs" ]; then
    mkdir -p "$base_tree/lint/benches"
    cp "$root/lint/benches/depth_estimate.rs" "$base_tree/lint/benches/"
    printf '\n[[bench]]\nname = "depth_estimate"\nharness = false\n' >>"$base_tree/lint/Cargo.toml"
fi
base_exe=$(build "$base_tree")
[ -n "$base_exe" ] || { echo "the bench did not build at $base_rev" >&2; exit 1; }
case $base_exe in /*) ;; *) base_exe=$base_tree/$base_exe ;; esac
cp "$base_exe" "$out/base"

"$out/base" --print "$corpus" >"$out/base.txt"
"$out/new" --print "$corpus" >"$out/new.txt"
if ! cmp -s "$out/base.txt" "$out/new.txt"; then
    echo "the estimates differ:" >&2
    diff "$out/base.txt" "$out/new.txt" | head -20 >&2
    exit 1
fi
echo "identical estimates: $(wc -l <"$out/new.txt") (file, JSX reading) pairs"

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for pair in $(seq 1 "$pairs"); do
    if [ $((pair % 2)) -eq 1 ]; then order="base new"; else order="new base"; fi
    for side in $order; do
        printf '%-4s ' "$side"
        "$out/$side" --rounds "$rounds" "$corpus"
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
