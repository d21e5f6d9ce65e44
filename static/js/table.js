// The table page (table-api.md): the players enter a board, the other side verifies it.
//
// Every action is first written to this phone's storage (the outbox, with its
// Idempotency-Key) and only then sent; it leaves the outbox when the server has
// answered. A lost answer or a dead network means the same action, with the same
// key, is sent again later: the server answers a replayed key with its first
// answer and writes nothing twice. Scores are never computed here: the grid is
// sent to the server's preview (the rules engine) and its answer is drawn.
(function () {
  "use strict";
  var app = document.getElementById("table-app");
  if (!app) return;
  // The page works in its own words even if the translation catalogue did not load (offline).
  if (typeof window.gettext !== "function") {
    window.gettext = function (text) { return text; };
    window.interpolate = function (text, params) {
      return text.replace(/%\((\w+)\)s/g, function (_, name) { return params[name]; });
    };
  }
  var base = app.dataset.base;
  // The reads go without cookies (the link is the only key), so the page says in which language it
  // was drawn: the state's and the previews' words come back in it, not in the phone's own.
  var language = document.documentElement.lang || "zh-hans";
  var storeKey = "huapai-table:" + base;
  // The game's seats and the sides that verify and sign, as the page was drawn with them (the
  // state says the same; these serve before it arrives).
  var SEATS = app.dataset.seats.split(" ");
  var SIDES = app.dataset.sides.split(" ");
  // The deal is the game's entry fields, 华牌's card grid among them: static/js/entry.js shapes
  // them and draws the engine's preview, as on the referee's page.

  // --- what this phone keeps --------------------------------------------------
  function load() {
    try {
      return JSON.parse(localStorage.getItem(storeKey)) || {};
    } catch (e) {
      return {};
    }
  }
  var kept = load();
  kept.outbox = kept.outbox || [];
  // A code is never kept on the phone or filled into a field: on a table's shared phone a filled
  // field showed one side's code to the other. The server knows which side this phone is
  // (an HttpOnly cookie it sets on a right code); the players type their code each time.
  // Earlier versions of this page kept the entering side's code here: forget it.
  if ("code" in kept) { delete kept.code; localStorage.setItem(storeKey, JSON.stringify(kept)); }
  function keep() {
    localStorage.setItem(storeKey, JSON.stringify(kept));
  }
  // This phone's own random id, kept across reloads: a verification from the phone that
  // entered the deal is shown to the referees (allowed, but worth a look).
  var device = localStorage.getItem("huapai-device");
  if (!device) {
    device = newKey().replace(/[^A-Za-z0-9-]/g, "").slice(0, 40);
    localStorage.setItem("huapai-device", device);
  }
  var state = kept.state || JSON.parse(document.getElementById("initial-state").textContent);

  // The game's seats and the sides that verify and sign (two partnerships, or every player alone).
  function game() { return state.game || { seats: SEATS, sides: SIDES, partnerships: SIDES.length === 2 }; }
  // The server asks the game (scoring.games.seats.in_partnerships); the page never works it out.
  function twoSides() { return game().partnerships === true; }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function setText(node, text) { if (node) node.textContent = text === null || text === undefined ? "" : String(text); }
  function show(node, visible) { if (node) node.hidden = !visible; }
  function t(text, params) { return params ? interpolate(text, params, true) : text; }

  // --- the outbox -----------------------------------------------------------------
  var sending = false;
  var retryDelay = 2000;
  var retryTimer = null;

  function enqueue(action) {
    action.key = newKey();
    action.at = new Date().toISOString();
    kept.outbox.push(action);
    keep();  // on the phone before anything is sent
    drawOutbox();
    drawBoards();
    flush();
  }

  function describe(action) {
    var words = { put: t(gettext("录入第 %(board)s 副"), action), verify: t(gettext("确认第 %(board)s 副"), action),
                  dispute: t(gettext("第 %(board)s 副提出争议"), action), signoff: t(gettext("签字确认")), call: t(gettext("呼叫裁判")),
                  appeal: t(gettext("申诉")) };
    return words[action.kind];
  }

  function drawOutbox() {
    var list = document.getElementById("outbox");
    list.innerHTML = "";
    kept.outbox.forEach(function (action) {
      var li = document.createElement("li");
      li.textContent = describe(action) + " · " + t(gettext("保存在本手机，尚未发送"));
      li.dataset.kind = action.kind;
      list.appendChild(li);
    });
    setText(document.getElementById("outbox-status"), kept.outbox.length
      ? t(gettext("%(n)s 项保存在本手机，尚未发送（联网后自动发送）"), { n: kept.outbox.length })
      : t(gettext("全部已保存到服务器")));
    document.getElementById("sync").classList.toggle("pending", kept.outbox.length > 0);
  }

  function setOnline(online) {
    var badge = document.getElementById("network");
    setText(badge, online ? t(gettext("在线")) : t(gettext("离线")));
    badge.classList.toggle("offline", !online);
  }

  function showError(message) {
    var node = document.getElementById("table-error");
    setText(node, message);
    show(node, !!message);
  }

  function flush() {
    if (sending || !kept.outbox.length) return;
    sending = true;
    var action = kept.outbox[0];
    var headers = { "Content-Type": "application/json", "Idempotency-Key": action.key, "X-Table-Device": device };
    if (action.version) headers["If-Match"] = '"' + action.version + '"';
    // Same-origin credentials: the server's cookie that makes this phone known for its side
    // (table-api.md) is stored from a right code's answer and sent with every later write.
    fetch(action.url, { method: action.method, headers: headers, body: JSON.stringify(action.body), credentials: "same-origin" })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (data) {
          if (response.status === 429 && data.error && data.error.code === "table_guarded") {
            // Not a network problem: say why in words, keep the action and send it again
            // when the server says the guard ends (a referee may clear it sooner).
            sending = false;
            setOnline(true);
            showError(describe(action) + "：" + data.error.message);
            var wait = parseInt(response.headers.get("Retry-After"), 10);
            clearTimeout(retryTimer);
            retryTimer = setTimeout(flush, Math.min(Math.max(isNaN(wait) ? 30 : wait, 5), 60) * 1000);
            drawOutbox();
            return;
          }
          if (response.status === 429 || response.status >= 500) throw new Error("retry later");
          // Answered: the action leaves the phone, whatever the answer.
          kept.outbox.shift();
          keep();
          setOnline(true);
          retryDelay = 2000;
          if (!response.ok) {
            showError(describe(action) + "：" + (data.error ? data.error.message : response.status));
          } else {
            showError("");
            rememberSide(action, data);
            if (action.kind === "appeal") {
              setText(document.getElementById("appeal-done"), t(gettext("申诉已登记：申诉委员会会作出决定，结果在公开的“罚分与裁决”页")));
            }
          }
          sending = false;
          drawOutbox();
          drawBoards();
          refresh();
          flush();
        });
      })
      .catch(function () {
        // No answer: keep it and try again in the foreground (background sync is not everywhere).
        sending = false;
        setOnline(navigator.onLine !== false && retryDelay < 4000);
        clearTimeout(retryTimer);
        retryTimer = setTimeout(flush, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 15000);
        drawOutbox();
      });
  }
  // Which side this phone speaks for, as the server's answers say it: the sign-off opens on
  // that side's view (a phone shared by both sides switches with the side buttons).
  function rememberSide(action, data) {
    var side = null;
    if (action.kind === "put") side = data.entered_by;
    // (Where every player plays alone, the verifier's seat is not in the answer: no guess.)
    if (action.kind === "verify" && twoSides() && game().sides.indexOf(data.entered_by) !== -1) {
      side = game().sides.filter(function (other) { return other !== data.entered_by; })[0];
    }
    if (action.kind === "signoff") side = data.side;
    if (side && game().sides.indexOf(side) !== -1) { kept.side = side; keep(); }
  }
  window.addEventListener("online", function () { retryDelay = 2000; setOnline(true); flush(); refresh(); });
  window.addEventListener("offline", function () { setOnline(false); });

  // --- the table's state --------------------------------------------------------
  // The page's own state comes with its ETag: the first poll is a 304 unless something moved.
  // A state kept on this phone from an earlier visit has none (its poll brings the state now).
  var etag = kept.state ? null : app.dataset.stateEtag || null;
  function refresh() {
    var headers = etag ? { "If-None-Match": etag, "Accept-Language": language } : { "Accept-Language": language };
    return fetch(app.dataset.state, { headers: headers, credentials: "omit", cache: "no-store" })
      .then(function (response) {
        noteServerTime(response);
        if (response.status === 304) return null;
        if (response.status === 404) {
          // The link was replaced: what this phone kept for it (the state, unsent actions that
          // the old link can no longer take) is forgotten, as the service worker forgets itself.
          localStorage.removeItem(storeKey);
          kept = { outbox: [] };
          showError(t(gettext("本桌链接已更换：请扫描裁判或组织者给的新二维码")));
          return null;
        }
        if (response.status === 429) {
          return response.json().then(function (data) { showError(data.error.message); return null; });
        }
        if (!response.ok) return null;
        etag = response.headers.get("ETag");
        return response.json();
      })
      .then(function (data) {
        if (!data) return;
        state = data;
        kept.state = data;
        keep();
        drawBoards();
      })
      .catch(function () { setOnline(false); });
  }

  function pendingFor(board) {
    return kept.outbox.filter(function (a) { return a.board === board; });
  }

  function boardState(number) {
    return state.boards.filter(function (b) { return b.board === number; })[0];
  }

  var STATUS_WORDS = { empty: gettext("未录入"), draft: gettext("等对方核对"), confirmed: gettext("双方已确认"),
                       disputed: gettext("有争议，等裁判") };
  var ALONE_WORDS = { draft: gettext("等另一位选手核对"), confirmed: gettext("已核对确认") };
  function statusWord(status) {
    return (!twoSides() && ALONE_WORDS[status]) || STATUS_WORDS[status] || status;
  }

  // The board buttons are updated where they stand, not rebuilt: a poll's redraw that replaced
  // them could fall between a finger's press and its release, and the tap would be lost.
  function drawBoards() {
    var list = document.getElementById("boards");
    while (list.children.length > state.boards.length) list.removeChild(list.lastElementChild);
    state.boards.forEach(function (b, index) {
      var button = list.children[index] && list.children[index].firstElementChild;
      if (!button) {
        var li = document.createElement("li");
        button = document.createElement("button");
        button.type = "button";
        li.appendChild(button);
        list.appendChild(li);
      }
      button.className = "board-button " + (b.not_played ? "not_played" : b.status) + (pendingFor(b.board).length ? " pending" : "");
      button.dataset.board = b.board;
      button.textContent = b.board;
      button.title = b.not_played || statusWord(b.status);
    });
    if (state.match && state.match.summary) {
      // A match that carries a state (升级): the levels reached and whether it is over, in the
      // game's words, rather than sums of the deals' figures.
      setText(document.getElementById("totals"), [t(gettext("已确认 %(confirmed)s / %(boards)s 副"), state.totals), state.match.summary].join(" · "));
    } else if (twoSides() || !state.totals.sides) {
      setText(document.getElementById("totals"), t(gettext("已确认 %(confirmed)s / %(boards)s 副 · NS %(NS)s · EW %(EW)s"), state.totals));
    } else {
      setText(document.getElementById("totals"), [t(gettext("已确认 %(confirmed)s / %(boards)s 副"), state.totals)].concat(
        game().sides.map(function (side) { return side + " " + state.totals.sides[side]; })).join(" · "));
    }
    show(document.getElementById("read-only"), !state.writable);
    setText(document.getElementById("read-only"), state.read_only ? state.read_only.message : "");
    show(document.getElementById("referee-coming"), state.referee_called);
    // A guarded table says why, in words (table-api.md): known phones go on, others wait.
    show(document.getElementById("table-guarded"), !!state.guarded);
    setText(document.getElementById("table-guarded"), state.guarded ? state.guarded.message : "");
    // Appeals are lodged within the correction period, after the round is published, and from the
    // table's link only where its players enter (otherwise a referee lodges it for them).
    var entryOff = state.read_only && state.read_only.code === "players_entry_off";
    show(document.getElementById("appeal-box"), state.round.status === "provisional" && !entryOff);
    var allConfirmed = state.boards.length > 0 && state.boards.every(function (b) { return b.status === "confirmed"; });
    // Signing off is the players' where they may act (a table every side signed shows who did); a
    // link that only reads (the referees enter, the round is published) offers no sign-off form.
    var mayShowSignoff = state.writable || (state.read_only && state.read_only.code === "signed_off");
    show(document.getElementById("signoff-section"), allConfirmed && mayShowSignoff);
    if (allConfirmed && mayShowSignoff) drawSignoff();
    if (openBoard) drawPanel();
    drawClock();
  }

  // --- the round's clock ------------------------------------------------------------
  // The server sends when a running clock ends (or the time left while it stands still), so the
  // phone counts down by itself between polls; its own clock is set right by the Date header of
  // the server's answers (a 304 too).
  var skew = 0;
  function noteServerTime(response) {
    var server = Date.parse(response.headers.get("Date") || "");
    if (!isNaN(server)) skew = server - Date.now();
  }
  function clockText(seconds) {
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = seconds % 60;
    return (hours ? hours + ":" + (minutes < 10 ? "0" : "") : "") + minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }
  var CLOCK_WORDS = { running: gettext("计时中"), paused: gettext("暂停"), not_started: gettext("未开始计时"), time_up: "" };
  function drawClock() {
    var node = document.getElementById("round-clock");
    var clock = state.clock;
    show(node, !!clock);
    if (!clock) return;
    var phase = clock.state;
    var left = clock.remaining || 0;
    if (phase === "running") {
      left = Math.max(0, Math.ceil((Date.parse(clock.ends_at) - (Date.now() + skew)) / 1000));
      if (left === 0) phase = "time_up";
    }
    node.className = "round-clock " + phase;
    setText(node.querySelector(".clock-time"), phase === "time_up" ? t(gettext("时间到")) : clockText(left));
    setText(node.querySelector(".clock-state"), t(CLOCK_WORDS[phase] || ""));
  }
  setInterval(drawClock, 1000);


  var RESULT_WORDS = { won: gettext("胜"), lost: gettext("负"), drawn: gettext("平") };

  function signoffSide() {
    var form = document.getElementById("signoff-form");
    var chosen = form.querySelector('input[name="side"]:checked');
    if (!chosen && kept.side) {
      chosen = form.querySelector('input[name="side"][value="' + kept.side + '"]');
      if (chosen) chosen.checked = true;
    }
    return chosen ? chosen.value : null;
  }

  function cells(row, values, tag) {
    values.forEach(function (value) {
      var cell = document.createElement(tag || "td");
      cell.textContent = value;
      row.appendChild(cell);
    });
    return row;
  }

  // What a side signs, from its own side: its score first, board by board, in total and per 局.
  function drawSignoff() {
    var side = signoffSide();
    var view = side && state.signoff ? state.signoff[side] : null;
    var rows = document.getElementById("signoff-rows");
    var gameRows = document.getElementById("signoff-game-rows");
    rows.innerHTML = "";
    gameRows.innerHTML = "";
    show(document.getElementById("signoff-choose"), !view);
    show(document.getElementById("signoff-view"), !!view);
    show(document.getElementById("signoff-pair"), !!view && !!view.other);
    show(document.getElementById("signoff-all"), !!view && !view.other);
    if (view && !view.other) drawSignoffAlone(view);
    if (view && view.other) {
      var we = t(gettext("我方 %(side)s"), { side: view.side });
      var they = t(gettext("对方 %(side)s"), { side: view.other });
      ["signoff-we", "signoff-games-we"].forEach(function (id) { setText(document.getElementById(id), we); });
      ["signoff-they", "signoff-games-they"].forEach(function (id) { setText(document.getElementById(id), they); });
      view.boards.forEach(function (b) {
        rows.appendChild(cells(document.createElement("tr"), [b.board, b.we, b.they]));
      });
      rows.appendChild(cells(document.createElement("tr"), [t(gettext("合计")), view.totals.we, view.totals.they], "th"));
      show(document.getElementById("signoff-games"), view.games.length > 0);
      view.games.forEach(function (g) {
        var result = g.finished ? RESULT_WORDS[g.result] : t(gettext("未完"));
        gameRows.appendChild(cells(document.createElement("tr"), [g.number, g.we, g.they, result]));
      });
      setText(document.getElementById("signoff-games-won"), view.games.length
        ? t(gettext("赢的局：我方 %(we)s，对方 %(they)s"), view.games_won) : "");
    }
    var signed = game().sides.filter(function (side) { return state.signed_off[side]; })
      .map(function (side) { return t(gettext("%(side)s 已签字"), { side: side }); });
    setText(document.getElementById("signed-off"), signed.join(" · "));
  }

  // Where every player plays alone: every player's score, board by board and in total, the
  // signer's own column first named as theirs.
  function drawSignoffAlone(view) {
    var sides = game().sides;
    var head = document.getElementById("signoff-all-head");
    var body = document.getElementById("signoff-all-rows");
    head.innerHTML = "";
    body.innerHTML = "";
    cells(head, [t(gettext("副"))].concat(sides.map(function (side) {
      return side === view.side ? t(gettext("我 %(side)s"), { side: side }) : side;
    })), "th");
    view.boards.forEach(function (b) {
      body.appendChild(cells(document.createElement("tr"), [b.board].concat(sides.map(function (s) { return b.all[s]; }))));
    });
    body.appendChild(cells(document.createElement("tr"), [t(gettext("合计"))].concat(
      sides.map(function (s) { return view.totals.all[s]; })), "th"));
    var mine = sides.indexOf(view.side) + 1;
    [head].concat(Array.prototype.slice.call(body.rows)).forEach(function (row) {
      if (row.cells[mine]) row.cells[mine].classList.add("mine");
    });
  }
  document.getElementById("signoff-form").addEventListener("change", function (event) {
    if (event.target.name === "side") drawSignoff();
  });

  // --- one board ------------------------------------------------------------------
  var openBoard = null;
  var editing = false;
  var form = document.getElementById("entry");

  // The deal as this page sends it: its fields as deal JSON.
  function dealOfForm() { return window.EntryFields.deal(form); }

  function formFromDeal(detail) {
    form.reset();
    askFirstOnly();
    window.EntryFields.fill(form, detail);  // the deal's own keys, as the board's GET gives them
    window.EntryFields.sync();
    document.getElementById("entry-code").value = "";  // typed each time, never filled in
  }

  // The preview is entry.js's: the same form and endpoint as the referee's page.
  function startPreview() {
    form.dataset.preview = base + "boards/" + openBoard + "/preview";
    window.EntryFields.reset();
    window.EntryFields.preview();
  }

  function drawDealWords(detail) {
    var body = document.getElementById("deal-words");
    body.innerHTML = "";
    function line(label, text) {
      var tr = document.createElement("tr");
      var th = document.createElement("th");
      th.textContent = label;
      var td = document.createElement("td");
      td.textContent = text || "—";
      tr.appendChild(th);
      tr.appendChild(td);
      body.appendChild(tr);
    }
    if (detail.words) {
      detail.words.forEach(function (pair) { line(pair[0], pair[1]); });  // another game's fields in words
    } else {
      game().seats.forEach(function (seat) { line(seat, detail.text.captured[seat]); });
      line(t(gettext("持牌人")), detail.text.holders);
      line(t(gettext("亮牌")), detail.text.exposed);
      line(t(gettext("罚分")), Object.keys(detail.penalties || {}).map(function (s) { return s + " " + detail.penalties[s]; }).join(" "));
    }
    var scores = document.getElementById("deal-scores");
    scores.innerHTML = "";
    var values = game().seats.map(function (s) { return detail.scores[s]; });
    if (twoSides()) values = values.concat([detail.sides.NS, detail.sides.EW]);
    values.forEach(function (v) {
      var td = document.createElement("td");
      td.className = "num";
      td.textContent = v;
      scores.appendChild(td);
    });
  }

  var detail = null;
  function drawPanel() {
    var b = boardState(openBoard);
    if (!b) return;
    var pending = pendingFor(openBoard);
    setText(document.getElementById("board-title"), t(gettext("第 %(board)s 副"), { board: openBoard }));
    setText(document.getElementById("board-status"), pending.length
      ? t(gettext("保存在本手机，尚未发送")) : b.not_played || statusWord(b.status));
    // A board a referee recorded not played is the referees': the players read it only.
    var canWrite = state.writable && !pending.length && !b.not_played;
    var entering = canWrite && (b.status === "empty" || (b.status === "draft" && editing));
    show(form, entering);
    show(document.getElementById("verify-panel"), b.status !== "empty" && !entering);
    var verifiable = canWrite && b.status === "draft";
    show(document.getElementById("verify-form"), verifiable);
    show(document.getElementById("dispute-box"), canWrite && (b.status === "draft" || b.status === "confirmed"));
    show(document.getElementById("edit-board"), verifiable);
    if (b.status !== "empty" && (!detail || detail.board !== openBoard || detail.version !== b.version)) {
      fetch(base + "boards/" + openBoard, { credentials: "omit", cache: "no-store", headers: { "Accept-Language": language } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) { if (data && data.board === openBoard) { detail = data; drawDealWords(data); } })
        .catch(function () {});
    }
  }

  // A field of a table's first deal only (升级's 台上): the later boards carry it from the match.
  function askFirstOnly() {
    form.querySelectorAll(".field-row[data-first-only]").forEach(function (row) {
      var later = openBoard > 1;
      row.hidden = later;
      row.querySelectorAll("input").forEach(function (input) { input.disabled = later; });
    });
  }

  function open(number) {
    openBoard = number;
    editing = false;
    detail = null;
    form.reset();
    askFirstOnly();
    window.EntryFields.sync();
    document.getElementById("entry-code").value = "";  // typed each time, never filled in
    show(document.getElementById("board-panel"), true);
    drawPanel();
    startPreview();
    document.getElementById("board-panel").scrollIntoView();
  }

  document.getElementById("boards").addEventListener("click", function (event) {
    var button = event.target.closest("button[data-board]");
    if (button) open(parseInt(button.dataset.board, 10));
  });
  document.getElementById("close-board").addEventListener("click", function () {
    openBoard = null;
    show(document.getElementById("board-panel"), false);
  });
  document.getElementById("edit-board").addEventListener("click", function () {
    editing = true;
    if (detail) formFromDeal(detail);
    drawPanel();
    startPreview();
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var code = document.getElementById("entry-code").value.trim();
    if (!code) { showError(t(twoSides() ? gettext("请填本方录入码") : gettext("请填本人录入码"))); return; }
    var b = boardState(openBoard);
    var body = dealOfForm();
    body.code = code;
    enqueue({ kind: "put", board: openBoard, method: "PUT", url: base + "boards/" + openBoard, body: body,
              version: b && b.status !== "empty" ? b.version : null });
    editing = false;
    drawPanel();
  });

  document.getElementById("verify-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var code = this.elements.code.value.trim();
    if (!code) { showError(t(twoSides() ? gettext("请填核对方的录入码") : gettext("请填核对人的录入码"))); return; }
    var b = boardState(openBoard);
    enqueue({ kind: "verify", board: openBoard, method: "POST", url: base + "boards/" + openBoard + "/verify",
              body: { code: code }, version: b.version });
    this.reset();
  });

  document.getElementById("dispute-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var code = this.elements.code.value.trim();
    var reason = this.elements.reason.value.trim();
    if (!code || !reason) { showError(t(gettext("请填录入码和异议"))); return; }
    enqueue({ kind: "dispute", board: openBoard, method: "POST", url: base + "boards/" + openBoard + "/dispute",
              body: { code: code, reason: reason }, version: null });
    this.reset();
  });

  document.getElementById("signoff-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var side = signoffSide();
    if (!side) {
      showError(t(twoSides() ? gettext("请先选本方，看清本方的成绩再签字") : gettext("请先选自己，看清自己的成绩再签字")));
      return;
    }
    var code = this.elements.code.value.trim();
    if (!code) { showError(t(gettext("请填录入码"))); return; }
    // The side whose figures were shown goes with the code: the other side's code is refused.
    enqueue({ kind: "signoff", board: null, method: "POST", url: base + "signoff", body: { code: code, side: side },
              version: null });
    this.elements.code.value = "";
  });

  document.getElementById("call-form").addEventListener("submit", function (event) {
    event.preventDefault();
    enqueue({ kind: "call", board: null, method: "POST", url: base + "call",
              body: { kind: this.elements.kind.value, note: this.elements.note.value }, version: null });
    this.reset();
  });

  document.getElementById("appeal-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var code = this.elements.code.value.trim();
    var statement = this.elements.statement.value.trim();
    if (!code || !statement) { showError(t(gettext("请填录入码和申诉内容"))); return; }
    var board = parseInt(this.elements.board.value, 10);
    enqueue({ kind: "appeal", board: null, method: "POST", url: base + "appeal",
              body: { code: code, statement: statement, board: board > 0 ? board : null }, version: null });
    this.reset();
  });

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(app.dataset.serviceWorker, { scope: base }).catch(function () {});
  }
  drawOutbox();
  drawBoards();
  setOnline(navigator.onLine !== false);
  flush();
  refresh();
  // Polling in the foreground: another phone's entry or a referee's ruling shows within seconds.
  setInterval(function () { if (!document.hidden) { refresh(); flush(); } }, 5000);
})();
