#!/usr/bin/env bash
# Trunk post-build hook: writes sw.js into the staged build. It precaches
# every file of this build under a cache named for the build's content hash,
# so one build's HTML, JS and WASM are always served together, and a new
# deploy gets a new cache (the old one is deleted when the new worker takes
# over, which the page asks for only when the user clicks "Reload"). The
# files the page fetches only on first use (the meaning file, the packs
# of postings and of their positions, both named postings-<hash>.bin,
# fetched as queries read them: together most of the build's
# bytes, and the packs of the word list, words-<hash>.bin, fetched behind
# the first screen) are not precached: they go into the same cache when first fetched,
# and work offline from then on. A list whose packs of postings come to at
# most 1 MB (about 1,500 papers; the page fetches them all at once too:
# EAGER_POSTINGS_BYTES in crates/core/src/search/index.rs) has them
# precached, so that after one visit it searches offline as a whole; a
# larger list keeps what its reader's queries fetched. The packs of a long
# list's paper bodies and titles (BODIES_APART_FROM in
# crates/core/src/model/body.rs) are never precached: each comes with the
# cards that show it; nor is its title order (title-order-<hash>.bin),
# fetched when the results are first sorted by title; nor is a long
# list's topic map file (map-<hash>.bin), fetched when the map is opened,
# nor its tags' file (tags-<hash>.bin), fetched once a count or a filter
# needs it: precached at install, it would share the link with the first
# answer; nor the lists of a long list's paper vectors (vectors-<hash>.bin,
# LISTS_FROM in crates/core/src/search/meaning/lists.rs), each fetched
# when a ranking by meaning first reads it.
set -euo pipefail
dir="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}"
cd "$dir"
all=$(find . -type f ! -name sw.js ! -name explorer-single-file.html ! -name 'papers*.html' | sed 's|^\./||' | LC_ALL=C sort)
# One sha256sum for every file (a field-size list has 40,000 packs: a
# process each took minutes); its lines are the same as one file at a time.
version=$(echo "$all" | xargs -d '\n' sha256sum | sha256sum | cut -c1-16)
on_first_use='^(meaning|vectors|postings|words|bodies|titles|title-order|map|tags)-[0-9a-f]{16}[.]bin$'
postings_bytes=$(find . -maxdepth 1 -name 'postings-*.bin' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
if [ "$postings_bytes" -le 1000000 ]; then
  not_precached='^(meaning|vectors|bodies|titles|title-order|map|tags)-[0-9a-f]{16}[.]bin$'
else
  not_precached=$on_first_use
fi
# The page's compiler (about 4 MB), fetched only when a reader opens a list
# of their own, and kept from then on.
compiler='^compiler(-start)?-[0-9a-f]{16}(_bg[.]wasm|[.]js)$'
# Not precached either, for nothing offline reads them through this worker:
# index.html (the page, precached as ./ and kept under both names), the
# installed app's icons (the browser fetches them itself, when it
# installs the app) and embed.js (read by other sites' pages, which this
# worker does not serve). A first visit downloaded them again, 31 KB of
# its 527.
not_needed='^(index[.]html|icon-[0-9]+[.]png|embed[.]js)$'
files=$(echo "$all" | grep -Ev "$not_precached" | grep -Ev "$compiler" | grep -Ev "$not_needed" || true)
lazy=$(echo "$all" | grep -Ec "$not_precached|$compiler" || true)
{
  echo "// Generated at build time by tools/service-worker.sh; do not edit."
  echo "const CACHE = 'paper-explorer-$version';"
  printf 'const FILES = ["./"'
  for f in $files; do printf ', "./%s"' "$f"; done
  echo '];'
  echo "const ON_FIRST_USE = /\/(${on_first_use#^}|${compiler#^})/;"
  cat <<'JS'
// A file named for its content that the page has just fetched (the papers,
// the index, the module) is taken from the browser's HTTP cache, stale or
// not ('force-cache': its content cannot have changed), instead of being
// downloaded a second time on the first visit; the page itself is fetched.
// Trunk writes its 64-bit hashes without leading zeros (one build in
// sixteen names its module with 15 digits); ours are 16. Twelve digits at
// least keep the icons' sizes (icon-192.png) out.
const HASHED = /-[0-9a-f]{12,16}(_bg)?[.][a-z]+$/;
self.addEventListener('install', (event) => {
  const requests = FILES.map((f) => (HASHED.test(f) ? new Request(f, { cache: 'force-cache' }) : f));
  // The page is fetched once, as ./, and kept as ./index.html too.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)
    .then(() => cache.match('./'))
    .then((page) => cache.put('./index.html', page))));
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
      if (res.ok && ON_FIRST_USE.test(new URL(req.url).pathname)) cache.put(req, res.clone());
      return res;
    }))),
  );
});
JS
} > sw.js
echo "service worker: $(echo "$files" | wc -l) files precached as paper-explorer-$version, $lazy cached on first use"
