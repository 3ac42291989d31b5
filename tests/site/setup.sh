#!/usr/bin/env bash
# Installs the mdBook the documentation site is built with (`cargo xtask site`, and the test
# the_site_builds_and_no_link_dangles in xtask/src/site.rs) into target/site-tools/, where
# xtask looks for it: mdBook 0.5.4 from crates.io, with the search feature only (no server, no
# file watcher), built by cargo with the lock file it was published with.
#
#   tests/site/setup.sh
#
# Exit status: 0 mdBook 0.5.4 is installed (already, or now); 77 skipped: the crates.io registry
# cannot be reached (the reason is printed); anything else failed. A caller that treats 77 as
# "skipped" must say so in its output (see .ci/run).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
version=0.5.4
tools="${CARGO_TARGET_DIR:-target}/site-tools"
if "$tools/bin/mdbook" --version 2>/dev/null | grep -qF "v$version"; then
  echo "site setup: mdBook $version already installed in $tools"
  exit 0
fi
if ! cargo install mdbook --version "$version" --locked --no-default-features --features search \
  --root "$tools" --quiet; then
  echo "site setup: SKIPPED — cargo install mdbook $version failed (crates.io unreachable?)" >&2
  exit 77
fi
"$tools/bin/mdbook" --version
