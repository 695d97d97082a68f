#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the main demo.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
exec ./target/release/arbiter blitz replay models/scenarios/blitz/demo-2p.toml "$@"
