#!/usr/bin/env bash
# Trunk post-build hook (see Trunk.toml), in order, after the app's module
# is split at its lazy functions (its chunks and their loader placed beside
# the glue, crates/cli/src/split.rs):
# 0. the corpus compiled once (a malformed one fails the build with file:line)
#    into the files the page reads, each named for its content:
#    corpus-<hash>.bin (the papers part, which index.html preloads), the
#    index and its packs (postings, positions), the meaning file and, for a
#    long list, the parts it ships apart (bodies, titles, tags, map,
#    vectors); the first screen (the first twelve papers) into index.html;
# 1. every paper as static HTML in papers.html (paged above 2,000 papers: papers-2.html, …;
#    linked from a <noscript> note), and the corpus title as
#    the page title, so browsers without JavaScript/WebAssembly and search
#    engines see the content; the corpus title as the installed app's name;
# 2. the stylesheets index.html links merged into one file (the page's first
#    paint waits for every stylesheet: one request instead of one each);
# 3. the page's compiler (a Web Worker, which Trunk names compiler.js) renamed
#    for its content and linked as <link data-compiler>;
# 4. Trunk's inline loader moved to a file (start-<hash>.js), so the page runs
#    under a Content-Security-Policy without 'unsafe-inline' scripts, and
#    fetches the WebAssembly module after the first paint (no preload);
# 5. explorer-single-file.html: the whole app in one file, for file:// and mail
#    (up to 32 MB, about 8,000 papers: above, it says so and writes none),
#    made from the site as it is served (so the page's compiler, publishing
#    a list, makes the same file from the same files);
# 6. sw.js, whose precache list must cover the final index.html;
# 7. the files every first visit downloads, written beside themselves
#    brotli-compressed at quality 11 (NAME.br), for servers that send them
#    as they are.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}"
# What Trunk staged before this hook (the module, its loader, the shell)
# does not depend on the list: kept, `./dev` builds other lists' pages
# from it without running Trunk again (its `corpus_build`).
cli() { cargo run --quiet -p explorer-cli -- "$@"; }
# wasm-opt from npm's binaryen (tools/bootstrap.sh), whoever runs Trunk.
export PATH="$PWD/tools/node_modules/.bin:$PATH"
# The app's module split at its lazy functions: Trunk staged it whole, so it
# is made again from the module cargo linked, split first, through wasm-opt
# in a release build (crates/cli/src/split.rs); the chunks placed beside it.
profile=${TRUNK_PROFILE:-release}
target=${CARGO_TARGET_DIR:-target}
optimise=()
[ "$profile" = release ] && optimise=(--optimise)
cli place-split "$TRUNK_STAGING_DIR" "${optimise[@]}" --work "$target/split/$profile" \
  --module "$target/wasm32-unknown-unknown/$profile/paper-explorer.wasm"
if [ -n "${KEEP_APP_STAGED:-}" ]; then
  rm -rf "$KEEP_APP_STAGED" && mkdir -p "$(dirname "$KEEP_APP_STAGED")"
  cp -a "$TRUNK_STAGING_DIR" "$KEEP_APP_STAGED"
fi
cli stage "${CORPUS_DIR:-corpus}" --into "$TRUNK_STAGING_DIR"
cli one-stylesheet "$TRUNK_STAGING_DIR"
cli name-compiler "$TRUNK_STAGING_DIR"
cli external-loader "$TRUNK_STAGING_DIR"
cli single-file "$TRUNK_STAGING_DIR" --out "$TRUNK_STAGING_DIR/explorer-single-file.html"
cli service-worker "$TRUNK_STAGING_DIR"
cli precompress "$TRUNK_STAGING_DIR" --cache "${CARGO_TARGET_DIR:-target}/precompressed"
