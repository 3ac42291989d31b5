#!/usr/bin/env bash
# Installs the real editor the language-server test drives: Neovim, from the Debian packages.
#
#   tests/editor/setup.sh
#
# Exit status: 0 Neovim is installed (already, or now); 77 skipped: apt is unavailable or the
# package archive cannot be reached (the reason is printed); anything else failed. A caller that
# treats 77 as "skipped" must say so in its output (see .ci/run).
# Its apt steps are `apt_install` in tests/apt-install.sh, which the three apt setup scripts share.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../apt-install.sh source-path=SCRIPTDIR
. "$here/../apt-install.sh"

if command -v nvim >/dev/null 2>&1; then
  echo "editor setup: $(nvim --version | head -n 1) already installed"
  exit 0
fi
apt_install "editor setup" "Neovim (0.7 or later)" neovim
echo "editor setup: installed $(nvim --version | head -n 1)"
