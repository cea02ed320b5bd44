// The table page: live score for everyone (server-sent events), round entry and
// corrections for the scorer. All state lives on the server; the form keeps a draft.
"use strict";
(function () {
  const page = document.getElementById("table-page");
  const tableId = page.dataset.tableId;
  const players = JSON.parse(page.dataset.players);
  const target = Number(page.dataset.target);
  const rules = JSON.parse(page.dataset.rules);
  const defaultMode = rules.count_from_cards ? "cards" : "keypad";
  // The server's answer when a change was based on an older version of the table (409).
  const STALE = "the table changed on another phone";
  const TEAM_NAMES = [players[0] + " & " + players[2], players[1] + " & " + players[3]];
  const tokenKey = "trickmate.token." + tableId;
  const draftKey = "trickmate.draft." + tableId;
  const $ = (id) => document.getElementById(id);

  // The scorer link carries the token in the fragment (#token=...): keep it on this phone
  // and take it out of the address bar, so a copied address is only the viewer link.
  const hashToken = new URLSearchParams(location.hash.slice(1)).get("token");
  if (hashToken) {
    localStorage.setItem(tokenKey, hashToken);
    history.replaceState(null, "", location.pathname + location.search);
  }
  const token = localStorage.getItem(tokenKey);
  const isScorer = Boolean(token);
  document.body.classList.toggle("scorer", isScorer);
  for (const node of document.querySelectorAll(".scorer-only")) if (node.id !== "entry" && node.id !== "undo") node.hidden = !isScorer;

  let table = null;
  let editing = null; // position of the round being edited, or null for a new round
  // The version the edit is based on and the rounds up to the edited one as they were then:
  // if another phone changes the table, the edit still applies while those rounds are the same.
  let editBase = null;
  let pending = 0; // changes sent from this phone and not yet answered
  const form = { calls: {}, out: [], mode: defaultMode, pointsTeam: "0", points: null };

  // -- server -------------------------------------------------------------------------
  // `version` (the table version the change is based on) goes out as If-Match: a change
  // made on an out-of-date view is refused (409) instead of landing on the wrong round.
  async function api(method, path, body, version) {
    const headers = { "Content-Type": "application/json" };
    if (token) headers.Authorization = "Bearer " + token;
    if (version !== undefined && version !== null) headers["If-Match"] = '"' + version + '"';
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try { data = await response.json(); } catch (e) { data = { error: "the server sent no answer (" + response.status + ")" }; }
    if (!response.ok) {
      const error = new Error(data && data.error ? data.error : "error " + response.status);
      error.stale = response.status === 409 && error.message.startsWith(STALE);
      throw error;
    }
    return data;
  }
  const tablePath = "/api/tables/" + encodeURIComponent(tableId);

  // After a refused stale change: show the table as it is now (the live stream may lag).
  async function refresh() {
    try { render(await api("GET", tablePath)); } catch (e) { /* the live stream will bring it */ }
  }

  function notify(text) {
    $("notice").textContent = text;
    $("notice").hidden = !text;
    if (text) $("notice").scrollIntoView({ block: "nearest" });
  }

  let source = null;
  function connect() {
    source = new EventSource("/api/tables/" + encodeURIComponent(tableId) + "/events");
    source.addEventListener("table", (event) => render(JSON.parse(event.data)));
    source.onopen = () => setLive("live", true);
    source.onerror = () => {
      setLive("reconnecting…", false);
      if (source.readyState === EventSource.CLOSED) { source.close(); setTimeout(connect, 3000); }
    };
  }
  function setLive(text, ok) { $("live").textContent = ok ? "● live" : "○ " + text; $("live").classList.toggle("ok", ok); }

  // -- the scoreboard -------------------------------------------------------------------
  function signed(n) { return (n > 0 ? "+" : n < 0 ? "−" : "±") + Math.abs(n); }
  function teamOf(seat) { return seat % 2; }

  function describeRound(round) {
    const parts = [];
    const out = round.out || [];
    for (const [seat, call] of Object.entries(round.calls || {})) {
      const made = out[0] === Number(seat);
      parts.push((call === "grand" ? "Grand " : "Tichu ") + players[seat] + (made ? " ✓" : " ✗"));
    }
    if (out.length >= 2 && teamOf(out[0]) === teamOf(out[1])) parts.push("Double victory " + TEAM_NAMES[teamOf(out[0])]);
    else if (out.length) parts.push("1st " + players[out[0]]);
    if (round.points && Object.keys(round.points).length) {
      const [team, pts] = Object.entries(round.points)[0];
      const a = team === "0" ? pts : 100 - pts;
      parts.push("cards " + a + "/" + (100 - a));
    } else if (round.tricks) parts.push("counted from cards");
    return parts.join(" · ");
  }

  function roundsUpTo(data, position) {
    return JSON.stringify(data.rounds.slice(0, position + 1).map((entry) => entry.round));
  }

  function render(data) {
    table = data;
    let cancelled = null;
    if (editing !== null && editBase && data.version !== editBase.version && pending === 0) {
      // Changed elsewhere: the edit still applies if neither this round nor any before it
      // changed; otherwise "round N" is no longer the round being edited.
      if (roundsUpTo(data, editing) === editBase.rounds) editBase.version = data.version;
      else { cancelled = editing + 1; stopEdit(); resetForm(); }
    }
    const t0 = data.totals["0"], t1 = data.totals["1"];
    $("total0").textContent = t0;
    $("total1").textContent = t1;
    let status;
    if (data.finished) status = TEAM_NAMES[Number(data.winner)] + " won " + Math.max(t0, t1) + " to " + Math.min(t0, t1);
    else if (t0 === t1) status = "Level at " + t0 + " · " + (target - t0) + " to reach " + target;
    else {
      const lead = t0 > t1 ? 0 : 1;
      const top = Math.max(t0, t1);
      status = TEAM_NAMES[lead] + " lead by " + Math.abs(t0 - t1) + " · " +
        (top >= target ? "tied or ahead at the target: next round decides" : (target - top) + " more to reach " + target);
    }
    $("status").textContent = status;
    $("winner").hidden = !data.finished;
    if (data.finished) $("winner-text").textContent = "★ " + TEAM_NAMES[Number(data.winner)] + " win!";

    const list = $("round-list");
    list.textContent = "";
    let run0 = 0, run1 = 0;
    data.rounds.forEach((entry, position) => {
      run0 += entry.score["0"]; run1 += entry.score["1"];
      const item = document.createElement("li");
      item.className = "round-line" + (editing === position ? " editing" : "");
      const head = document.createElement("div");
      head.className = "round-scores";
      head.innerHTML = '<span class="n"></span><span class="s team0-text"></span><span class="s team1-text"></span><span class="run"></span>';
      head.children[0].textContent = "#" + (position + 1);
      head.children[1].textContent = signed(entry.score["0"]);
      head.children[2].textContent = signed(entry.score["1"]);
      head.children[3].textContent = run0 + " : " + run1;
      const detail = document.createElement("div");
      detail.className = "round-detail";
      detail.textContent = describeRound(entry.round);
      item.append(head, detail);
      if (isScorer) {
        const tools = document.createElement("div");
        tools.className = "round-tools";
        const edit = button("Edit", "Edit round " + (position + 1), () => startEdit(position));
        const del = button("Delete", "Delete round " + (position + 1), () => removeRound(position));
        tools.append(edit, del);
        item.append(tools);
      }
      list.append(item);
    });
    $("no-rounds").hidden = data.rounds.length > 0;
    $("undo").hidden = !isScorer || data.rounds.length === 0;
    $("entry").hidden = !isScorer || (data.finished && editing === null);
    if (editing !== null && editing >= data.rounds.length) stopEdit();
    $("entry-number").textContent = editing === null ? String(data.rounds.length + 1) : String(editing + 1) + " (editing)";
    if (cancelled !== null) {
      changed();
      notify("Round " + cancelled + " was changed or moved on another phone, so your edit was cancelled. Check the rounds and edit again if needed.");
    }
  }

  function button(text, label, onClick) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "button small"; b.textContent = text;
    b.setAttribute("aria-label", label);
    b.addEventListener("click", onClick);
    return b;
  }

  // -- the round form --------------------------------------------------------------------
  const keypad = $("keypad");
  for (let value = -25; value <= 125; value += 5) {
    const key = document.createElement("button");
    key.type = "button"; key.className = "key"; key.dataset.points = String(value);
    key.textContent = String(value);
    key.setAttribute("aria-pressed", "false");
    key.addEventListener("click", () => { form.points = value; changed(); });
    keypad.append(key);
  }

  const pileDefs = players.map((name, seat) => ({ id: "s" + seat, label: name + "'s tricks", short: name.slice(0, 3) }));
  pileDefs.push({ id: "hand", label: "Last player's hand", short: "hand" });
  const picker = isScorer ? new window.CardPicker($("round-piles"), $("round-picker"), pileDefs, () => changed(), true) : null;

  for (const b of document.querySelectorAll("#calls .toggle")) {
    b.addEventListener("click", () => {
      const seat = b.dataset.seat;
      form.calls[seat] = form.calls[seat] === b.dataset.call ? undefined : b.dataset.call;
      if (!form.calls[seat]) delete form.calls[seat];
      changed();
    });
  }
  for (const b of document.querySelectorAll("#out .out-button")) {
    b.addEventListener("click", () => {
      const seat = Number(b.dataset.seat);
      const at = form.out.indexOf(seat);
      if (at >= 0) form.out = form.out.slice(0, at); // tapping again takes it (and later ones) back
      else form.out.push(seat);
      changed();
    });
  }
  $("points-team0").addEventListener("click", () => { form.pointsTeam = "0"; changed(); });
  $("points-team1").addEventListener("click", () => { form.pointsTeam = "1"; changed(); });
  $("tab-keypad").addEventListener("click", () => { form.mode = "keypad"; changed(); });
  $("tab-cards").addEventListener("click", () => { form.mode = "cards"; changed(); });
  $("clear").addEventListener("click", () => { resetForm(); changed(); });
  $("cancel-edit").addEventListener("click", () => { stopEdit(); resetForm(); changed(); });
  $("save").addEventListener("click", save);
  $("undo").addEventListener("click", () => { if (table && table.rounds.length) removeRound(table.rounds.length - 1, "Undo round " + table.rounds.length + "?"); });
  $("rematch").addEventListener("click", rematch);

  function isDouble() { return form.out.length >= 2 && teamOf(form.out[0]) === teamOf(form.out[1]); }

  function buildRound() {
    const round = {};
    if (Object.keys(form.calls).length) round.calls = { ...form.calls };
    round.out = form.out.slice();
    if (isDouble()) return round;
    if (form.mode === "keypad") {
      if (form.points !== null) round.points = { [form.pointsTeam]: form.points };
    } else if (picker) {
      round.tricks = {};
      for (let seat = 0; seat < 4; seat++) round.tricks[String(seat)] = picker.text("s" + seat);
      round.hand = picker.text("hand");
    }
    return round;
  }

  function loadRound(round) {
    resetForm();
    form.calls = { ...(round.calls || {}) };
    form.out = (round.out || []).slice();
    if (round.tricks) {
      form.mode = "cards";
      for (let seat = 0; seat < 4; seat++) picker.setPile("s" + seat, round.tricks[String(seat)] || "");
      picker.setPile("hand", round.hand || "");
    } else if (round.points && Object.keys(round.points).length) {
      const [team, pts] = Object.entries(round.points)[0];
      form.mode = "keypad"; form.pointsTeam = team; form.points = pts;
    }
  }

  function resetForm() {
    form.calls = {}; form.out = []; form.mode = defaultMode; form.pointsTeam = "0"; form.points = null;
    if (picker) picker.clear();
  }

  function saveDraft() {
    if (editing !== null) return;
    const draft = { form, cards: picker ? picker.owner : {} };
    localStorage.setItem(draftKey, JSON.stringify(draft));
  }

  function restoreDraft() {
    try {
      const draft = JSON.parse(localStorage.getItem(draftKey) || "null");
      if (!draft) return;
      Object.assign(form, draft.form);
      if (picker) { picker.owner = draft.cards || {}; picker.refresh(); }
    } catch (e) { localStorage.removeItem(draftKey); }
  }

  let previewTimer = null;
  function changed() {
    for (const b of document.querySelectorAll("#calls .toggle")) b.setAttribute("aria-pressed", String(form.calls[b.dataset.seat] === b.dataset.call));
    for (const b of document.querySelectorAll("#out .out-button")) {
      const at = form.out.indexOf(Number(b.dataset.seat));
      b.setAttribute("aria-pressed", String(at >= 0));
      b.querySelector(".place").textContent = at >= 0 ? ["1st", "2nd", "3rd", "4th"][at] : "";
    }
    const double = isDouble();
    $("points-section").hidden = double;
    $("out-hint").textContent = form.out.length < 2 ? "Tap who went out first, then second."
      : double ? "Double victory for " + TEAM_NAMES[teamOf(form.out[0])] + ": +" + rules.double_victory + ", no card points."
      : form.mode === "cards" && form.out.length < 3 ? "Counting from cards: tap the third player out too." : "";
    $("tab-keypad").setAttribute("aria-selected", String(form.mode === "keypad"));
    $("tab-cards").setAttribute("aria-selected", String(form.mode === "cards"));
    $("keypad-panel").hidden = form.mode !== "keypad";
    $("cards-panel").hidden = form.mode !== "cards";
    $("points-team0").setAttribute("aria-pressed", String(form.pointsTeam === "0"));
    $("points-team1").setAttribute("aria-pressed", String(form.pointsTeam === "1"));
    for (const key of keypad.children) key.setAttribute("aria-pressed", String(Number(key.dataset.points) === form.points));
    if (form.points === null) $("points-shown").textContent = "Tap " + TEAM_NAMES[Number(form.pointsTeam)] + "'s card points";
    else {
      const mine = form.points, theirs = 100 - form.points;
      const a = form.pointsTeam === "0" ? mine : theirs;
      $("points-shown").textContent = TEAM_NAMES[0] + " " + a + " · " + TEAM_NAMES[1] + " " + (100 - a);
    }
    $("save").textContent = editing === null ? "Save round" : "Save changes to round " + (editing + 1);
    $("cancel-edit").hidden = editing === null;
    saveDraft();
    clearTimeout(previewTimer);
    previewTimer = setTimeout(preview, 120);
  }

  function ready() {
    if (form.out.length < 2) return "Tap who went out first and second.";
    if (!isDouble() && form.mode === "keypad" && form.points === null) return "Tap the card points.";
    return null;
  }

  async function preview() {
    const box = $("preview");
    const missing = ready();
    box.classList.remove("error");
    if (missing) { box.textContent = missing; return; }
    try {
      const n = editing === null ? (table ? table.rounds.length + 1 : 1) : editing + 1;
      const result = await api("POST", "/api/preview?n=" + n + "&double_victory=" + rules.double_victory, buildRound());
      box.textContent = "This round: " + TEAM_NAMES[0] + " " + signed(result.score["0"]) + " · " + TEAM_NAMES[1] + " " + signed(result.score["1"]);
    } catch (error) {
      box.classList.add("error");
      box.textContent = error.message;
    }
  }

  async function save() {
    const box = $("preview");
    const missing = ready();
    if (missing) { box.textContent = missing; box.classList.add("error"); return; }
    $("save").disabled = true;
    const position = editing;
    pending++; // our own change may come back on the live stream before its answer does
    try {
      const path = tablePath + "/rounds";
      const data = position === null
        ? await api("POST", path, buildRound(), table ? table.version : null)
        : await api("PUT", path + "/" + position, buildRound(), editBase.version);
      stopEdit();
      resetForm();
      localStorage.removeItem(draftKey);
      render(data);
      changed();
      notify("");
      box.textContent = "Saved.";
    } catch (error) {
      if (error.stale) {
        // The preview box is rewritten by every change of the form: say it above the form.
        if (position !== null) { stopEdit(); resetForm(); }
        await refresh();
        changed();
        notify(position === null
          ? "Not saved: the table changed on another phone. The rounds are up to date now: check them, then save again."
          : "Round " + (position + 1) + " was not changed: the table changed on another phone. The rounds are up to date now: check them and edit again.");
      } else {
        box.classList.add("error");
        box.textContent = error.message;
      }
    } finally {
      pending--;
      $("save").disabled = false;
    }
  }

  function startEdit(position) {
    editing = position;
    editBase = { version: table.version, rounds: roundsUpTo(table, position) };
    loadRound(table.rounds[position].round);
    $("entry").hidden = false;
    render(table);
    changed();
    $("entry").scrollIntoView({ behavior: "smooth", block: "start" });
  }

  function stopEdit() { editing = null; editBase = null; }

  async function removeRound(position, question) {
    const version = table.version; // the table the question is asked about
    if (!confirm(question || "Delete round " + (position + 1) + "?")) return;
    // Deleting the round being edited, or one before it, moves that round: end the edit here.
    if (editing !== null && position <= editing) { stopEdit(); resetForm(); changed(); }
    try {
      render(await api("DELETE", tablePath + "/rounds/" + position, undefined, version));
      notify("");
    } catch (error) {
      if (!error.stale) { alert(error.message); return; }
      await refresh();
      notify("Round " + (position + 1) + " was not deleted: the table changed on another phone. The rounds are up to date now: check them and try again.");
    }
  }

  async function rematch() {
    try {
      const created = await api("POST", "/api/tables", { game: table.game, players: table.players, target: table.target, rules: table.rules });
      location.href = created.scorer_url;
    } catch (error) { alert(error.message); }
  }

  // -- the invite panel -------------------------------------------------------------------
  if (isScorer) {
    const link = location.origin + location.pathname + "#token=" + token;
    $("scorer-link").href = link;
    $("scorer-link").textContent = link;
    $("scorer-qr").src = "/api/tables/" + encodeURIComponent(tableId) + "/qr.svg?role=scorer&token=" + encodeURIComponent(token);
  }

  // Other pages (e.g. counting a pile with the camera) can hand points to the form:
  // window.trickmate.setCardPoints("0", 45) or /t/<id>?points=45&team=0.
  window.trickmate = {
    setCardPoints(team, points) {
      form.mode = "keypad"; form.pointsTeam = String(team) === "1" ? "1" : "0"; form.points = Number(points); changed();
    },
    buildRound,
  };

  if (isScorer) {
    restoreDraft();
    const params = new URLSearchParams(location.search);
    if (params.has("points") && /^-?\d+$/.test(params.get("points"))) window.trickmate.setCardPoints(params.get("team") || "0", params.get("points"));
    changed();
  }
  connect();
})();
