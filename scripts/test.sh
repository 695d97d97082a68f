#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
# The card-design generator and the second compositor (Python, models/detect) have their own tests.
python3 -m pip install -q -r models/detect/requirements-compose.txt
python3 -m unittest discover -s models/detect -p 'test_*.py'
# Lints: clippy with warnings as errors (the component is added where rustup manages the toolchain).
if cargo clippy --version >/dev/null 2>&1 || rustup component add clippy >/dev/null 2>&1; then
  cargo clippy --workspace --all-targets -- -D warnings
else
  echo "test.sh: clippy is not available here; lints skipped"
fi
# The end-to-end tests run the built binary, so build it in the test profile's directory first.
cargo build -p arbiter
cargo test --workspace --no-fail-fast
