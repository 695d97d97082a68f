#!/usr/bin/env bash
# Screenshots of every table window under Xvfb at 1920×1080, into docs/ (look at them after).
# Usage: scripts/screenshots.sh [path/to/arbiter]   (default: target/debug/arbiter)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-target/debug/arbiter}")
docs=$(realpath docs)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shot NAME SECONDS COMMAND...: runs COMMAND in a fresh 1920×1080 X server and grabs the screen
# after SECONDS.
shot() {
  local name=$1 wait=$2
  shift 2
  xvfb-run -a -s "-screen 0 1920x1080x24" bash -c '
    "$@" >"'"$work"'/'"$name"'.log" 2>&1 & pid=$!
    sleep '"$wait"'
    import -window root "'"$docs"'/'"$name"'.png"
    kill $pid 2>/dev/null || true
    wait $pid 2>/dev/null || true
  ' _ "$@"
  echo "docs/$name.png"
}

cd "$work"
shot panel 40 "$bin" demo
shot duel-panel 40 "$bin" duel table --source synthetic:3 --journal "$work/duel.jsonl"
shot message-panel 30 "$bin" message table --source synthetic
"$bin" fof new --journal "$work/fof.jsonl" --mission "$OLDPWD/models/catalogues/fof/demo-mission.toml" --seed 2026 >/dev/null
"$bin" fof next --journal "$work/fof.jsonl" >/dev/null
shot fof-panel 12 "$bin" fof panel --journal "$work/fof.jsonl"
