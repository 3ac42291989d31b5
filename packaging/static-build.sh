#!/usr/bin/env bash
# The static Linux binary the archives, npm, PyPI and the GitHub Action ship
# (x86_64-unknown-linux-musl, as .github/workflows/release.yml builds it), built and checked as
# shipped: linked at a fixed address, allocating with mimalloc without transparent huge pages
# (Cargo.toml, .cargo/config.toml; docs/benchmarks/lint.md, "Fourteenth round"), copying and
# comparing memory with `mirrorless-mem` instead of musl's (mem/; docs/benchmarks/check.md, "The
# shipped binary"), and reporting what the glibc build reports.
#
#   packaging/static-build.sh
#
# Exit status: 0 passed; 77 skipped: the musl target or musl-gcc could not be installed (the
# reason is printed); anything else failed. A caller that treats 77 as "skipped" must say so in
# its output (see .ci/run).
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=../tests/apt-install.sh source-path=SCRIPTDIR
. tests/apt-install.sh

target=x86_64-unknown-linux-musl
if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
  if ! rustup target add "$target" >/dev/null 2>&1; then
    echo "static build: SKIPPED — rustup could not install the $target standard library" >&2
    exit 77
  fi
fi
if ! command -v musl-gcc >/dev/null 2>&1; then
  apt_install "static build" "musl-gcc (for mimalloc)" musl-tools
fi

# mirrorless-mem's own tests on the target it serves: there its functions are the test binary's
# memcpy, memmove, memcmp and bcmp, so the harness and std run on them too.
cargo test --release --locked --quiet --package mirrorless-mem --target "$target" >/dev/null ||
  { echo "static build: FAILED — mirrorless-mem's tests on $target" >&2; exit 1; }
cargo build --release --locked --quiet --package mirrorless --target "$target" || exit 1
cargo build --release --locked --quiet --package mirrorless || exit 1
static="target/$target/release/mirrorless"
glibc="target/release/mirrorless"
fail() {
  echo "static build: FAILED — $*" >&2
  exit 1
}

# A static executable at a fixed address: no interpreter, no self-relocation at each start.
readelf -h "$static" | grep -q 'Type:[[:space:]]*EXEC' || fail "$static is not linked at a fixed address"
! readelf -l "$static" | grep -q INTERP || fail "$static has a dynamic loader"
# mimalloc is the allocator, with the option .cargo/config.toml sets at compile time.
options=$(MIMALLOC_VERBOSE=1 "$static" --version 2>&1)
grep -q "option 'allow_thp': 0" <<<"$options" || fail "mimalloc with allow_thp 0 is not the allocator: $(head -n 3 <<<"$options")"
# ... and musl's own allocations (opendir's) are mimalloc's too: `malloc` is `mi_malloc`.
symbols=$(nm "$static")
malloc_at=$(awk '$3 == "malloc" { print $1 }' <<<"$symbols")
mi_malloc_at=$(awk '$3 == "mi_malloc" { print $1 }' <<<"$symbols")
[ -n "$malloc_at" ] && [ "$malloc_at" = "$mi_malloc_at" ] || fail "malloc is not mimalloc's (malloc at '$malloc_at', mi_malloc at '$mi_malloc_at')"
# ... and memcpy, memmove, memcmp and bcmp are mirrorless-mem's: musl's memcpy object (which
# defines __memcpy_fwd for its memmove) is not linked, and the copy and the comparison are the
# SSE2 ones, not `rep movsq` and a byte loop.
grep -q ' __memcpy_fwd$' <<<"$symbols" && fail "musl's memcpy is linked (__memcpy_fwd is defined)"
for function in memcpy memmove memcmp bcmp; do
  awk -v f="$function" '$2 == "T" && $3 == f { found = 1 } END { exit !found }' <<<"$symbols" ||
    fail "$function is not defined in $static"
done
disassembly() { objdump -d --no-show-raw-insn --disassemble="$1" "$static"; }
disassembly memcpy | grep -qE 'movups|movdqu' || fail "memcpy is not mirrorless-mem's (no 16-byte loads)"
disassembly memcmp | grep -q pcmpeqb || fail "memcmp is not mirrorless-mem's (no 16-byte comparison)"

# The same reports as the glibc build, on the lint fixtures and on the repository itself.
for tree in fixtures docs lint; do
  for format in json human; do
    a=$("$glibc" lint "$tree" --format "$format" 2>&1)
    a_status=$?
    b=$("$static" lint "$tree" --format "$format" 2>&1)
    b_status=$?
    [ "$a" = "$b" ] && [ "$a_status" = "$b_status" ] ||
      fail "lint $tree --format $format differs from the glibc build's (exit $a_status and $b_status)"
  done
done
# ... and on the check fixtures: every log, valid and not, of both profiles and of bad input.
for format in json human; do
  a=$("$glibc" check fixtures/check --format "$format" 2>&1)
  a_status=$?
  b=$("$static" check fixtures/check --format "$format" 2>&1)
  b_status=$?
  [ "$a" = "$b" ] && [ "$a_status" = "$b_status" ] ||
    fail "check fixtures/check --format $format differs from the glibc build's (exit $a_status and $b_status)"
done
"$static" run --cases 64 >/dev/null 2>&1 || fail "run --cases 64 failed"
echo "static build: $static is static at a fixed address, allocates with mimalloc (allow_thp 0), copies with mirrorless-mem and reports as the glibc build does"
