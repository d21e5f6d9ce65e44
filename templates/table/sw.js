// The table page offline (table-api.md): the page and its assets are kept in a cache; the
// page itself keeps the unsent actions (localStorage), so a reload with no network shows them.
// Network first for the page (a fresh state when there is one), cache first for the assets.
"use strict";
var CONFIG = {{ config|safe }};
var CACHE = "huapai-table-" + CONFIG.version;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll([CONFIG.page].concat(CONFIG.assets));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("huapai-table-") === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

// A replaced link answers 404 from then on (table-api.md): its offline copy must not go on
// showing the old table. At the first 404 of the page or of its state (a board's 404 may be a
// board that does not exist, so only these two), the kept page is dropped and this worker
// unregisters itself; the page clears what it kept (static/js/table.js).
function forget() {
  return caches.open(CACHE).then(function (cache) { return cache.delete(CONFIG.page); }).then(function () {
    return self.registration.unregister();
  });
}

function watched(request) {
  return fetch(request).then(function (response) {
    if (response.status === 404) forget();
    return response;
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;  // writes go to the network; the page's outbox keeps them
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === CONFIG.page) {
    event.respondWith(fetch(request).then(function (response) {
      if (response.status === 404) {
        forget();
      } else if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(CONFIG.page, copy); });
      }
      return response;
    }).catch(function () {
      return caches.match(CONFIG.page, { ignoreVary: true });
    }));
  } else if (url.pathname === CONFIG.page + "state") {
    event.respondWith(watched(request));  // the network's answer, watched for a 404
  } else if (CONFIG.assets.indexOf(url.pathname) !== -1) {
    event.respondWith(caches.match(request, { ignoreVary: true }).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
        return response;
      });
    }));
  }
});
