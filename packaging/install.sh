#!/bin/sh
# Installs a prebuilt mirrorless binary: downloads the archive for this machine from a release,
# verifies its SHA-256 checksum, and puts `mirrorless` into a directory (default ~/.local/bin).
#
#   curl -fsSL https://github.com/OWNER/mirrorless/releases/download/vVERSION/install.sh | sh
#   sh install.sh --to /usr/local/bin
#   sh install.sh --base-url ./target/dist --target x86_64-unknown-linux-gnu   # a local build
#
# Options:
#   --version V      the release to install (default: the one this script comes from, @MIRRORLESS_VERSION@)
#   --to DIR         where to put the binary (default: $MIRRORLESS_INSTALL_DIR or ~/.local/bin)
#   --base-url URL   where the archives are: https://…, file://…, or a local directory
#                    (default: $MIRRORLESS_DOWNLOAD_URL, else the release's download page)
#   --target TRIPLE  the archive to take (default: detected; Linux gets the static musl build)
#   --repo OWNER/NAME  the GitHub repository whose build provenance to verify with
#                    `gh attestation verify` (default: the release's repository)
#   --require-provenance  fail unless the build provenance was verified (needs gh, logged in)
#
# Downloads are https:// only (curl refuses a redirect to anything else too), bounded in time
# and retries. The archive's
# SHA-256 checksum is always verified; its build provenance (a GitHub artifact attestation)
# is verified too when `gh` is installed and logged in, and the script says when it is not.
# Exit status: 0 installed; 2 error (unsupported platform, failed download, checksum mismatch,
# provenance that does not verify, bad option): the message says which, and nothing is installed.
set -eu

version="@MIRRORLESS_VERSION@"
releases="@MIRRORLESS_RELEASE_URL@"
to="${MIRRORLESS_INSTALL_DIR:-${HOME:-}/.local/bin}"
base_url="${MIRRORLESS_DOWNLOAD_URL:-}"
target=""
repo=""
require_provenance=""

fail() {
    echo "mirrorless install: error: $*" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
        --version) [ $# -ge 2 ] || fail "--version needs a value"; version="${2#v}"; shift 2 ;;
        --to) [ $# -ge 2 ] || fail "--to needs a value"; to="$2"; shift 2 ;;
        --base-url) [ $# -ge 2 ] || fail "--base-url needs a value"; base_url="$2"; shift 2 ;;
        --target) [ $# -ge 2 ] || fail "--target needs a value"; target="$2"; shift 2 ;;
        --repo) [ $# -ge 2 ] || fail "--repo needs a value"; repo="$2"; shift 2 ;;
        --require-provenance) require_provenance=1; shift ;;
        -h | --help) sed -n '2,24p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) fail "unknown option '$1' (see --help)" ;;
    esac
done

case "$version" in
    @*) fail "this copy of install.sh is not from a release: pass --version" ;;
esac
if [ -z "$base_url" ]; then
    case "$releases" in
        @*) fail "this copy of install.sh is not from a release: pass --base-url (the directory or URL holding the archives)" ;;
    esac
    base_url="$releases/v$version"
fi
base_url="${base_url%/}"
case "$base_url" in
    http://*) fail "refusing $base_url: downloads must use https:// (or file:// or a local directory)" ;;
    *://*) case "$base_url" in https://* | file://*) ;; *) fail "refusing $base_url: downloads must use https:// (or file:// or a local directory)" ;; esac ;;
esac
case "$version" in
    *[!0-9A-Za-z.-]* | "" | .* | *..*) fail "--version must be a release number such as 0.1.0, not '$version'" ;;
esac
# The repository whose attestations to verify: given, or the release's own on github.com.
if [ -z "$repo" ]; then
    case "$releases" in
        https://github.com/*/*/releases/download)
            repo="${releases#https://github.com/}"
            repo="${repo%/releases/download}" ;;
    esac
fi
if [ -n "$repo" ]; then
    case "$repo" in
        */*/* | /* | */ | -* | *[!A-Za-z0-9._/-]*) fail "--repo must be OWNER/NAME, not '$repo'" ;;
        */*) ;;
        *) fail "--repo must be OWNER/NAME, not '$repo'" ;;
    esac
fi

# The archive for this machine: the targets the release workflow builds.
if [ -z "$target" ]; then
    os=$(uname -s 2>/dev/null || echo unknown)
    arch=$(uname -m 2>/dev/null || echo unknown)
    case "$arch" in
        x86_64 | amd64) arch=x86_64 ;;
        aarch64 | arm64) arch=aarch64 ;;
    esac
    case "$os/$arch" in
        Linux/x86_64 | Linux/aarch64) target="$arch-unknown-linux-musl" ;;
        Darwin/x86_64 | Darwin/aarch64) target="$arch-apple-darwin" ;;
        MINGW*/x86_64 | MSYS*/x86_64 | CYGWIN*/x86_64) target="x86_64-pc-windows-msvc" ;;
        *) fail "no prebuilt mirrorless for $os $(uname -m 2>/dev/null || echo unknown): prebuilt binaries exist for Linux and macOS on x86_64 and aarch64, and Windows on x86_64. Build it from source instead: cargo install --locked mirrorless (Rust 1.95)" ;;
    esac
fi
case "$target" in
    *-windows-*) ext=zip; exe=mirrorless.exe ;;
    *) ext=tar.gz; exe=mirrorless ;;
