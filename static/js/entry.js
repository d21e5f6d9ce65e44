// Every game's entry form: its fields as deal JSON and back, for a page that sends the deal itself
// (the table link's page, table-api.md), and the entry page's keys and live preview on both pages.
// The shaping is the server's form's (scoring.web.forms.GameDealForm.deal_json): a field left
// empty is absent, an unticked box is absent, a count of 0 is left out, a choice is its value as
// the law writes it (data-json), "nobody" in a seat-or-nobody field is null. A widget field
// (.field-widget: 华牌's card grid, its exposures with their holders, its penalties) is shaped as
// scoring.entry.grid shapes it.
window.EntryFields = (function () {
  "use strict";
  function rowsOf(form) { return Array.prototype.slice.call(form.querySelectorAll(".field-row")); }
  function widgetsOf(form, kind) { return Array.prototype.slice.call(form.querySelectorAll('.field-widget[data-kind="' + kind + '"]')); }
  // A disabled field is not asked (跑胡子's win-only fields at a 黄庄, 升级's 台上 after the first deal).
  function checked(row) { return Array.prototype.slice.call(row.querySelectorAll("input:checked:not(:disabled)")); }
  // A copy's place in its card's rows: "SQ" is the first copy, "SQ-2" the second (two decks).
  function cardOf(name) { return name.replace(/^(card|holder|exposed)-/, "").replace(/-[0-9]+$/, ""); }
  function copyOf(name) { var m = /-([0-9]+)$/.exec(name.replace(/^(card|holder|exposed)-/, "")); return m ? parseInt(m[1], 10) : 1; }
  function seatsOf(widget) {
    var first = widget.querySelector(".card-row");
    return first ? Array.prototype.map.call(first.querySelectorAll("input"), function (i) { return i.value; }) : [];
  }
  function gridDeal(form, deal) {
    widgetsOf(form, "cards").forEach(function (widget) {
      var captured = {};
      seatsOf(widget).forEach(function (seat) { captured[seat] = []; });
      widget.querySelectorAll(".card-row").forEach(function (row) {
        var chosen = row.querySelector("input:checked");
        if (chosen) captured[chosen.value].push(cardOf(row.dataset.field));
      });
      deal[widget.dataset.key] = captured;
    });
    widgetsOf(form, "exposures").forEach(function (widget) {
      var holders = {}, exposed = {}, cards = [], copies = 1;
      widget.querySelectorAll('select[name^="exposed-"]').forEach(function (select) {
        var card = cardOf(select.name);
        if (cards.indexOf(card) === -1) cards.push(card);
        copies = Math.max(copies, copyOf(select.name));
      });
      cards.forEach(function (card) {
        // Exposed copies first, each with its holder (deal-json.md), then holders of unexposed copies.
        var shown = [], shownHolders = [], heldOnly = [], unheld = [];
        for (var copy = 1; copy <= copies; copy++) {
          var suffix = copy === 1 ? "" : "-" + copy;
          var holderSelect = widget.querySelector('select[name="holder-' + card + suffix + '"]');
          var holder = holderSelect && !holderSelect.disabled ? holderSelect.value : "";
          var kind = widget.querySelector('select[name="exposed-' + card + suffix + '"]').value;
          if (kind && holder) { shown.push(kind); shownHolders.push(holder); }
          else if (kind) unheld.push(kind);
          else if (holder) heldOnly.push(holder);
        }
        var seats = shownHolders.concat(heldOnly);
        var kinds = shown.concat(unheld);
        if (copies === 1) {
          if (seats.length) holders[card] = seats[0];
          if (kinds.length) exposed[card] = kinds[0];
        } else {
          if (seats.length) holders[card] = seats;
          if (kinds.length) exposed[card] = kinds;
        }
      });
      deal.holders = holders;
      deal[widget.dataset.key] = exposed;
    });
    widgetsOf(form, "penalties").forEach(function (widget) {
      var penalties = {};
      widget.querySelectorAll('input[name^="penalty-"]').forEach(function (input) {
        var raw = input.value.replace(/[\s\-−－]/g, "");
        if (raw) penalties[input.name.slice(8)] = /^[0-9]{1,9}$/.test(raw) ? -parseInt(raw, 10) : raw;
      });
      deal[widget.dataset.key] = penalties;
    });
  }
  function gridFill(form, deal) {
    function each(value) { return Array.isArray(value) ? value : [value]; }
    widgetsOf(form, "cards").forEach(function (widget) {
      var copies = {};
      var captured = deal[widget.dataset.key] || {};
      Object.keys(captured).forEach(function (seat) {
        captured[seat].forEach(function (card) {
          copies[card] = (copies[card] || 0) + 1;
          var field = "card-" + card + (copies[card] > 1 ? "-" + copies[card] : "");
          var input = widget.querySelector('input[name="' + field + '"][value="' + seat + '"]');
          if (input) input.checked = true;
        });
      });
    });
    widgetsOf(form, "exposures").forEach(function (widget) {
      [["holder", deal.holders || {}], ["exposed", deal[widget.dataset.key] || {}]].forEach(function (pair) {
        Object.keys(pair[1]).forEach(function (card) {
          each(pair[1][card]).forEach(function (value, i) {
            var select = widget.querySelector('select[name="' + pair[0] + "-" + card + (i ? "-" + (i + 1) : "") + '"]');
            if (select) select.value = value;
          });
        });
      });
    });
    widgetsOf(form, "penalties").forEach(function (widget) {
      var penalties = deal[widget.dataset.key] || {};
      Object.keys(penalties).forEach(function (seat) {
        var input = widget.querySelector('input[name="penalty-' + seat + '"]');
        if (input) input.value = String(-penalties[seat]);
      });
    });
  }
  function dealOf(form) {
    var deal = {};
    rowsOf(form).forEach(function (row) {
      var key = row.dataset.key;
      var kind = row.dataset.kind;
      var on = checked(row);
      if (kind === "seats") {
        if (on.length) deal[key] = on.map(function (i) { return i.value; });
      } else if (kind === "bool") {
        if (on.length) deal[key] = true;
      } else if (kind === "counts" || kind === "per_seat" || kind === "int") {
        var counts = {};
        row.querySelectorAll('input[type="number"]').forEach(function (input) {
          if (input.value === "" || input.disabled) return;
          var number = Number(input.value);
          var value = Number.isInteger(number) ? number : input.value;  // the engine names a bad one
          // A count the law assumes when nothing is said (飞弹's 0, 王霸's 0) is left out; any other
          // number given is kept, 0 included where the law assumes none (scoring.web.forms).
          var assumed = kind === "counts" ? 0 : row.hasAttribute("data-default") ? Number(row.dataset.default) : null;
          if (kind === "int") deal[key] = value;
          else if (value !== assumed) counts[input.name.slice(key.length + 1)] = value;
        });
        // A count per seat the deal always has (跑胡子's 王霸) is sent even when every count is 0.
        if (kind === "per_seat" || (kind !== "int" && Object.keys(counts).length)) deal[key] = counts;
      } else {
        var value = on.length && on[0].value !== "" ? (on[0].dataset.json ? JSON.parse(on[0].dataset.json) : on[0].value) : "";
        if (kind === "seat_or_huang") deal[key] = value === "" ? null : value;
        else if (value !== "") deal[key] = value;
      }
    });
    gridDeal(form, deal);
    return deal;
  }
  function fill(form, deal) {
    deal = deal || {};
    rowsOf(form).forEach(function (row) {
      var key = row.dataset.key;
      var value = deal[key];
      row.querySelectorAll("input").forEach(function (input) {
        if (input.type === "number") {
          var own = input.name === key ? value : value && value[input.name.slice(key.length + 1)];
          input.value = own === undefined || own === null ? "" : String(own);
        } else if (row.dataset.kind === "seats") {
          input.checked = Array.isArray(value) && value.indexOf(input.value) !== -1;
        } else if (row.dataset.kind === "bool") {
          input.checked = value === true;
        } else {
          var written = input.dataset.json ? JSON.parse(input.dataset.json) : input.value;
          if (value === null && input.dataset.json === "null") input.checked = true;  // nobody (黄庄)
          else input.checked = value === undefined || value === null ? input.value === "" : written === value;
        }
      });
    });
  }
  return { deal: dealOf, fill: function (form, deal) { fill(form, deal); gridFill(form, deal || {}); } };
})();


