#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the main demo.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --release -p arbiter
# Opens the panel when a display is present; prints each recognised action and ruling otherwise.
exec ./target/release/arbiter demo "$@"
