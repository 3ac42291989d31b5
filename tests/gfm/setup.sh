#!/usr/bin/env bash
# Installs the GitHub Flavored Markdown renderer the job-summary test renders with: cmark-gfm
# (GitHub's own fork of cmark, with its table extension), from the Debian packages.
#
#   tests/gfm/setup.sh
#
# Exit status: 0 cmark-gfm is installed (already, or now); 77 skipped: apt is unavailable or the
# package archive cannot be reached (the reason is printed); anything else failed. A caller that
# treats 77 as "skipped" must say so in its output (see .ci/run).
set -uo pipefail

if command -v cmark-gfm >/dev/null 2>&1; then
  echo "gfm setup: cmark-gfm $(cmark-gfm --version | head -n 1) already installed"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "gfm setup: SKIPPED — no apt-get on this machine; install cmark-gfm yourself" >&2
  exit 77
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo -n)
  else
    echo "gfm setup: SKIPPED — not root and no sudo; cannot install cmark-gfm" >&2
    exit 77
  fi
fi
export DEBIAN_FRONTEND=noninteractive
if ! "${as_root[@]}" apt-get update -qq >/dev/null 2>&1; then
  echo "gfm setup: SKIPPED — apt-get update failed (package archive unreachable?)" >&2
  exit 77
fi
if ! "${as_root[@]}" apt-get install -y -qq --no-install-recommends cmark-gfm >/dev/null 2>&1; then
  echo "gfm setup: SKIPPED — apt-get install cmark-gfm failed (package archive unreachable?)" >&2
  exit 77
fi
echo "gfm setup: installed cmark-gfm $(cmark-gfm --version | head -n 1)"
