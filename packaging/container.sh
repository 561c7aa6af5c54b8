#!/usr/bin/env bash
# Build the container image `realmgm:<version>` (and `realmgm:latest`) from
# the static binary, with podman or docker, whichever is installed and works.
#
#   packaging/container.sh              builds the binary first (packaging/static.sh)
#   packaging/container.sh PATH         uses the static binary at PATH
#
# Prints the image's name. Podman is asked for the docker image format,
# which keeps the health check (the OCI format has no place for it).
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-$(packaging/static.sh)}"
engine=""
for candidate in podman docker; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" info >/dev/null 2>&1; then
        engine="$candidate"
        break
    fi
done
if [ -z "$engine" ]; then
    echo "container.sh: neither podman nor docker can build here; install one (apt-get install podman)" >&2
    exit 2
fi
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT
install -m 755 "$binary" "$context/realmgm"
mkdir "$context/data"
format=()
[ "$engine" = podman ] && format=(--format docker)
"$engine" build --quiet "${format[@]}" -f packaging/Containerfile \
    -t "realmgm:$version" -t realmgm:latest "$context" >&2
echo "realmgm:$version"
