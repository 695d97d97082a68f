#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
# The card-design generator and the second compositor (Python, models/detect) have their own tests.
python3 -m pip install -q -r models/detect/requirements-compose.txt
python3 -m unittest discover -s models/detect -p 'test_*.py'
# The end-to-end tests run the built binary, so build it in the test profile's directory first.
cargo build -p arbiter
cargo test --workspace --no-fail-fast
