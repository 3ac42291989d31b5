#!/usr/bin/env bash
# Installs the pinned JavaScript tools the tests run into tests/js-tools/node_modules (exact
# versions in package.json, every package pinned by package-lock.json):
#   - typescript: `tsc --noEmit --strict --noUnusedLocals` on the fix fixtures before and after the fix
#     (lint/tests/fix_typecheck.rs);
#   - @umbrelladocs/rdformat-validator: checks `mirrorless lint --format rdjson/rdjsonl` against
#     the Reviewdog Diagnostic Format (tests/rdjson_format.rs). reviewdog itself is on none of
#     the registries CI reaches (npm, PyPI, Debian, crates.io); see docs/guides/code-review.md.
#
#   tests/js-tools/setup.sh
#
# Exit status: 0 installed (already, or now); 77 skipped: no Node/npm, or the npm registry cannot
# be reached (the reason is printed); anything else failed. A caller that treats 77 as "skipped"
# must say so in its output (see .ci/run); once installed, MIRRORLESS_REQUIRE_TSC=1 and
# MIRRORLESS_REQUIRE_RDJSON_VALIDATOR=1 make those tests fail instead of skipping when the tool
# is missing.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

skip() {
  echo "js tools setup: SKIPPED: $*" >&2
  exit 77
}

command -v node >/dev/null 2>&1 || skip "node is not installed (Node >= 18 is required)"
command -v npm >/dev/null 2>&1 || skip "npm is not installed"

# Already installed from this very lockfile: nothing to do.
stamp="$here/node_modules/.package-lock.sha256"
wanted=$(sha256sum "$here/package-lock.json" | cut -d ' ' -f 1)
if [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ] && [ -x "$here/node_modules/.bin/tsc" ]; then
  echo "js tools setup: already installed ($("$here/node_modules/.bin/tsc" --version))"
  exit 0
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! (cd "$here" && npm ci --no-audit --no-fund --prefer-offline --fetch-timeout=60000 --fetch-retries=2) >"$log" 2>&1; then
  cat "$log" >&2
  if grep -Eq 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network request|fetch failed|503 Service Unavailable|502 Bad Gateway' "$log"; then
    skip "the npm registry ($(npm config get registry)) cannot be reached"
  fi
  echo "js tools setup: npm ci failed" >&2
  exit 1
fi
echo "$wanted" >"$stamp"
echo "js tools setup: installed $("$here/node_modules/.bin/tsc" --version), rdformat-validator $(node -p 'require(process.argv[1]).version' "$here/node_modules/@umbrelladocs/rdformat-validator/package.json")"
