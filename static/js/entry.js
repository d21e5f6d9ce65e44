// Deal entry: keyboard assignment of cards and a live preview.
// Scores are never computed here: the form is posted to the server's
// preview endpoint (the rules engine) and its answer is drawn.
(function () {
  "use strict";
  var form = document.getElementById("entry");
  if (!form) return;
  var grid = document.getElementById("card-grid");
  var rows = Array.prototype.slice.call(grid.querySelectorAll(".card-row"));
  var seatKeys = { n: "N", e: "E", s: "S", w: "W", "1": "N", "2": "E", "3": "S", "4": "W" };

  function focusRow(index) {
    var row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    var target = row.querySelector("input:checked") || row.querySelector("input");
    target.focus();
  }

  grid.addEventListener("keydown", function (event) {
    var row = event.target.closest(".card-row");
    if (!row || event.ctrlKey || event.metaKey || event.altKey) return;
    var index = rows.indexOf(row);
    var seat = seatKeys[event.key.toLowerCase()];
    if (seat) {
      event.preventDefault();
      var input = row.querySelector('input[value="' + seat + '"]');
      input.checked = true;
      input.dispatchEvent(new Event("change", { bubbles: true }));
      if (index < rows.length - 1) focusRow(index + 1);
      else form.querySelector('.specials select:not(:disabled)').focus();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      focusRow(index + (event.key === "ArrowDown" ? 1 : -1));
    } else if (event.key === "Backspace" || event.key === "Delete") {
      event.preventDefault();
      row.querySelectorAll("input").forEach(function (i) { i.checked = false; });
      form.dispatchEvent(new Event("change"));
    }
  });

  var timer = null;
  var pending = null;
  function schedulePreview() {
    clearTimeout(timer);
    timer = setTimeout(preview, 120);
  }

  function setText(node, text) { node.textContent = text === null || text === undefined ? "" : String(text); }

  // Problems are shown once every card has a seat (or after a save the server refused):
  // while a referee is still typing, "♥5 未分配" for the cards not reached yet is no news.
  // Nothing is inserted into the grid's rows, so no row moves as one types.
  var saved = document.getElementById("errors") !== null;
  function unassigned() {
    return rows.filter(function (row) { return !row.querySelector("input:checked"); }).length;
  }

  function draw(data) {
    var problems = document.getElementById("problems");
    problems.innerHTML = "";
    rows.forEach(function (row) { row.classList.remove("has-error"); });
    var penaltyErrors = document.getElementById("penalty-errors");
    if (penaltyErrors) penaltyErrors.innerHTML = "";
    var left = unassigned();
    var progress = document.getElementById("grid-progress");
    if (progress) {
      setText(progress, left ? interpolate(gettext("还有 %(left)s 张牌未分配"), { left: left }, true) : gettext("每张牌都已分配"));
    }
    var touched = left < rows.length;
    (data.problems || []).forEach(function (p) {
      // A field the form refused (a penalty that is not a number in range) is named beside it at once.
      if (p.field && p.field.indexOf("penalty-") === 0 && penaltyErrors) {
        var line = document.createElement("p");
        line.className = "field-error";
        line.id = "error-" + p.field;
        line.setAttribute("role", "alert");
        line.textContent = p.message;
        penaltyErrors.appendChild(line);
        return;
      }
      if (!touched || (left && !saved)) return;
      // A problem about a card marks that card's row (both copies with two decks); the words go in the list.
      rows.forEach(function (row) {
        var label = row.dataset.label;
        if (p.card && (label === p.card || label === p.card + "①" || label === p.card + "②")) row.classList.add("has-error");
      });
      var li = document.createElement("li");
      li.textContent = p.message;
      li.dataset.code = p.code;
      problems.appendChild(li);
    });
    var bar = document.getElementById("bar-scores");
    if (bar) setText(bar, data.sides ? "NS " + data.sides.NS + " · EW " + data.sides.EW : "");
    ["N", "E", "S", "W"].forEach(function (seat) {
      setText(document.querySelector('#preview-scores [data-seat="' + seat + '"]'), data.scores ? data.scores[seat] : "");
    });
    ["N", "E", "S", "W"].forEach(function (seat) {
      setText(document.querySelector('#preview-scores [data-raw="' + seat + '"]'), data.raw ? data.raw[seat] : "");
    });
    ["NS", "EW"].forEach(function (side) {
      setText(document.querySelector('#preview-scores [data-side="' + side + '"]'), data.sides ? data.sides[side] : "");
    });
    var questions = document.getElementById("questions");
    questions.innerHTML = "";
    form.querySelectorAll("select.ask").forEach(function (select) { select.classList.remove("ask"); });
    (data.questions || []).forEach(function (q) {
      var li = document.createElement("li");
      li.textContent = q.message;
      questions.appendChild(li);
      var select = form.querySelector('select[name="holder-' + q.card + '"]');
      if (select) select.classList.add("ask");
    });
    // The breakdown and the 局 come in the page's words (the server served the page with them drawn).
    var breakdown = document.getElementById("breakdown");
    breakdown.innerHTML = "";
    (data.breakdown_lines || []).forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      breakdown.appendChild(li);
    });
    setText(document.getElementById("games"), data.games_line);
  }

  function preview() {
    if (pending) pending.abort();
    pending = new AbortController();
    fetch(form.dataset.preview, {
      method: "POST",
      body: new FormData(form),
      headers: { "X-Requested-With": "fetch" },
      credentials: "same-origin",
      signal: pending.signal,
    }).then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) { if (data) draw(data); })
      .catch(function () { /* a newer preview replaced this one */ });
  }

  // Holders not needed (a card not exposed, in an event that does not count 自得) are not asked.
  function askHolders() {
    form.querySelectorAll("select[data-only-when-exposed]").forEach(function (select) {
      var exposure = form.querySelector('select[name="' + select.dataset.exposedBy + '"]');
      select.disabled = !(exposure && exposure.value);
    });
  }
  form.addEventListener("change", askHolders);
  form.addEventListener("change", schedulePreview);
  form.addEventListener("input", schedulePreview);
  document.addEventListener("keydown", function (event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "s") {
      event.preventDefault();
      form.requestSubmit(document.getElementById("save"));
    } else if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      // One key: save and open the next board (or just save on the last one).
      event.preventDefault();
      form.requestSubmit(document.getElementById("save-next") || document.getElementById("save"));
    }
  });
  // The page comes with the preview of its form drawn (scoring.web.referee.preview_page). Coming
  // back to it, the browser puts back what was typed, after the load event and before pageshow:
  // only then is the engine asked. A board recorded not played shows the score it was given; a
  // preview of its empty form would blank it.
  window.addEventListener("pageshow", function () {
    askHolders();
    if (!form.hasAttribute("data-recorded-not-played") && window.formChangedSinceServed(form)) preview();
  });
  if (!form.querySelector("#errors")) focusRow(rows.findIndex(function (r) { return !r.querySelector("input:checked"); }));
})();
