#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
# The end-to-end tests run the built binary, so build it in the test profile's directory first.
cargo build -p arbiter
cargo test --workspace --no-fail-fast
