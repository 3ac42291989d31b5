#!/usr/bin/env bash
# Installs the real browser the HTML report test renders in: headless Chromium, from the
# Debian packages.
#
#   tests/browser/setup.sh
#
# Exit status: 0 Chromium is installed (already, or now); 77 skipped: apt is unavailable or the
# package archive cannot be reached (the reason is printed); anything else failed. A caller that
# treats 77 as "skipped" must say so in its output (see .ci/run).
set -uo pipefail

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
if ! command -v apt-get >/dev/null 2>&1; then
  echo "browser setup: SKIPPED — no apt-get on this machine; install Chromium yourself" >&2
  exit 77
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo -n)
  else
    echo "browser setup: SKIPPED — not root and no sudo; cannot install Chromium" >&2
    exit 77
  fi
fi
export DEBIAN_FRONTEND=noninteractive
if ! "${as_root[@]}" apt-get update -qq >/dev/null 2>&1; then
  echo "browser setup: SKIPPED — apt-get update failed (package archive unreachable?)" >&2
  exit 77
fi
# fonts-dejavu-core: headless Chromium draws no text in a screenshot without a font.
if ! "${as_root[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null 2>&1; then
  echo "browser setup: SKIPPED — apt-get install chromium failed (package archive unreachable?)" >&2
  exit 77
fi
if ! found; then
  echo "browser setup: apt-get installed chromium but no chromium command is on PATH" >&2
  exit 1
fi
echo "browser setup: installed $(version)"
