#!/usr/bin/env bash
# Test-time benchmark (docs/benchmarks/build.md, "The README's test command"): a fresh clone
# of a revision and the README's test command, `cargo test --workspace --locked`, with a clean
# target/ (so the test build is counted: it is a large part of the cost). Timed in two parts,
# the build (`--no-run`) and the run, each with wall, user and sys time; prints the load before
# and after, and the ten slowest test binaries (their own "finished in" wall time).
#
#   benches/test_time.sh [REV]        # default: HEAD
#   TEST_TIME_BUILD_ONLY=1 benches/test_time.sh [REV]   # the build part alone (paired builds)
#
# The tools CI installs (Neovim, Chromium, cmark-gfm: tests/*/setup.sh) are used when they are
# on PATH, and the JavaScript tools and mdBook when this checkout has them installed
# (tests/js-tools/node_modules, target/site-tools: they are copied into the clone, not
# rebuilt); each tool found is REQUIRED, as in CI, so a test that needs it cannot skip. The
# script says which were missing: a run without them skips their tests and is not comparable.
# On a shared machine wall time depends on the load: compare user+sys CPU time.
set -euo pipefail
rev="${1:-HEAD}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
# TEST_TIME_KEEP=DIR keeps the logs (build.err, test.out, test.err) in DIR.
trap '[ -z "${TEST_TIME_KEEP:-}" ] || cp "$work"/src/*.out "$work"/src/*.err "$TEST_TIME_KEEP"/ 2>/dev/null; rm -rf "$work"' EXIT
git clone --quiet --no-checkout "$repo" "$work/src"
git -C "$work/src" checkout --quiet "$rev"
cd "$work/src"
echo "revision: $(git log --oneline -1)"

missing=()
command -v nvim >/dev/null && export MIRRORLESS_REQUIRE_NVIM=1 || missing+=(nvim)
{ command -v chromium >/dev/null || command -v chromium-browser >/dev/null; } &&
  export MIRRORLESS_REQUIRE_CHROMIUM=1 || missing+=(chromium)
command -v cmark-gfm >/dev/null && export MIRRORLESS_REQUIRE_CMARK_GFM=1 || missing+=(cmark-gfm)
if [ -x "$repo/tests/js-tools/node_modules/.bin/tsc" ]; then
  cp -a "$repo/tests/js-tools/node_modules" tests/js-tools/
  export MIRRORLESS_REQUIRE_TSC=1 MIRRORLESS_REQUIRE_RDJSON_VALIDATOR=1
else
  missing+=("tsc (tests/js-tools/setup.sh)")
fi
if [ -x "$repo/target/site-tools/bin/mdbook" ]; then
  mkdir -p target && cp -a "$repo/target/site-tools" target/
  export MIRRORLESS_REQUIRE_MDBOOK=1
else
  missing+=("mdbook (tests/site/setup.sh)")
fi
[ ${#missing[@]} -eq 0 ] || echo "tools missing (their tests skip): ${missing[*]}"

echo "machine: $(nproc) cores, $(uptime | sed 's/.*load average/load average/')"
/usr/bin/time -f 'build (cargo test --workspace --locked --no-run): wall %e s, user %U s, sys %S s, max RSS %M KB' \
  cargo test --workspace --locked --no-run --quiet > build.out 2> build.err || { tail -40 build.err; exit 1; }
grep '^build' build.err
echo "test executables built: $(cargo test --workspace --locked --no-run --message-format=json 2>/dev/null |
  grep '"executable":"' | grep -c '"profile":{[^}]*"test":true' || true)"
[ -z "${TEST_TIME_BUILD_ONLY:-}" ] || exit 0
echo "machine: $(uptime | sed 's/.*load average/load average/')"
status=0
/usr/bin/time -f 'run (cargo test --workspace --locked, built): wall %e s, user %U s, sys %S s, max RSS %M KB' \
  cargo test --workspace --locked --no-fail-fast > test.out 2> test.err || status=$?
grep '^run' test.err
grep -c '^test result: ok' test.out | sed 's/^/test binaries passed: /'
grep '^test result: FAILED' test.out | sed 's/^/FAILED: /' || true
grep -E '^test .* \.\.\. FAILED$' test.out | sed 's/^/FAILED test: /' || true
echo "machine load after: $(uptime | sed 's/.*load average/load average/')"
echo "slowest test binaries (own wall time):"
paste <(grep -E '^\s+(Running|Doc-tests)' test.err | sed -E 's/^ +//; s/ \(.*//') \
  <(grep '^test result' test.out | sed 's/.*finished in //') | sort -t$'\t' -k2 -rn | head -10
exit "$status"
