#!/usr/bin/env bash
# The whole test suite: everything the tests need is installed here, then
# every test runs. The README names this script; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
# The mail tests need the local test mail server (a no-op when it already
# runs); where it cannot be started those tests print SKIPPED and return.
# What this script started it stops again when it ends; a server that was
# already running is left running.
if scripts/mailserver.sh status >/dev/null 2>&1; then
    echo "test.sh: the local mail server was already running; it is left running"
elif scripts/mailserver.sh start; then
    trap 'scripts/mailserver.sh stop >/dev/null 2>&1 && echo "test.sh: stopped the local mail server it started"' EXIT
else
    echo "test.sh: local mail server not started; tests/mail/mail_server.rs will skip"
fi
# The browser check of a report's HTML needs headless Chromium; without it
# tests/engine/report_browser.rs and tests/cli/site.rs print SKIPPED.
scripts/chromium.sh install || echo "test.sh: chromium not installed; tests/engine/report_browser.rs will skip"
# Formatting and lints first: they fail fast and cost little.
cargo fmt --all --check
cargo clippy --locked --workspace --all-targets -- -D warnings
# The fuzz targets are their own workspace, so the lines above never build
# them; checking them here keeps them in step with the code. They share the
# main target folder, where the dependencies they have in common are built.
cargo check --locked --manifest-path fuzz/Cargo.toml --bins --target-dir "${CARGO_TARGET_DIR:-target}"
cargo test --locked --workspace --all-targets
# What a GM without a Rust toolchain installs: the static binary and the
# container image (a part the machine cannot do says SKIPPED).
packaging/test.sh
