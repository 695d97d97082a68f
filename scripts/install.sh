#!/usr/bin/env bash
# Installs arbiter for everyday use: the binary into PREFIX/bin and the data it reads (models,
# catalogues, scenarios) into PREFIX/share/arbiter, where the binary looks for them from any
# working directory. Usage: scripts/install.sh [PREFIX]   (default ~/.local; then put
# PREFIX/bin on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(realpath -m "${1:-$HOME/.local}")
scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
# Reuse the workspace's build folder, so an install after a build compiles nothing twice.
CARGO_TARGET_DIR="$PWD/target" cargo install --locked --path companion --root "$prefix"
mkdir -p "$prefix/share/arbiter"
rm -rf "$prefix/share/arbiter/models"
cp -r models "$prefix/share/arbiter/models"
echo "installed $prefix/bin/arbiter and its data in $prefix/share/arbiter"
"$prefix/bin/arbiter" --version
