#!/usr/bin/env bash
# Installs what the workspace needs on Debian (bookworm or later), only what is missing. The callers
# (demo.sh, test.sh) build what they run.
# Run as root, or with sudo available.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(pkg-config clang libclang-dev libopencv-dev fonts-noto-cjk xvfb xauth imagemagick)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  [ -x "$HOME/.cargo/bin/cargo" ] || {
    echo "setup: installing the Rust toolchain (rustup)"
    command -v curl >/dev/null || { apt-get update -qq && apt-get install -y -qq curl ca-certificates; }
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal --default-toolchain 1.95.0
  }
  export PATH="$HOME/.cargo/bin:$PATH"
fi
