#!/usr/bin/env bash
# The whole test suite: everything the tests need is installed here, then
# every test runs. The README names this script; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --locked --all-targets
