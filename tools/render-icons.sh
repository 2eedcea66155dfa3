#!/usr/bin/env bash
# Renders public/icon.svg to the PNG icons the manifest lists (older install
# prompts and iOS want PNG). Run after editing the SVG; the PNGs are committed.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in 192 512; do
  printf '<html><style>html,body{margin:0;background:transparent}svg{display:block;width:%spx;height:%spx}</style><body>%s</body></html>' \
    "$s" "$s" "$(cat public/icon.svg)" > "$tmp/icon.html"
  chromium --headless=new --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --default-background-color=00000000 --window-size="$s,$s" \
    --screenshot="public/icon-$s.png" "file://$tmp/icon.html" 2>/dev/null
done
ls -l public/icon-*.png
