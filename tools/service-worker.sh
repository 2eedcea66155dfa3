#!/usr/bin/env bash
# Trunk post-build hook: writes sw.js into the staged build. It precaches
# every file of this build under a cache named for the build's content hash,
# so one build's HTML, JS and WASM are always served together, and a new
# deploy gets a new cache (the old one is deleted when the new worker takes
# over, which the page asks for only when the user clicks "Reload"). The
# files the page fetches only on first use (the meaning file, most of the
# build's bytes) are not precached: they go into the same cache when first
# fetched, and work offline from then on.
set -euo pipefail
dir="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}"
cd "$dir"
all=$(find . -type f ! -name sw.js ! -name explorer-single-file.html ! -name 'papers*.html' | sed 's|^\./||' | LC_ALL=C sort)
version=$(for f in $all; do sha256sum "$f"; done | sha256sum | cut -c1-16)
files=$(echo "$all" | grep -v '^meaning-' || true)
lazy=$(echo "$all" | grep '^meaning-' || true)
{
  echo "// Generated at build time by tools/service-worker.sh; do not edit."
  echo "const CACHE = 'paper-explorer-$version';"
  printf 'const FILES = ["./"'
  for f in $files; do printf ', "./%s"' "$f"; done
  echo '];'
  printf 'const ON_FIRST_USE = ['
  sep=''
  for f in $lazy; do printf '%s"./%s"' "$sep" "$f"; sep=', '; done
  echo '].map((f) => new URL(f, self.location).href);'
  cat <<'JS'
self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
});
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('paper-explorer-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});
self.addEventListener('message', (event) => {
  if (event.data === 'skipWaiting') self.skipWaiting();
});
self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  // The page at any ?query is the one cached index.html.
  const opts = req.mode === 'navigate' ? { ignoreSearch: true } : {};
  event.respondWith(
    caches.open(CACHE).then((cache) => cache.match(req, opts).then((hit) => hit || fetch(req).then((res) => {
      // A file fetched on first use is kept for offline from then on.
      if (res.ok && ON_FIRST_USE.includes(req.url)) cache.put(req, res.clone());
      return res;
    }))),
  );
});
JS
} > sw.js
echo "service worker: $(echo "$files" | wc -l) files precached as paper-explorer-$version, $(echo "$lazy" | grep -c . || true) cached on first use"
