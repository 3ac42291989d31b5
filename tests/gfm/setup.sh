#!/usr/bin/env bash
# Installs the GitHub Flavored Markdown renderer the job-summary test renders with: cmark-gfm
# (GitHub's own fork of cmark, with its table extension), from the Debian packages.
#
#   tests/gfm/setup.sh
#
# Exit status: 0 cmark-gfm is installed (already, or now); 77 skipped: apt is unavailable or the
# package archive cannot be reached (the reason is printed); anything else failed. A caller that
# treats 77 as "skipped" must say so in its output (see .ci/run).
# Its apt steps are `apt_install` in tests/apt-install.sh, which the three apt setup scripts share.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../apt-install.sh source-path=SCRIPTDIR
. "$here/../apt-install.sh"

if command -v cmark-gfm >/dev/null 2>&1; then
  echo "gfm setup: cmark-gfm $(cmark-gfm --version | head -n 1) already installed"
  exit 0
fi
apt_install "gfm setup" cmark-gfm cmark-gfm
echo "gfm setup: installed cmark-gfm $(cmark-gfm --version | head -n 1)"
