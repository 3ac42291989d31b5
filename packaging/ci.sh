#!/usr/bin/env bash
# CI entry point of the packaging: install the pinned tools, build the host's packages with
# `cargo xtask dist` (the one release build; `.ci/run` reuses its binary), then test them as
# users install them, without the network (xtask/tests/packages.rs): install.sh (and a corrupt
# download), npm tarballs through npx, the wheel in a fresh venv, the pre-commit hooks,
# actionlint on every workflow, the action metadata schema on action.yml.
#
#   packaging/ci.sh
#
# Exit status: 0 passed; 77 skipped (a tool could not be installed: no Node/Python or no
# registry; the reason is printed); anything else failed.
set -uo pipefail
cd "$(dirname "$0")/.."

packaging/ci-tools/setup.sh
status=$?
if [ "$status" -eq 77 ]; then
  echo "packaging: SKIPPED (see the setup message above); the packages were NOT tested" >&2
  exit 77
fi
[ "$status" -eq 0 ] || exit "$status"

cargo xtask dist || exit 1
ls -l target/dist target/dist/npm | sed 's/^/packaging: /'
# The tools and packages exist now, so every test must run: a skip is a failure.
MIRRORLESS_REQUIRE_PACKAGING=1 cargo test --locked -p xtask --test it packages:: -- --test-threads 2 || exit 1
