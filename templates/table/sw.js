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

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;  // writes go to the network; the page's outbox keeps them
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === CONFIG.page) {
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(CONFIG.page, copy); });
      }
      return response;
    }).catch(function () {
      return caches.match(CONFIG.page, { ignoreVary: true });
    }));
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
