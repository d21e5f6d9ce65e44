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