esac
stem="mirrorless-$version-$target"
archive="$stem.$ext"

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t mirrorless) || fail "cannot create a temporary directory"
new=""
trap 'rm -rf "$tmp"; [ -z "$new" ] || rm -f "$new"' EXIT
trap 'exit 2' INT TERM

# fetch NAME: copies $base_url/NAME to $tmp/NAME. Every network fetch is https-only (redirects
# included where the tool can enforce it), gives up after a few tries and a bounded time, and
# an empty result is an error.
fetch() {
    case "$base_url" in
        https://* | file://*)
            if command -v curl >/dev/null 2>&1; then
                curl --proto '=https,file' --proto-redir '=https' --tlsv1.2 -fsSL \
                    --connect-timeout 30 --max-time 600 --retry 2 \
                    "$base_url/$1" -o "$tmp/$1" \
                    || fail "cannot download $base_url/$1"
            elif command -v wget >/dev/null 2>&1 && [ "${base_url#file://}" = "$base_url" ]; then
                if wget --version 2>/dev/null | grep -q 'GNU Wget'; then
                    # GNU wget retries 20 times by default, each with a 900 s read timeout, and
                    # resumes a truncated body: bound both.
                    wget -q --tries=3 --timeout=30 --waitretry=1 --max-redirect=5 \
                        "$base_url/$1" -O "$tmp/$1" || fail "cannot download $base_url/$1 (wget, at most 3 tries)"
                else
                    # BusyBox wget: no retries; -T bounds a stalled connection.
                    wget -q -T 30 "$base_url/$1" -O "$tmp/$1" || fail "cannot download $base_url/$1"
                fi
            else
                fail "neither curl nor wget can fetch $base_url/$1"
            fi ;;
        *)
            [ -f "$base_url/$1" ] || fail "$base_url/$1 does not exist"
            cp "$base_url/$1" "$tmp/$1" || fail "cannot copy $base_url/$1" ;;
    esac
    [ -s "$tmp/$1" ] || fail "$base_url/$1 is empty (a truncated or failed download)"
}

sha256() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d ' ' -f 1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | cut -d ' ' -f 1
    elif command -v openssl >/dev/null 2>&1; then
        openssl dgst -sha256 "$1" | sed 's/.*= *//'
    else
        fail "no sha256sum, shasum or openssl to verify the download with"
    fi
}

echo "mirrorless install: downloading $archive from $base_url" >&2
fetch "$archive"
fetch "$archive.sha256"
expected=$(cut -d ' ' -f 1 <"$tmp/$archive.sha256" | tr 'A-F' 'a-f')
case "$expected" in
    *[!0-9a-f]* | "") fail "$archive.sha256 holds no SHA-256 checksum" ;;
esac
[ ${#expected} -eq 64 ] || fail "$archive.sha256 holds no SHA-256 checksum"
actual=$(sha256 "$tmp/$archive")
[ "$expected" = "$actual" ] || fail "checksum mismatch for $archive: expected $expected, got $actual. The download is truncated, corrupt or was tampered with; nothing was installed"

# Build provenance: the checksum comes from the same server as the archive, so where gh can,
# check that GitHub's release workflow built this very archive.
if [ -z "$repo" ]; then
    skipped="no --repo to verify against"
elif ! command -v gh >/dev/null 2>&1; then
    skipped="gh is not installed"
elif ! gh auth status >/dev/null 2>&1; then
    skipped="gh is not logged in (gh auth login, or set GH_TOKEN)"
else
    skipped=""
    gh attestation verify "$tmp/$archive" --repo "$repo" >"$tmp/attestation.log" 2>&1 \
        || { cat "$tmp/attestation.log" >&2; fail "the build provenance of $archive does not verify against $repo (gh attestation verify failed); nothing was installed"; }
    echo "mirrorless install: build provenance verified: $archive was built by $repo's release workflow" >&2
fi
if [ -n "$skipped" ]; then
    [ -z "$require_provenance" ] || fail "--require-provenance: cannot verify the build provenance: $skipped"
    echo "mirrorless install: build provenance not verified ($skipped); only the SHA-256 checksum was checked" >&2
fi

mkdir "$tmp/x"
case "$ext" in
    zip) command -v unzip >/dev/null 2>&1 || fail "unzip is needed to unpack $archive"
         unzip -q "$tmp/$archive" -d "$tmp/x" || fail "cannot unpack $archive" ;;
    *) tar -xzf "$tmp/$archive" -C "$tmp/x" || fail "cannot unpack $archive" ;;
esac
[ -f "$tmp/x/$stem/$exe" ] || fail "$archive holds no $stem/$exe"

mkdir -p "$to" || fail "cannot create $to"
# Copy to a fresh file then rename, so a running mirrorless is never overwritten in place. The
# file is new (mktemp creates it exclusively): a name planted in DIR, a symbolic link
# included, is never written through.
new=$(mktemp "$to/.$exe.XXXXXXXX" 2>/dev/null) || fail "cannot create a temporary file in $to"
cat "$tmp/x/$stem/$exe" >"$new" || fail "cannot write into $to"
chmod 755 "$new" || fail "cannot make $new executable"
mv -f "$new" "$to/$exe" || fail "cannot write $to/$exe"
new=""
echo "mirrorless install: installed mirrorless $version ($target) as $to/$exe" >&2
case ":${PATH:-}:" in
    *":$to:"*) ;;
    *) echo "mirrorless install: $to is not on your PATH; add it, e.g. export PATH=\"$to:\$PATH\"" >&2 ;;
esac
