#!/usr/bin/env bash
# Installs the pinned TypeScript compiler (npm `typescript`, exact version in package.json,
# every package pinned by package-lock.json) into tests/tsc/node_modules, for the test that
# type-checks the fix fixtures before and after the fix (lint/tests/fix_typecheck.rs).
#
#   tests/tsc/setup.sh
#
# Exit status: 0 installed (already, or now); 77 skipped: no Node/npm, or the npm registry cannot
# be reached (the reason is printed); anything else failed. A caller that treats 77 as "skipped"
# must say so in its output (see .ci/run); once installed, MIRRORLESS_REQUIRE_TSC=1 makes the test
# fail instead of skipping when tsc is missing.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

skip() {
  echo "tsc setup: SKIPPED: $*" >&2
  exit 77
}

command -v node >/dev/null 2>&1 || skip "node is not installed (Node >= 16.20 is required)"
command -v npm >/dev/null 2>&1 || skip "npm is not installed"

wanted=$(node -p 'require(process.argv[1]).dependencies.typescript' "$here/package.json")
if [ -x "$here/node_modules/.bin/tsc" ] && [ "$("$here/node_modules/.bin/tsc" --version 2>/dev/null)" = "Version $wanted" ]; then
  echo "tsc setup: TypeScript $wanted already installed"
  exit 0
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! (cd "$here" && npm ci --no-audit --no-fund --prefer-offline --fetch-timeout=60000 --fetch-retries=2) >"$log" 2>&1; then
  cat "$log" >&2
  if grep -Eq 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network request|fetch failed|503 Service Unavailable|502 Bad Gateway' "$log"; then
    skip "the npm registry ($(npm config get registry)) cannot be reached"
  fi
  echo "tsc setup: npm ci failed" >&2
  exit 1
fi
echo "tsc setup: installed $("$here/node_modules/.bin/tsc" --version)"
