// The service worker: after one visit the page, its wasm module and the bundled
// puzzles open with no network. web/build writes the list of the page's files and a
// version (a digest of them) in place of the two markers below; a new version fills
// a new cache and drops the old one.
const VERSION = '__VERSION__';
const FILES = __FILES__;
const CACHE = `crossat-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(['./', ...FILES])).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('crossat-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// The cached copy first (the page's files change only with a new version); anything
// else from the network, kept for next time.
self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const hit = await cache.match(req, { ignoreSearch: true });
    if (hit) return hit;
    const res = await fetch(req);
    if (res.ok) cache.put(req, res.clone());
    return res;
  }));
});
