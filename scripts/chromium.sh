#!/usr/bin/env bash
# Headless Chromium for realmgm's browser check of a report's HTML
# (tests/engine/report_browser.rs) and of the public pages (tests/cli/site.rs).
#
#   scripts/chromium.sh install          install Debian's chromium if missing
#   scripts/chromium.sh screenshot HTML PNG [WIDTH,HEIGHT]
#                                        render HTML to a PNG screenshot
#                                        (1000,2400 unless given: 390,1400 is a phone)
#
# The browser runs headless, without sandbox, GPU, network extras or a
# profile: a fresh temporary user data directory each time, removed after.
# Installing needs root; elsewhere the test prints SKIPPED.
set -euo pipefail

find_chromium() {
    for name in chromium chromium-browser; do
        if command -v "$name" >/dev/null 2>&1; then
            command -v "$name"
            return 0
        fi
    done
    return 1
}

case "${1:-}" in
install)
    if find_chromium >/dev/null; then
        exit 0
    fi
    if [ "$(id -u)" -ne 0 ]; then
        echo "chromium.sh: chromium is missing and installing it needs root" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y chromium >/dev/null || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; }
    ;;
screenshot)
    html="${2:?give the HTML file}"
    png="${3:?give the PNG file}"
    size="${4:-1000,2400}"
    browser="$(find_chromium)" || { echo "chromium.sh: chromium is not installed" >&2; exit 1; }
    profile="$(mktemp -d)"
    trap 'rm -rf "$profile"' EXIT
    "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" --hide-scrollbars --window-size="$size" \
        --screenshot="$png" "file://$(realpath "$html")" >/dev/null 2>&1
    [ -s "$png" ] || { echo "chromium.sh: no screenshot was written" >&2; exit 1; }
    ;;
*)
    echo "usage: scripts/chromium.sh install | screenshot HTML PNG [WIDTH,HEIGHT]" >&2
    exit 2
    ;;
esac
