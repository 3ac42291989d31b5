#!/usr/bin/env bash
# Build-time benchmark (docs/benchmarks/build.md): a fresh clone of a revision, a clean
# `cargo build --release --locked --timings`, then the README's first command
# (`cargo run --release -- run`) on the built binary. Prints wall, user and sys time, peak
# memory, the binary's size and the ten slowest crates.
#
#   benches/build_time.sh [REV]        # default: HEAD
#
# The clone's target/ is fresh, so nothing is reused from this checkout's builds (the crates
# themselves come from cargo's download cache). On a shared machine wall time depends on the
# load: compare user+sys CPU time, and run the revisions side by side.
set -euo pipefail
rev="${1:-HEAD}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone --quiet --no-checkout "$repo" "$work/src"
git -C "$work/src" checkout --quiet "$rev"
cd "$work/src"
echo "revision: $(git log --oneline -1)"
echo "machine: $(nproc) cores, $(uptime | sed 's/.*load average/load average/')"

/usr/bin/time -f 'build: wall %e s, user %U s, sys %S s, max RSS %M KB' \
  cargo build --release --locked --timings --quiet 2> build.err || { cat build.err; exit 1; }
grep '^build:' build.err
/usr/bin/time -f "README's first command (after the build): wall %e s, user %U s, sys %S s" \
  cargo run --release --locked --quiet -- run > run.out 2> run.err
grep "^README" run.err
tail -1 run.out
echo "binary: $(stat -c %s target/release/mirrorless) bytes"
echo "machine load after: $(uptime | sed 's/.*load average/load average/')"
python3 - <<'PY'
import json, re
html = open("target/cargo-timings/cargo-timing.html").read()
units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", html, re.S).group(1))
total = sum(u["duration"] for u in units)
print(f"units: {len(units)}, summed compile time {total:.0f} s; slowest:")
for u in sorted(units, key=lambda u: -u["duration"])[:10]:
    print(f"  {u['duration']:6.1f} s  {u['name']} {u['version']}")
PY
