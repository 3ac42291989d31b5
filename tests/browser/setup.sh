#!/usr/bin/env bash
# Installs the real browser the HTML report test renders in: headless Chromium, from the
# Debian packages.
#
#   tests/browser/setup.sh
#
# Exit status: 0 Chromium is installed (already, or now); 77 skipped: apt is unavailable or the
# package archive cannot be reached (the reason is printed); anything else failed. A caller that
# treats 77 as "skipped" must say so in its output (see .ci/run).
# Its apt steps are `apt_install` in tests/apt-install.sh, which the three apt setup scripts share.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../apt-install.sh source-path=SCRIPTDIR
. "$here/../apt-install.sh"

found() {
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1
}
version() {
  { chromium --version 2>/dev/null || chromium-browser --version 2>/dev/null; } | head -n 1
}

if found; then
  echo "browser setup: $(version) already installed"
  exit 0
fi
# fonts-dejavu-core: headless Chromium draws no text in a screenshot without a font.
apt_install "browser setup" Chromium chromium fonts-dejavu-core
if ! found; then
  echo "browser setup: apt-get installed chromium but no chromium command is on PATH" >&2
  exit 1
fi
echo "browser setup: installed $(version)"
