#!/usr/bin/env bash
# Test-time benchmark (docs/benchmarks/build.md, "The README's test command"): a fresh clone
# of a revision and the README's test command, `cargo test --workspace --locked`, with a clean
# target/ (so the test build is counted: it is most of the cost). Prints wall, user and sys
# time and the load.
#
#   benches/test_time.sh [REV]        # default: HEAD
#
# Tests that need a tool this machine lacks (Neovim, Chromium, cmark-gfm, the JavaScript tools,
# mdBook) skip, as they do for a contributor without them; `.ci/run` installs them and runs
# them too. On a shared machine wall time depends on the load: compare user+sys CPU time.
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
/usr/bin/time -f 'cargo test --workspace --locked: wall %e s, user %U s, sys %S s, max RSS %M KB' \
  cargo test --workspace --locked --quiet > test.out 2> test.err || { tail -40 test.err; exit 1; }
grep '^cargo test' test.err
grep -c '^test result: ok' test.out | sed 's/^/test binaries passed: /'
echo "machine load after: $(uptime | sed 's/.*load average/load average/')"
