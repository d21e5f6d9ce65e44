// Behaviour every page shares. No inline handlers: the Content-Security-Policy allows scripts from this site only.
(function () {
  "use strict";
  document.querySelectorAll("select[data-submit-on-change]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });

  // A search box that filters table rows as one types (the form still works without JavaScript).
  document.querySelectorAll("input[data-filter-rows]").forEach(function (input) {
    var rows = document.querySelectorAll(input.getAttribute("data-filter-rows"));
    input.addEventListener("input", function () {
      var query = input.value.trim().toLowerCase();
      rows.forEach(function (row) {
        var text = row.getAttribute("data-search") || row.textContent.toLowerCase();
        row.hidden = query !== "" && text.indexOf(query) === -1;
      });
    });
  });

  // Whether a control of `form` holds another value than the page was served with: coming back
  // to a page, the browser may put back what was typed before. The entry pages are served with
  // their preview drawn and ask the engine again on load only then.
  window.formChangedSinceServed = function (form) {
    return Array.prototype.some.call(form.elements, function (control) {
      if (control.type === "radio" || control.type === "checkbox") return control.checked !== control.defaultChecked;
      if (control.tagName === "SELECT") {
        var served = Array.prototype.findIndex.call(control.options, function (o) { return o.defaultSelected; });
        return control.selectedIndex !== Math.max(served, 0);
      }
      return "defaultValue" in control && control.value !== control.defaultValue;
    });
  };

  // Live pages: a public page asks now and then (a HEAD, answered from the cache) whether a
  // newer version of itself exists, and if so swaps its content in place — no reload.
  var version = document.querySelector('meta[name="page-etag"]');
  if (version && window.fetch && window.DOMParser) {
    var seconds = Math.max(1, parseInt(version.getAttribute("data-poll-seconds"), 10) || 30);
    setInterval(function () {
      if (document.visibilityState === "hidden") { return; }
      fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          var tag = response.headers.get("ETag");
          if (!tag || tag === version.getAttribute("content")) { return null; }
          return fetch(location.href, { cache: "no-store", credentials: "same-origin" }).then(function (page) { return page.text(); });
        })
        .then(function (html) {
          if (!html) { return; }
          var fresh = new DOMParser().parseFromString(html, "text/html");
          var main = fresh.querySelector("main");
          var tag = fresh.querySelector('meta[name="page-etag"]');
          if (main && tag) {
            document.querySelector("main").innerHTML = main.innerHTML;
            version.setAttribute("content", tag.getAttribute("content"));
          }
        })
        .catch(function () { /* offline for a moment: ask again next time */ });
    }, seconds * 1000);
  }

  // The round clock (the referees' grid, the organiser's round page): counts down from the time
  // left the page was sent with. A page swapped in by the live update above brings its own
  // element, and so its own time left.
  function clockText(seconds) {
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = seconds % 60;
    var mm = (hours && minutes < 10 ? "0" : "") + minutes;
    return (hours ? hours + ":" : "") + mm + ":" + (rest < 10 ? "0" : "") + rest;
  }
  function tickClocks() {
    document.querySelectorAll("[data-countdown]").forEach(function (clock) {
      if (clock.getAttribute("data-state") !== "running") { return; }
      if (!clock.deadline) {
        clock.deadline = Date.now() + (parseInt(clock.getAttribute("data-remaining"), 10) || 0) * 1000;
      }
      var left = Math.max(0, Math.ceil((clock.deadline - Date.now()) / 1000));
      var face = clock.querySelector(".clock-time");
      if (left === 0) {
        face.textContent = clock.getAttribute("data-time-up");
        clock.classList.add("time_up");
      } else {
        face.textContent = clockText(left);
      }
    });
  }
  tickClocks();
  setInterval(tickClocks, 1000);

  // The event form proposes a web address from the name's pinyin until the organiser edits it.
  var slug = document.querySelector("input[data-slug-from]");
  if (slug) {
    var name = document.querySelector(slug.getAttribute("data-slug-from"));
    var edited = slug.value !== "";
    slug.addEventListener("input", function () { edited = slug.value !== ""; });
    var timer = null;
    name.addEventListener("input", function () {
      if (edited) { return; }
      clearTimeout(timer);
      timer = setTimeout(function () {
        fetch(slug.getAttribute("data-suggest-url") + "?name=" + encodeURIComponent(name.value.slice(0, 200)), {credentials: "same-origin"})
          .then(function (response) { return response.json(); })
          .then(function (data) { if (!edited) { slug.value = data.slug || ""; } });
      }, 250);
    });
  }
})();
