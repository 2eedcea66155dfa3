#!/usr/bin/env bash
# Idempotent bootstrap: installs, only when missing, what a command of ./dev
# needs. Safe to run any number of times.
#
#   tools/bootstrap.sh build     what building and serving need: the wasm32
#                                target, Trunk, the wasm-bindgen CLI, wasm-opt
#   tools/bootstrap.sh browsers  the above, and the three browser engines with
#                                their WebDriver servers (tests, bench, stress)
#
# Browsers come from Debian's packages (apt-get). Where apt-get is missing
# (macOS, Fedora…), nothing is installed behind your back: the script names
# what to install by hand and stops.
set -euo pipefail
cd "$(dirname "$0")/.."

want=${1:-build}
case $want in
  build | browsers) ;;
  *) echo "usage: tools/bootstrap.sh build|browsers" >&2; exit 2 ;;
esac

TRUNK_VERSION=0.21.14
# The CLI must equal the wasm-bindgen crate version in Cargo.lock exactly.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/"/,"",$3); print $3; exit}' Cargo.lock 2>/dev/null || true)
WASM_BINDGEN_VERSION=${WASM_BINDGEN_VERSION:-0.2.130}
BINARYEN_VERSION=132.0.0

log() { printf '\033[1;34mbootstrap:\033[0m %s\n' "$*"; }
die() { printf '\033[1;31mbootstrap:\033[0m %s\n' "$*" >&2; exit 1; }
export PATH="$HOME/.cargo/bin:$PWD/tools/node_modules/.bin:$PATH"

# What no script here can install: say what is missing and how to get it.
command -v cargo >/dev/null && command -v rustup >/dev/null \
  || die "Rust is missing: install it with rustup (https://rustup.rs), then run this again."
command -v npm >/dev/null \
  || die "npm is missing: install Node.js (with npm) from your system's packages; it brings wasm-opt (binaryen $BINARYEN_VERSION)."

# On a new machine the package installs (apt's browsers, npm's binaryen)
# wait on the network and the disk while the cargo installs below keep both
# cores busy compiling: they run side by side, and the script waits for them
# at the end. The cargo installs share one target directory, so the crates
# they have in common (syn, serde, tokio…) are compiled once, and are built
# for build time, not run time: Trunk's own release profile asks for fat
# LTO in one codegen unit, minutes of a new machine's two cores for tools
# that mostly wait on cargo, wasm-bindgen and wasm-opt.
background=()
logs=$(mktemp -d)
in_background() { # name, command...
  local name=$1; shift
  ("$@" >"$logs/$name.log" 2>&1) &
  background+=("$name:$!")
}

# Browsers from the package registry, never a downloaded build: Chromium
# (chromedriver), Firefox ESR (geckodriver) and WebKitGTK (WebKitWebDriver,
# under Xvfb): the browser tests run in all three engines.
if [ "$want" = browsers ]; then
  need_apt=()
  command -v chromium >/dev/null || need_apt+=(chromium)
  command -v chromedriver >/dev/null || need_apt+=(chromium-driver)
  command -v firefox-esr >/dev/null || need_apt+=(firefox-esr)
  command -v WebKitWebDriver >/dev/null || need_apt+=(webkit2gtk-driver)
  command -v Xvfb >/dev/null || need_apt+=(xvfb)
  if [ ${#need_apt[@]} -gt 0 ]; then
    command -v apt-get >/dev/null || die "the browser tests need ${need_apt[*]} \
(Debian's package names; elsewhere: Chromium with its chromedriver, Firefox ESR, \
WebKitGTK's WebKitWebDriver and MiniBrowser, and Xvfb) and there is no apt-get here: \
install them with your system's packages, then run this again."
    log "installing ${need_apt[*]} (apt, in the background)"
    apt_install() {
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@"
    }
    in_background apt apt_install "${need_apt[@]}"
  fi
fi

# wasm-opt from npm's binaryen (Debian's wasm-opt 108 emits broken modules),
# and MiniSearch, the bench's peer (a few KB, in the same install).
if ! wasm-opt --version 2>/dev/null | grep -q "version 132" \
  || [ ! -f tools/node_modules/minisearch/package.json ]; then
  log "installing binaryen $BINARYEN_VERSION and minisearch (npm, in the background)"
  in_background npm bash -c 'cd tools && npm install --no-audit --no-fund --no-package-lock --silent'
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

tool_builds="${XDG_CACHE_HOME:-$HOME/.cache}/paper-explorer/tool-builds"
tool_install() {
  CARGO_TARGET_DIR=$tool_builds CARGO_PROFILE_RELEASE_LTO=false \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
    cargo install "$@"
}

if ! trunk --version 2>/dev/null | grep -q "$TRUNK_VERSION"; then
  log "installing trunk $TRUNK_VERSION"
  # Without its default features (TLS, the update check): Trunk builds
  # offline here (Trunk.toml) and serves plain http, so it never downloads
  # nor dials out; 16 fewer crates on a new machine's two cores.
  tool_install trunk --version "$TRUNK_VERSION" --locked --no-default-features
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION"; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # Not --locked: the CLI's own lockfile names a crate version the registry lacks.
  tool_install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if [ "$want" = browsers ] && ! command -v geckodriver >/dev/null; then
  log "installing geckodriver"
  tool_install geckodriver
fi

for job in "${background[@]}"; do
  name=${job%%:*}
  if ! wait "${job#*:}"; then
    log "$name failed:"
    cat "$logs/$name.log" >&2
    exit 1
  fi
done
rm -rf "$logs"
log "tools ready ($want)"
