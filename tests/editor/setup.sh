#!/usr/bin/env bash
# Installs the real editor the language-server test drives: Neovim, from the Debian packages.
#
#   tests/editor/setup.sh
#
# Exit status: 0 Neovim is installed (already, or now); 77 skipped: apt is unavailable or the
# package archive cannot be reached (the reason is printed); anything else failed. A caller that
# treats 77 as "skipped" must say so in its output (see .ci/run).
set -uo pipefail

if command -v nvim >/dev/null 2>&1; then
  echo "editor setup: $(nvim --version | head -n 1) already installed"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "editor setup: SKIPPED — no apt-get on this machine; install Neovim (0.7 or later) yourself" >&2
  exit 77
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo -n)
  else
    echo "editor setup: SKIPPED — not root and no sudo; cannot install Neovim" >&2
    exit 77
  fi
fi
export DEBIAN_FRONTEND=noninteractive
if ! "${as_root[@]}" apt-get update -qq >/dev/null 2>&1; then
  echo "editor setup: SKIPPED — apt-get update failed (package archive unreachable?)" >&2
  exit 77
fi
if ! "${as_root[@]}" apt-get install -y -qq --no-install-recommends neovim >/dev/null 2>&1; then
  echo "editor setup: SKIPPED — apt-get install neovim failed (package archive unreachable?)" >&2
  exit 77
fi
echo "editor setup: installed $(nvim --version | head -n 1)"
