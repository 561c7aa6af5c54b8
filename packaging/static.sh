#!/usr/bin/env bash
# Build realmgm as one statically linked Linux binary (musl), for a GM who
# has no Rust toolchain: copy it anywhere and run it. Prints the binary's path.
#
#   packaging/static.sh                  the dist profile (the fastest binary)
#   REALMGM_PROFILE=dev packaging/static.sh
#                                        a quick build, for packaging/test.sh
#
# It installs what it needs when missing: the musl target (rustup) and the
# musl C compiler (Debian's musl-tools) for the C parts (SQLite, ring, mimalloc).
set -euo pipefail
cd "$(dirname "$0")/.."
target=x86_64-unknown-linux-musl
profile="${REALMGM_PROFILE:-dist}"
if ! rustup target list --installed | grep -qx "$target"; then
    rustup target add "$target" >&2
fi
if ! command -v musl-gcc >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q musl-tools >&2
fi
cargo build --locked --profile "$profile" --target "$target" --bin realmgm >&2
# Cargo names the dev profile's folder `debug`.
folder="$profile"
[ "$profile" = dev ] && folder=debug
# Printed whole, so it stays right from any folder.
binary="$(realpath "${CARGO_TARGET_DIR:-target}/$target/$folder/realmgm")"
# A static binary names no interpreter and no shared library.
if readelf --program-headers "$binary" | grep -q INTERP || readelf --dynamic "$binary" | grep -q NEEDED; then
    echo "static.sh: $binary is not statically linked" >&2
    exit 1
fi
echo "$binary"
