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
#
# Exit status: 0 installed; 2 error (unsupported platform, failed download, checksum mismatch,
# bad option): the message says which, and nothing is installed.
set -eu

version="@MIRRORLESS_VERSION@"
releases="@MIRRORLESS_RELEASE_URL@"
to="${MIRRORLESS_INSTALL_DIR:-${HOME:-}/.local/bin}"
base_url="${MIRRORLESS_DOWNLOAD_URL:-}"
target=""

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
        -h | --help) sed -n '2,19p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//'; exit 0 ;;
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
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM

# fetch NAME: copies $base_url/NAME to $tmp/NAME.
fetch() {
    case "$base_url" in
        http://* | https://* | file://*)
            if command -v curl >/dev/null 2>&1; then
                curl --proto '=https,file' --tlsv1.2 -fsSL "$base_url/$1" -o "$tmp/$1" \
                    || fail "cannot download $base_url/$1"
            elif command -v wget >/dev/null 2>&1 && [ "${base_url#file://}" = "$base_url" ]; then
                wget -q "$base_url/$1" -O "$tmp/$1" || fail "cannot download $base_url/$1"
            else
                fail "neither curl nor wget can fetch $base_url/$1"
            fi ;;
        *)
            [ -f "$base_url/$1" ] || fail "$base_url/$1 does not exist"
            cp "$base_url/$1" "$tmp/$1" || fail "cannot copy $base_url/$1" ;;
    esac
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
[ "$expected" = "$actual" ] || fail "checksum mismatch for $archive: expected $expected, got $actual. The download is corrupt or was tampered with; nothing was installed"

mkdir "$tmp/x"
case "$ext" in
    zip) command -v unzip >/dev/null 2>&1 || fail "unzip is needed to unpack $archive"
         unzip -q "$tmp/$archive" -d "$tmp/x" || fail "cannot unpack $archive" ;;
    *) tar -xzf "$tmp/$archive" -C "$tmp/x" || fail "cannot unpack $archive" ;;
esac
[ -f "$tmp/x/$stem/$exe" ] || fail "$archive holds no $stem/$exe"

mkdir -p "$to" || fail "cannot create $to"
# Copy then rename, so a running mirrorless is never overwritten in place.
cp "$tmp/x/$stem/$exe" "$to/.$exe.new" || fail "cannot write into $to"
chmod 755 "$to/.$exe.new"
mv -f "$to/.$exe.new" "$to/$exe" || fail "cannot write $to/$exe"
echo "mirrorless install: installed mirrorless $version ($target) as $to/$exe" >&2
case ":${PATH:-}:" in
    *":$to:"*) ;;
    *) echo "mirrorless install: $to is not on your PATH; add it, e.g. export PATH=\"$to:\$PATH\"" >&2 ;;
esac
