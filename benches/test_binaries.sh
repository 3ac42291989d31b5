#!/usr/bin/env bash
# Where the README's test command spends its run (docs/benchmarks/build.md, "Third pass: the
# run"): every test binary of `cargo test --workspace --locked`, one at a time as cargo runs
# them, each timed on its own (wall, user, sys of the process tree cargo waits for: the test
# binary, the CLI it runs, Python adapters, Node, Chromium, nested cargo), in this checkout.
#
#   benches/test_binaries.sh [FILTER]     # FILTER: an extended regex on "DIR:KIND:TARGET"
#
# Builds first (`--no-run`, not timed), then runs each executable directly (as cargo would:
# `cargo test -p` could rebuild with other features), in its package's directory with `CARGO`
# and `CARGO_MANIFEST_DIR` set as cargo sets them, then the doc tests (`:doc`). Like
# benches/test_time.sh, every tool CI installs that is present is REQUIRED (so its test cannot
# skip), and the missing ones are named. Prints one tab-separated line per binary:
# DIR:KIND:TARGET (DIR relative to the workspace, empty for the root package), wall s, user s,
# sys s, exit status; then the total. Run it under `nice -n -5` on a shared machine and compare
# CPU (user + sys).
set -euo pipefail
cd "$(dirname "$0")/.."
filter="${1:-.}"

missing=()
command -v nvim >/dev/null && export MIRRORLESS_REQUIRE_NVIM=1 || missing+=(nvim)
{ command -v chromium >/dev/null || command -v chromium-browser >/dev/null; } &&
  export MIRRORLESS_REQUIRE_CHROMIUM=1 || missing+=(chromium)
command -v cmark-gfm >/dev/null && export MIRRORLESS_REQUIRE_CMARK_GFM=1 || missing+=(cmark-gfm)
if [ -x tests/js-tools/node_modules/.bin/tsc ]; then
  export MIRRORLESS_REQUIRE_TSC=1 MIRRORLESS_REQUIRE_RDJSON_VALIDATOR=1
else
  missing+=("tsc (tests/js-tools/setup.sh)")
fi
if [ -x "${CARGO_TARGET_DIR:-target}/site-tools/bin/mdbook" ]; then
  export MIRRORLESS_REQUIRE_MDBOOK=1
else
  missing+=("mdbook (tests/site/setup.sh)")
fi
[ ${#missing[@]} -eq 0 ] || echo "tools missing (their tests skip): ${missing[*]}"

# Every test binary the command builds: kind (lib, bin, test), target name, manifest, executable.
targets="$(cargo test --workspace --locked --no-run --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["target"]["kind"][0], m["target"]["name"], m["manifest_path"], m["executable"])
')"
CARGO="$(command -v cargo)"
export CARGO
echo "machine: $(nproc) cores, $(uptime | sed 's/.*load average/load average/')"
total_wall=0 total_cpu=0
times="$(mktemp)" out="$(mktemp)"
trap 'rm -f "$times" "$out"' EXIT
# Times COMMAND… in directory DIR (as cargo runs a test binary: in its package's directory)
# and prints its line.
timed() {
  local label="$1" dir="$2" status=0 wall user sys
  shift 2
  (cd "$dir" && /usr/bin/time -o "$times" -f '%e %U %S' "$@") \
    >"$out" 2>&1 || status=$?
  read -r wall user sys < <(tail -1 "$times")
  printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$wall" "$user" "$sys" "$status"
  [ "$status" -eq 0 ] || grep -E '^test .* FAILED$|panicked' "$out" | head -5
  total_wall="$(echo "$total_wall + $wall" | bc)"
  total_cpu="$(echo "$total_cpu + $user + $sys" | bc)"
}
while read -r kind name manifest exe; do
  dir="$(dirname "$manifest")"
  label="${dir#"$PWD"}:$kind:$name"
  echo "$label" | grep -Eq "$filter" || continue
  CARGO_MANIFEST_DIR="$dir" CARGO_MANIFEST_PATH="$manifest" timed "$label" "$dir" "$exe"
done <<<"$targets"
# The doc tests (cargo compiles and runs them after the binaries).
if echo ":doc" | grep -Eq "$filter"; then
  timed ":doc" . cargo test --workspace --locked --doc --quiet
fi
echo "total: wall $total_wall s, CPU user + sys $total_cpu s"
echo "machine: $(uptime | sed 's/.*load average/load average/')"
