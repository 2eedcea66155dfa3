// A file named for its content that the page has just fetched (the papers,
// the index, the module) is taken from the browser's HTTP cache, stale or
// not ('force-cache': its content cannot have changed), instead of being
// downloaded a second time on the first visit; the page itself is fetched.
// Trunk writes its 64-bit hashes without leading zeros (one build in
// sixteen names its module with 15 digits); ours are 16. Twelve digits at
// least keep the icons' sizes (icon-192.png) out.
const HASHED = /-[0-9a-f]{12,16}(_bg)?[.][a-z]+$/;
// A browser that keeps a list of the reader's own (a cache of
// KEPT_LIST_CACHES) gets the module's chunks too: the one that reads the
// kept lists opens them offline, even under a build that took over while
// offline. Everyone else fetches a chunk when a feature is first used.
const keepsAList = () => caches.keys().then((keys) => keys.some((k) => k.startsWith(KEPT_LIST_CACHES)));
self.addEventListener('install', (event) => {
  const request = (f) => (HASHED.test(f) ? new Request(f, { cache: 'force-cache' }) : f);
  // The page is fetched once, as ./, and kept as ./index.html too.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map(request))
    .then(keepsAList)
    .then((keeps) => keeps && cache.addAll(FOR_KEPT_LISTS.map(request)))
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
