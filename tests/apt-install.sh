# shellcheck shell=bash
# The apt half of the tests' setup scripts (tests/browser/setup.sh, tests/gfm/setup.sh,
# tests/editor/setup.sh), sourced by each of them after its own "already installed" check:
#
#   . "$here/../apt-install.sh"
#   apt_install LABEL WHAT PACKAGE...
#
# Installs the Debian PACKAGEs as root (directly, or through `sudo -n`), quietly and without
# recommended packages; DEBIAN_FRONTEND=noninteractive goes through `env`, as sudo's env_reset
# would drop an exported one. Returns 0 once apt-get has installed them. When it cannot, prints
# why ("LABEL: SKIPPED — …", WHAT naming the tool for a person) and exits the calling script
# with status 77, the setup scripts' "skipped" (see .ci/run). The caller checks afterwards that
# the tool it wanted is really there.
apt_install() {
  local label=$1 what=$2
  shift 2
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$label: SKIPPED — no apt-get on this machine; install $what yourself" >&2
    exit 77
  fi
  local as_root=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      as_root=(sudo -n)
    else
      echo "$label: SKIPPED — not root and no sudo; cannot install $what" >&2
      exit 77
    fi
  fi
  if ! "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1; then
    echo "$label: SKIPPED — apt-get update failed (package archive unreachable?)" >&2
    exit 77
  fi
  if ! "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1; then
    echo "$label: SKIPPED — apt-get install $* failed (package archive unreachable?)" >&2
    exit 77
  fi
}
