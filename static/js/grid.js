// The referees' round grid keeps itself up to date without reloading its 1,000 rows.
//
// Every few seconds it asks the round's live address with the ETag it holds: 304 while
// nothing changed. Otherwise the answer is the counts, the boards left and the queue, the rows
// that moved (usually), and each shown table's row version: the page swaps those in place and
// asks only for any row whose version it still lacks (`?rows=3,17,…`). Between answers it
// rewrites "n minutes ago" from each row's time of last action.
(function () {
  "use strict";
  var grid = document.getElementById("grid");
  if (!grid || !grid.dataset.live || !window.fetch) return;
  var body = document.getElementById("grid-rows");
  var etag = grid.dataset.etag;
  var seconds = Math.max(2, parseInt(grid.dataset.pollSeconds, 10) || 5);
  var BATCH = 200;  // the server's bound on rows per request
  var skew = 0;  // the server's clock minus this one's, from the answers' Date
  var busy = false;
  // Once a form on the page is sent (publish, make official, a ruling…) the page is being left
  // for the answer: a poll that then saw the round change would reload it in the middle, and the
  // reload, not the answer, would take the message that says what was done. Polls wait for the
  // answer, a minute at most (a sending stopped by the user leaves the page where it was).
  var LEAVING_MS = 60000;
  var sentAt = null;
  function leaving() { return sentAt !== null && Date.now() - sentAt < LEAVING_MS; }
  // On window: the last in the event's path, so any handler that cancels the sending ran first.
  window.addEventListener("submit", function (event) { if (!event.defaultPrevented) sentAt = Date.now(); });
  window.addEventListener("pageshow", function (event) { if (event.persisted) sentAt = null; });  // back from the cache

  function address(extra) {
    var url = grid.dataset.live;
    return extra ? url + (url.indexOf("?") === -1 ? "?" : "&") + extra : url;
  }

  function ask(url, headers) {
    return fetch(url, { headers: headers || {}, credentials: "same-origin", cache: "no-store" }).then(function (response) {
      var date = Date.parse(response.headers.get("Date") || "");
      if (!isNaN(date)) skew = date - Date.now();
      return response;
    });
  }

  function replace(id, html) {
    var node = document.getElementById(id);
    if (!node || !html) return;
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#" + id);
    if (fresh) node.replaceWith(fresh);
  }

  function rowsByNumber() {
    var found = {};
    body.querySelectorAll("tr.grid-row").forEach(function (row) { found[row.dataset.table] = row; });
    return found;
  }

  function putRow(number, html, shown) {
    var holder = document.createElement("tbody");
    holder.innerHTML = html;
    var fresh = holder.querySelector("tr.grid-row");
    if (!fresh) return;
    if (shown[number]) {
      shown[number].replaceWith(fresh);
    } else {
      // A table the page did not show yet: in table order.
      var after = null;
      Object.keys(shown).forEach(function (other) {
        if (+other < +number && (!after || +other > +after.dataset.table)) after = shown[other];
      });
      if (after) after.after(fresh); else body.prepend(fresh);
    }
    shown[number] = fresh;
  }

  function fetchRows(numbers, shown) {
    if (!numbers.length) return Promise.resolve();
    var batch = numbers.slice(0, BATCH);
    return ask(address("rows=" + batch.join(",")))
      .then(function (response) {
        if (!response.ok) throw new Error("rows " + response.status);
        return response.json();
      })
      .then(function (data) {
        Object.keys(data.rows || {}).forEach(function (number) { putRow(number, data.rows[number], shown); });
        return fetchRows(numbers.slice(BATCH), shown);
      });
  }

  function minutes() {
    var now = (Date.now() + skew) / 1000;
    body.querySelectorAll("small.since[data-at]").forEach(function (node) {
      var m = Math.max(0, Math.floor((now - parseInt(node.dataset.at, 10)) / 60));
      node.textContent = (m === 1 ? grid.dataset.agoOne : grid.dataset.agoOther).replace("%(m)s", m);
    });
  }

  function update() {
    if (busy || leaving() || document.visibilityState === "hidden") return;
    busy = true;
    ask(address(), { "If-None-Match": etag })
      .then(function (response) {
        if (response.status === 304) return null;
        if (!response.ok) throw new Error("live " + response.status);
        var tag = response.headers.get("ETag");
        return response.json().then(function (data) {
          if (data.round !== grid.dataset.round) {
            if (!leaving()) location.reload();  // published, made official…: the page's other parts change too
            return null;
          }
          replace("todo", data.todo);
          replace("grid-counts", data.counts);
          replace("queue-holder", data.queue);
          var shown = rowsByNumber();
          // The rows that moved since the grid this page holds, when the server still had it.
          Object.keys(data.rows || {}).forEach(function (number) { putRow(number, data.rows[number], shown); });
          var wanted = [];
          var listed = {};
          data.versions.forEach(function (pair) {
            var number = String(pair[0]);
            listed[number] = true;
            if (!shown[number] || shown[number].dataset.version !== pair[1]) wanted.push(number);
          });
          Object.keys(shown).forEach(function (number) {
            if (!listed[number]) { shown[number].remove(); delete shown[number]; }
          });
          // The ETag is kept only once every moved row is in place: a failure asks again.
          return fetchRows(wanted, shown).then(function () { if (tag) etag = tag; });
        });
      })
      .catch(function () { /* offline for a moment, or the session ended: ask again next time */ })
      .then(function () { minutes(); busy = false; });
  }

  setInterval(update, seconds * 1000);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") update(); });
})();