// Deal entry (蚌埠斗地主: landlord, bid, 明/暗, who went out first, 飞弹, 天炸/天尊; 跑胡子: winner or
// 黄庄, 王霸, 胡息…; 华牌: who took each point card, the exposures, the penalties): keys choose a
// field's value or a card's taker and move on, and a live preview.
// Scores are never computed here: the form is posted to the server's preview endpoint (the rules
// engine) and its answer is drawn, each refusal beside the field (or card) it names.
(function () {
  "use strict";
  var form = document.getElementById("entry");
  if (!form) return;
  var rows = Array.prototype.slice.call(form.querySelectorAll(".field-row"));
  var cardRows = Array.prototype.slice.call(form.querySelectorAll(".card-row"));
  var seatKeys = { n: "N", e: "E", s: "S", w: "W", "1": "N", "2": "E", "3": "S", "4": "W" };
  var saved = document.getElementById("errors") !== null;
  var touched = {};

  function inputsOf(row) { return Array.prototype.slice.call(row.querySelectorAll("input")); }

  function focusRow(index) {
    var row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    var inputs = inputsOf(row);
    var target = inputs.filter(function (i) { return i.checked; })[0] || inputs[0];
    if (target) target.focus();
  }

  function enabled(row) { return inputsOf(row).some(function (i) { return !i.disabled; }); }

  function nextRow(row) {
    var index = rows.indexOf(row) + 1;
    while (index < rows.length && !enabled(rows[index])) index++;  // a field this deal does not have
    if (index < rows.length) focusRow(index);
    else document.getElementById("save").focus();
  }

  // The key a value is chosen by where the game names one (跑胡子: H 黄庄, Z 自摸…).
  function hotkeyValue(row, lower) {
    var match = inputsOf(row).filter(function (i) { return i.dataset.hotkey && i.dataset.hotkey === lower; })[0];
    return match ? match.value : undefined;
  }

  // The value a key means in a row: a seat by its letter, or by its place among the table's
  // seats (1–4 at N E S W, 1–3 at E S W); a bid by its digit, 抢牌 by G; a game's own key.
  function valueForKey(row, key) {
    var kind = row.dataset.kind;
    var lower = key.toLowerCase();
    var hot = hotkeyValue(row, lower);
    if (hot !== undefined) return hot;
    if (kind === "seat" || kind === "seats" || kind === "seat_or_huang") {
      var seats = inputsOf(row).map(function (i) { return i.value; }).filter(function (v) { return /^[NESW]$/.test(v); });
      if (/^[1-9]$/.test(lower)) return seats[Number(lower) - 1];
      return seats.indexOf(key.toUpperCase()) >= 0 ? key.toUpperCase() : seatKeys[lower];
    }
    if (kind === "choice") {
      var match = inputsOf(row).filter(function (i) {
        return i.value && (i.value.toLowerCase() === lower || i.value.toLowerCase().charAt(0) === lower);
      })[0];
      return match ? match.value : undefined;
    }
    return undefined;
  }

  // A card grid: a seat's key gives the card to that seat and moves to the next card; after the
  // last card, on to the exposures.
  function focusCard(index) {
    var row = cardRows[Math.max(0, Math.min(cardRows.length - 1, index))];
    var target = row.querySelector("input:checked") || row.querySelector("input");
    target.focus();
  }
  function cardKey(event, row) {
    var index = cardRows.indexOf(row);
    var seat = seatKeys[event.key.toLowerCase()];
    if (seat) {
      event.preventDefault();
      var input = row.querySelector('input[value="' + seat + '"]');
      if (!input) return;
      input.checked = true;
      input.dispatchEvent(new Event("change", { bubbles: true }));
      var after = form.querySelector('.field-widget[data-kind="exposures"] select:not(:disabled)') || document.getElementById("save");
      if (index < cardRows.length - 1) focusCard(index + 1);
      else if (after) after.focus();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      focusCard(index + (event.key === "ArrowDown" ? 1 : -1));
    } else if (event.key === "Backspace" || event.key === "Delete") {
      event.preventDefault();
      row.querySelectorAll("input").forEach(function (i) { i.checked = false; });
      form.dispatchEvent(new Event("change"));
    }
  }

  form.addEventListener("keydown", function (event) {
    var card = event.target.closest(".card-row");
    if (card && !event.ctrlKey && !event.metaKey && !event.altKey) { cardKey(event, card); return; }
    var row = event.target.closest(".field-row");
    if (!row || event.ctrlKey || event.metaKey || event.altKey) return;
    var kind = row.dataset.kind;
    if (event.target.type === "number") {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") return;  // the number's own steps
    }
    var value = event.target.type === "number" ? undefined : valueForKey(row, event.key);
    if (value !== undefined) {
      event.preventDefault();
      var input = row.querySelector('input[value="' + value + '"]');
      if (!input) return;
      if (kind === "seats") {
        input.checked = !input.checked;  // several seats: a key turns one on or off
        input.focus();
      } else {
        input.checked = true;
        nextRow(row);
      }
      touched[row.dataset.key] = true;
      form.dispatchEvent(new Event("change"));
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      focusRow(rows.indexOf(row) + (event.key === "ArrowDown" ? 1 : -1));
    } else if ((event.key === "Backspace" || event.key === "Delete") && event.target.type !== "number") {
      event.preventDefault();
      inputsOf(row).forEach(function (i) { i.checked = i.type === "radio" && i.value === ""; });
      form.dispatchEvent(new Event("change"));
    } else if (event.key === "Enter" && event.target.type !== "submit") {
      event.preventDefault();  // Enter moves on; saving is Ctrl+S or Ctrl+Enter
      // Through the page's order: a row of a number per seat (跑胡子's 王霸 E S W) is each of its
      // seats before the next row, or every later key lands one field late.
      var numbers = inputsOf(row).filter(function (i) { return i.type === "number" && !i.disabled; });
      var next = numbers[numbers.indexOf(event.target) + 1];
      if (event.target.type === "number" && next) next.focus();
      else nextRow(row);
    }
  });

  function setText(node, text) {
    if (node) node.textContent = text === null || text === undefined ? "" : String(text);
  }

  function filled(row) {
    // A field the law gives a value when nothing is said (跑胡子's 王霸: nobody holds one) is never
    // missing: left empty it is that value (the placeholder shows it).
    if (row.hasAttribute("data-default")) return true;
    return inputsOf(row).some(function (i) {
      return i.type === "number" ? i.value !== "" : i.checked && i.value !== "";
    });
  }

  function unassigned() {
    return cardRows.filter(function (row) { return !row.querySelector("input:checked"); }).length;
  }

  function addLine(list, p) {
    var li = document.createElement("li");
    li.textContent = p.message;
    if (p.code) li.dataset.code = p.code;
    list.appendChild(li);
  }

  // A card grid's part of the preview (scoring.web.referee.preview_page.grid_drawn): the cards
  // left, a penalty the form refused beside it at once, the deal's problems once every card has
  // a seat (or after a refused save), marking each card they name (both copies with two decks),
  // and the holders asked. Nothing is inserted into the grid's rows, so no row moves as one types.
  function drawGrid(data, problems) {
    cardRows.forEach(function (row) { row.classList.remove("has-error"); });
    var penaltyErrors = document.getElementById("penalty-errors");
    if (penaltyErrors) penaltyErrors.innerHTML = "";
    var left = unassigned();
    setText(document.getElementById("grid-progress"), left
      ? interpolate(gettext("还有 %(left)s 张牌未分配"), { left: left }, true) : gettext("每张牌都已分配"));
    var touchedGrid = left < cardRows.length;
    (data.problems || []).forEach(function (p) {
      if (p.field && p.field.indexOf("penalty-") === 0 && penaltyErrors) {
        var line = document.createElement("p");
        line.className = "field-error";
        line.id = "error-" + p.field;
        line.setAttribute("role", "alert");
        line.textContent = p.message;
        penaltyErrors.appendChild(line);
        return;
      }
      if (!touchedGrid || (left && !saved)) return;
      cardRows.forEach(function (row) {
        var label = row.dataset.label;
        if (p.card && (label === p.card || label === p.card + "①" || label === p.card + "②")) row.classList.add("has-error");
      });
      addLine(problems, p);
    });
    var questions = document.getElementById("questions");
    if (questions) questions.innerHTML = "";
    form.querySelectorAll("select.ask").forEach(function (select) { select.classList.remove("ask"); });
    (data.questions || []).forEach(function (q) {
      if (questions) addLine(questions, q);
      var select = form.querySelector('select[name="holder-' + q.card + '"]');
      if (select) select.classList.add("ask");
    });
  }

  function draw(data) {
    var problems = document.getElementById("problems");
    problems.innerHTML = "";
    rows.forEach(function (row) {
      row.classList.remove("has-error");
      row.querySelector(".field-errors").innerHTML = "";
    });
    // Which asked fields are still empty; problems wait until the referee has been there (or saved).
    // (A valid deal needs nothing more: 天炸/天尊 dealt is settled without the play's fields.)
    var missing = data.scores ? [] : rows.filter(function (row) { return row.querySelector(".required") && !filled(row); });
    setText(document.getElementById("fields-progress"), missing.length
      ? interpolate(gettext("还要填：%(fields)s"), { fields: missing.map(function (r) { return r.querySelector(".field-label").firstChild.textContent.trim(); }).join(gettext("、")) }, true)
      : "");
    if (cardRows.length) drawGrid(data, problems);
    (cardRows.length ? [] : data.problems || []).forEach(function (p) {
      var field = p.field && p.field.split("-")[0];
      var row = rows.filter(function (r) { return r.dataset.key === field; })[0];
      var ready = saved || !missing.length || (row && touched[row.dataset.key] && p.code !== "missing_key");
      if (!ready) return;
      if (row) {
        row.classList.add("has-error");
        var line = document.createElement("p");
        line.className = "field-error";
        line.setAttribute("role", "alert");
        line.textContent = p.message;
        line.dataset.code = p.code;
        row.querySelector(".field-errors").appendChild(line);
      }
      addLine(problems, p);
    });
    Object.keys(data.totals || {}).forEach(function (seat) {
      setText(document.querySelector('#preview-scores [data-total="' + seat + '"]'), data.totals[seat]);
    });
    document.querySelectorAll("#preview-scores [data-seat]").forEach(function (cell) {
      setText(cell, data.scores ? data.scores[cell.dataset.seat] : "");
    });
    document.querySelectorAll("#preview-scores [data-raw]").forEach(function (cell) {
      setText(cell, data.raw ? data.raw[cell.dataset.raw] : "");
    });
    document.querySelectorAll("#preview-scores [data-side]").forEach(function (cell) {
      setText(cell, data.sides ? data.sides[cell.dataset.side] : "");
    });
    var bar = document.getElementById("bar-scores");
    if (bar) {
      // The sides' scores where the game's result gives them (华牌's NS and EW), else each seat's.
      var shown = data.sides || data.scores;
      setText(bar, shown ? Object.keys(shown).map(function (key) { return key + " " + shown[key]; }).join(" · ") : "");
    }
    // A game that carries a state (升级): the levels before and after this deal, the match's progress.
    var matchLines = document.getElementById("match-lines");
    if (matchLines && data.match && data.match.length) {
      matchLines.innerHTML = "";
      data.match.forEach(function (text) {
        var li = document.createElement("li");
        li.textContent = text;
        matchLines.appendChild(li);
      });
    }
    var breakdown = document.getElementById("breakdown");
    breakdown.innerHTML = "";
    (data.breakdown_lines || []).forEach(function (text) {  // in the page's words, from the server
      var li = document.createElement("li");
      li.textContent = text;
      breakdown.appendChild(li);
    });
    setText(document.getElementById("games"), data.games_line);  // the 局 (华牌), in the page's words
  }

  var timer = null;
  var pending = null;
  var asked = 0;  // the newest preview asked for: an older answer arriving late is not drawn
  // A preview lost on the way (a dropped connection, a busy server, an answer that never comes)
  // is asked again, a little later each time, while it is still the newest: otherwise the score
  // stayed blank until the next key. The page says it is waiting meanwhile.
  var RETRIES = 20;
  var PATIENCE = 8000;  // a preview not answered by then is given up and asked again
  function waiting(on) {
    var line = document.getElementById("preview-offline");
    if (line) line.hidden = !on;
  }
  function drawRefusal(response) {
    // A refusal in words (a replaced link, a body too large): its message where problems go.
    return response.json().then(function (data) {
      var message = data && data.error && data.error.message;
      if (!message) return;
      var problems = document.getElementById("problems");
      problems.innerHTML = "";
      var li = document.createElement("li");
      li.textContent = message;
      li.dataset.code = data.error.code || "";
      problems.appendChild(li);
    }).catch(function () {});
  }
  function preview(attempt) {
    attempt = attempt || 0;
    if (pending) pending.abort();
    var controller = new AbortController();
    pending = controller;
    var mine = ++asked;
    var gaveUp = false;
    var patience = setTimeout(function () { gaveUp = true; controller.abort(); }, PATIENCE);
    function again() {
      if (mine !== asked) return;
      waiting(true);
      if (attempt < RETRIES) timer = setTimeout(function () { preview(attempt + 1); }, Math.min(3000, 300 * (attempt + 1)));
    }
    fetch(form.dataset.preview, {
      method: "POST",
      body: new FormData(form),
      headers: { "X-Requested-With": "fetch" },
      credentials: "same-origin",
      signal: controller.signal,
    }).then(function (response) {
      clearTimeout(patience);
      if (response.ok) return response.json();
      if (response.status >= 500 || response.status === 429) again();
      else if (mine === asked) { waiting(false); drawRefusal(response); }
      return null;
    })
      .then(function (data) { if (data && mine === asked) { waiting(false); draw(data); } })
      .catch(function (error) {
        clearTimeout(patience);
        // An abort is a newer preview replacing this one, unless this one waited too long.
        if (gaveUp || !error || error.name !== "AbortError") again();
      });
  }
  function schedulePreview(event) {
    if (event && event.target && event.target.closest) {
      var row = event.target.closest(".field-row");
      if (row) touched[row.dataset.key] = true;
    }
    clearTimeout(timer);
    timer = setTimeout(preview, 120);
  }
  // Fields only a winner has (跑胡子's 胡息, 红字数…) are off while the deal says nobody won (黄庄):
  // not posted, so the deal carries none of them.
  var winnerRow = rows.filter(function (row) { return row.dataset.kind === "seat_or_huang"; })[0];
  function syncNeeded() {
    if (!winnerRow) return;
    var nobody = inputsOf(winnerRow).some(function (i) { return i.checked && i.value === "none"; });
    rows.forEach(function (row) {
      if (row.dataset.needed !== "win" && row.dataset.needed !== "discard") return;  // both: only with a winner
      row.classList.toggle("not-needed", nobody);
      inputsOf(row).forEach(function (i) { i.disabled = nobody; });
    });
  }
  // Holders not needed (a card not exposed, in an event that does not count 自得) are not asked.
  function askHolders() {
    form.querySelectorAll("select[data-only-when-exposed]").forEach(function (select) {
      var exposure = form.querySelector('select[name="' + select.dataset.exposedBy + '"]');
      select.disabled = !(exposure && exposure.value);
    });
  }
  function sync() { syncNeeded(); askHolders(); }
  syncNeeded();
  form.addEventListener("change", sync);
  form.addEventListener("change", schedulePreview);
  form.addEventListener("input", schedulePreview);
  document.addEventListener("keydown", function (event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "s") {
      event.preventDefault();
      form.requestSubmit(document.getElementById("save"));
    } else if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      form.requestSubmit(document.getElementById("save-next") || document.getElementById("save"));
    }
  });
  // The referee's page comes with the preview of its form drawn (scoring.web.referee.preview_page).
  // Coming back to it, the browser puts back what was typed, after the load event and before
  // pageshow: only then is the engine asked. A board recorded not played shows the score it was
  // given; a preview of its empty form would blank it. (The table page has no board open at
  // first: it sets data-preview when one is opened.)
  window.addEventListener("pageshow", function () {
    if (!form.dataset.preview || form.hasAttribute("data-recorded-not-played")) return;
    sync();
    if (window.formChangedSinceServed(form)) preview();
  });
  // For the table page: a board opened afresh (nothing touched yet), and its preview now.
  window.EntryFields.reset = function () { touched = {}; };
  // After a page fills or resets the form itself (no change event): the fields only a winner has.
  window.EntryFields.sync = sync;
  window.EntryFields.preview = function () { clearTimeout(timer); preview(); };
  // The referee starts where a played deal starts: the first card without a taker (or the first
  // card), or the first field the deal needs and lacks. (The table page opens no board at first: it focuses nothing.)
  if (document.getElementById("save") && form.dataset.preview) {
    var firstCard = cardRows.findIndex(function (row) { return !row.querySelector("input:checked"); });
    var first = rows.findIndex(function (row) { return row.querySelector(".required") && !filled(row); });
    if (cardRows.length) focusCard(firstCard);  // every card given: the first, to change it
    else if (first >= 0) focusRow(first);
  }
})();
