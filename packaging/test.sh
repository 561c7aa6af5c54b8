#!/usr/bin/env bash
# Check what a GM without a Rust toolchain installs: the static binary
# (packaging/static.sh) and the container image (packaging/container.sh).
# scripts/test.sh runs it. It builds the binary with the quick dev profile
# (REALMGM_PROFILE overrides): what is checked is the linking and what the
# binary embeds, not its speed. A part the machine cannot do prints SKIPPED
# with the reason; a part that can run and fails exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

binary="$(REALMGM_PROFILE="${REALMGM_PROFILE:-dev}" packaging/static.sh)"
echo "packaging: static binary $binary"
"$binary" --version
# The demo plays on the data the binary embeds: no file beside it is read.
(cd "$work" && "$binary" demo --dir demo >/dev/null)
REALMGM_DB="$work/demo/realmgm.sqlite" "$binary" gm status --json | grep -q '"campaign": "DEMO"'
echo "packaging: the static binary plays the demo and reports its status"

engine=""
for candidate in podman docker; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" info >/dev/null 2>&1; then
        engine="$candidate"
        break
    fi
done
if [ -z "$engine" ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q podman >/dev/null 2>&1 || true
    command -v podman >/dev/null 2>&1 && podman info >/dev/null 2>&1 && engine=podman
fi
if [ -z "$engine" ]; then
    echo "packaging: container SKIPPED: neither podman nor docker can build images on this machine"
    exit 0
fi
image="$(packaging/container.sh "$binary")"
echo "packaging: built $image with $engine"
config="$("$engine" image inspect "$image" --format '{{.Config.User}}|{{json .Config.Healthcheck}}|{{json .Config.Volumes}}|{{json .Config.Env}}')"
case "$config" in
    10001:10001\|*'"gm","status","--json"'*\|*'"/data"'*\|*REALMGM_DB=/data/realmgm.sqlite*) ;;
    *) echo "packaging: the image's user, health check, volume or database path is wrong: $config" >&2; exit 1 ;;
esac
echo "packaging: the image runs as 10001, keeps /data on a volume, checks its health by gm status --json"

# The image's binary is the one built, byte for byte.
container="$("$engine" create --no-healthcheck "$image")"
"$engine" cp "$container:/usr/local/bin/realmgm" "$work/from-image"
"$engine" rm "$container" >/dev/null
cmp "$binary" "$work/from-image"

volume="realmgm-test-$$"
if ! run_error="$("$engine" run --rm -v "$volume:/data" "$image" demo --dir /data/demo 2>&1 >/dev/null)"; then
    "$engine" volume rm -f "$volume" >/dev/null 2>&1 || true
    echo "packaging: container run SKIPPED: $engine cannot start containers on this machine: ${run_error##*Error: }"
    exit 0
fi
health="$("$engine" run --rm -v "$volume:/data" -e REALMGM_DB=/data/demo/realmgm.sqlite "$image" gm status --json)"
"$engine" volume rm -f "$volume" >/dev/null
grep -q '"campaign": "DEMO"' <<<"$health"
echo "packaging: the container plays the demo on its volume as user 10001, and its health check reads it"
