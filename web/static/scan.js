// The scan page: a live camera (or a photo file) -> /api/scan -> the cards drawn over the
// photo, their combination, its verdict against the trick and their points. A tap corrects
// a card (re-judged by /api/judge-cards); "count this pile" hands the points to the round
// form of a table (/t/<id>?points=..&team=..), which saves nothing until the scorer does.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const page = $("scan-page");
  const tableId = page.dataset.tableId || "";
  const players = page.dataset.players ? JSON.parse(page.dataset.players) : null;
  const params = new URLSearchParams(location.search);

  // -- decks -------------------------------------------------------------------------------
  const DECKS = {
    tichu: {
      suits: [["j", "Jade", "◆"], ["s", "Sword", "⚔"], ["p", "Pagoda", "⌂"], ["t", "Star", "★"]],
      specials: ["Mahjong", "Dog", "Phoenix", "Dragon"],
    },
    standard: {
      suits: [["c", "Clubs", "♣"], ["d", "Diamonds", "♦"], ["h", "Hearts", "♥"], ["s", "Spades", "♠"]],
      specials: ["BJ", "RJ"],
    },
  };
  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const SPECIAL_NAMES = { BJ: "Black joker", RJ: "Red joker" };
  const RANK_NAMES = { J: "Jack", Q: "Queen", K: "King", A: "Ace" };

  function cardName(code) {
    if (SPECIAL_NAMES[code]) return SPECIAL_NAMES[code];
    const deck = DECKS[state.game];
    const suit = deck.suits.find((s) => s[0] === code.slice(-1));
    if (!suit || code.length < 2) return code;
    const rank = code.slice(0, -1);
    return (RANK_NAMES[rank] || rank) + " of " + suit[1];
  }
  function suitClass(code) {
    const letter = code.slice(-1);
    return state.game === "tichu" ? "suit-" + letter : "std-" + letter;
  }

  const state = {
    game: "tichu",
    cards: [], // [{card, confidence, corners, corrected}]
    width: 0, height: 0,
    bitmap: null,
    points: 0,
  };

  // -- options -------------------------------------------------------------------------------
  const gameSelect = $("game"), deckSelect = $("deck"), trickInput = $("trick");
  const savedDeck = params.get("deck") || localStorage.getItem("trickmate.scan.deck") || "";
  let profiles = [];

  async function loadProfiles() {
    try {
      const response = await fetch("/api/profiles");
      profiles = (await response.json()).profiles || [];
    } catch (e) { profiles = []; }
    const wanted = profiles.find((p) => p.name === savedDeck);
    if (wanted) state.game = wanted.game;
    else if (params.get("game") === "standard") state.game = "standard";
    gameSelect.value = state.game;
    fillDecks(wanted ? wanted.name : "");
    showGame();
  }
  function fillDecks(selected) {
    deckSelect.textContent = "";
    deckSelect.append(new Option("Built-in", ""));
    for (const profile of profiles.filter((p) => p.game === state.game)) {
      deckSelect.append(new Option(profile.name + " (" + profile.cards_learnt + " cards learnt)", profile.name));
    }
    deckSelect.value = selected || "";
  }
  function showGame() {
    for (const node of document.querySelectorAll(".tichu-only")) node.hidden = state.game !== "tichu";
  }
  gameSelect.addEventListener("change", () => {
    state.game = gameSelect.value;
    fillDecks("");
    showGame();
    if (state.bitmap) { state.cards = []; render(); rejudge(); }
  });
  deckSelect.addEventListener("change", () => localStorage.setItem("trickmate.scan.deck", deckSelect.value));
  trickInput.addEventListener("change", () => { if (state.bitmap) rejudge(); });

  // -- the camera ----------------------------------------------------------------------------
  const video = $("camera-video");
  let stream = null;

  function cameraNote(text) {
    $("camera-note").hidden = !text;
    $("camera-note").textContent = text || "";
  }
  function noCamera(reason) {
    $("camera").hidden = true;
    $("camera-start").hidden = true;
    cameraNote(reason + " Take or upload a photo below instead.");
  }
  async function startCamera() {
    if (!window.isSecureContext) {
      noCamera("The live camera needs a secure page: start trickmate serve --https and open the https:// address it prints (accept the certificate warning once).");
      return;
    }
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      noCamera("This browser offers no live camera.");
      return;
    }
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: "environment" }, width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false,
      });
    } catch (error) {
      const name = error && error.name;
      if (name === "NotAllowedError" || name === "SecurityError") noCamera("The camera permission was refused: allow the camera for this site in the browser's settings.");
      else if (name === "NotFoundError" || name === "OverconstrainedError") noCamera("No camera was found on this device.");
      else noCamera("The camera could not be started (" + (error && error.message ? error.message : name) + ").");
      return;
    }
    video.srcObject = stream;
    $("camera").hidden = false;
    $("camera-start").hidden = true;
    cameraNote("");
  }
  function stopCamera() {
    if (stream) for (const track of stream.getTracks()) track.stop();
    stream = null;
    video.srcObject = null;
    $("camera").hidden = true;
    $("camera-start").hidden = false;
  }
  $("camera-start").addEventListener("click", startCamera);
  $("camera-stop").addEventListener("click", stopCamera);
  $("snapshot").addEventListener("click", async () => {
    if (!video.videoWidth) return;
    const canvas = document.createElement("canvas");
    canvas.width = video.videoWidth; canvas.height = video.videoHeight;
    canvas.getContext("2d").drawImage(video, 0, 0);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
    if (blob) scan(blob, "snapshot.jpg");
  });
  // Without a secure page the camera cannot work at all: say so at once. With one, start it
  // by itself only when the permission was already given (no surprise prompt on opening).
  if (!window.isSecureContext) startCamera();
  else if (navigator.permissions && navigator.permissions.query) {
    navigator.permissions.query({ name: "camera" }).then((p) => { if (p.state === "granted") startCamera(); }, () => {});
  }

  $("photo").addEventListener("change", () => {
    const file = $("photo").files[0];
    if (file) scan(file, file.name || "photo.jpg");
    $("photo").value = ""; // choosing the same photo again scans it again
  });

  // -- scanning -------------------------------------------------------------------------------
  function showError(text) {
    $("scan-error").hidden = !text;
    $("scan-error").textContent = text || "";
  }

  async function scan(blob, name) {
    showError("");
    $("result").hidden = false;
    $("scan-status").textContent = "Reading the cards…";
    const form = new FormData();
    form.append("image", blob, name);
    form.append("game", state.game);
    if (deckSelect.value) form.append("deck", deckSelect.value);
    if (state.game === "tichu" && trickInput.value.trim()) form.append("trick", trickInput.value.trim());
    let data;
    try {
      const [response, bitmap] = await Promise.all([
        fetch("/api/scan", { method: "POST", body: form }),
        createImageBitmap(blob).catch(() => null),
      ]);
      try { data = await response.json(); } catch (e) { data = { error: "the server sent no answer (" + response.status + ")" }; }
      if (!response.ok) {
        $("scan-status").textContent = "";
        $("result").hidden = true;
        showError("Cannot scan this photo: " + (data.error || "error " + response.status));
        return;
      }
      state.bitmap = bitmap;
    } catch (error) {
      $("scan-status").textContent = "";
      showError("The server cannot be reached.");
      return;
    }
    state.width = data.width; state.height = data.height;
    state.cards = data.cards.map((c) => ({ card: c.card, confidence: c.confidence, corners: c.corners, corrected: false }));
    const n = state.cards.length;
    $("scan-status").textContent = n ? n + (n === 1 ? " card" : " cards") + " found in " + Math.round(data.ms) + " ms." : "No card found: photograph the cards from above, face up, on a darker table.";
    render();
    show({ combination: data.combination, points: data.points, verdict: data.verdict });
  }

  // -- drawing and the list ---------------------------------------------------------------------
  const canvas = $("overlay");

  function render() {
    draw();
    const list = $("found-list");
    list.textContent = "";
    state.cards.forEach((found, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "found-card " + suitClass(found.card) + (found.corrected ? " corrected" : "");
      button.dataset.card = found.card;
      button.setAttribute("aria-label", cardName(found.card) + (found.corrected ? ", corrected" : ", " + Math.round(found.confidence * 100) + "% sure") + ": tap to correct");
      const tag = document.createElement("span");
      tag.className = "found-number"; tag.textContent = String(index + 1);
      const label = document.createElement("span");
      label.className = "found-name"; label.textContent = found.card;
      const sure = document.createElement("span");
      sure.className = "found-confidence";
      sure.textContent = found.corrected ? "corrected" : Math.round(found.confidence * 100) + "%";
      if (!found.corrected && found.confidence < 0.8) sure.classList.add("unsure");
      button.append(tag, label, sure);
      button.addEventListener("click", () => openPicker({ mode: "correct", index }));
      item.append(button);
      list.append(item);
    });
  }

  function draw() {
    const ctx = canvas.getContext("2d");
    const bitmap = state.bitmap;
    const width = Math.min(1280, bitmap ? bitmap.width : state.width || 640);
    const scale = bitmap ? width / bitmap.width : 1;
    canvas.width = width;
    canvas.height = bitmap ? Math.round(bitmap.height * scale) : Math.round((state.height || 480) * width / (state.width || 640));
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (bitmap) ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const k = state.width ? canvas.width / state.width : 1;
    const line = Math.max(3, canvas.width / 220);
    const font = Math.max(18, Math.round(canvas.width / 24));
    ctx.font = "bold " + font + "px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    state.cards.forEach((found, index) => {
      if (!found.corners.length) return; // added by hand: no outline
      const pts = found.corners.map(([x, y]) => [x * k, y * k]);
      ctx.lineWidth = line;
      ctx.strokeStyle = found.corrected ? "#5cc8ff" : found.confidence < 0.8 ? "#ff6b6b" : "#ffd24a";
      ctx.beginPath();
      pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      ctx.closePath();
      ctx.stroke();
      const cx = pts.reduce((s, p) => s + p[0], 0) / 4, cy = pts.reduce((s, p) => s + p[1], 0) / 4;
      const text = (index + 1) + " " + found.card;
      const w = ctx.measureText(text).width + font * 0.6;
      const x = Math.min(Math.max(cx - w / 2, 0), canvas.width - w), y = Math.min(Math.max(cy, font), canvas.height - font);
      ctx.fillStyle = "rgba(11, 15, 20, 0.85)";
      ctx.fillRect(x, y - font * 0.75, w, font * 1.5);
      ctx.fillStyle = ctx.strokeStyle;
      ctx.fillText(text, x + font * 0.3, y);
    });
  }

  function inside(point, polygon) {
    let hit = false;
    for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
      const [xi, yi] = polygon[i], [xj, yj] = polygon[j];
      if ((yi > point[1]) !== (yj > point[1]) && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) hit = !hit;
    }
    return hit;
  }
  canvas.addEventListener("click", (event) => {
    if (!state.width) return;
    const box = canvas.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * state.width;
    const y = ((event.clientY - box.top) / box.height) * state.height;
    // The card drawn last lies on top: search from the end.
    for (let i = state.cards.length - 1; i >= 0; i--) {
      if (inside([x, y], state.cards[i].corners)) { openPicker({ mode: "correct", index: i }); return; }
    }
  });

  // -- the combination, verdict and points -----------------------------------------------------------
  function describe(combo) {
    if (!combo) return "No Tichu combination.";
    const kind = combo.kind.replace("_", " ");
    return kind.charAt(0).toUpperCase() + kind.slice(1) + (combo.rank !== undefined && combo.rank !== null ? " of rank " + combo.rank : "") +
      ", " + combo.length + (combo.length === 1 ? " card" : " cards");
  }

  function show(result) {
    state.points = result.points;
    $("pile-points").textContent = String(result.points);
    $("combination").textContent = state.cards.length ? describe(result.combination) : "";
    const box = $("scan-verdict");
    const verdict = result.verdict;
    box.hidden = !verdict;
    box.className = "verdict";
    if (verdict) {
      box.textContent = "";
      const head = document.createElement("strong");
      const trick = trickInput.value.trim();
      if (verdict.error) {
        box.classList.add("error");
        head.textContent = "Cannot judge";
        box.append(head, document.createTextNode(verdict.error));
      } else {
        box.classList.add(verdict.legal ? "legal" : "illegal");
        head.textContent = verdict.legal ? "✓ Beats " + trick : "✗ Does not beat " + trick;
        box.append(head);
        if (verdict.reason) { const reason = document.createElement("p"); reason.className = "reason"; reason.textContent = verdict.reason; box.append(reason); }
      }
    }
    // The round form takes points only on the phone that keeps the table's score.
    const scorer = Boolean(tableId) && Boolean(localStorage.getItem("trickmate.token." + tableId));
    const counting = scorer && state.game === "tichu";
    $("count-actions").hidden = !counting;
    $("count-hint").hidden = counting || state.game !== "tichu";
    if (tableId && !scorer) $("count-hint").textContent = "This phone does not keep this table's score: open the scorer link on it first, then scan again.";
  }

  let judging = 0;
  async function rejudge() {
    const ticket = ++judging;
    const body = { game: state.game, cards: state.cards.map((c) => c.card).join(" ") };
    if (state.game === "tichu" && trickInput.value.trim()) body.trick = trickInput.value.trim();
    try {
      const response = await fetch("/api/judge-cards", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const data = await response.json();
      if (ticket !== judging) return;
      if (!response.ok) { showError(data.error || "cannot judge these cards"); return; }
      showError("");
      show(data);
    } catch (e) { showError("The server cannot be reached."); }
  }

  // -- counting the pile for a team --------------------------------------------------------------------
  if (players) {
    $("count0").textContent = "Count this pile for " + players[0] + " & " + players[2];
    $("count1").textContent = "Count this pile for " + players[1] + " & " + players[3];
  }
  function hand(team) {
    location.href = "/t/" + encodeURIComponent(tableId) + "?points=" + state.points + "&team=" + team;
  }
  $("count0").addEventListener("click", () => hand("0"));
  $("count1").addEventListener("click", () => hand("1"));

  // -- the card picker (correct a card, add a missed one, or pick the trick) ----------------------------
  const dialog = $("picker");
  let picking = null;

  function allCards() {
    const deck = DECKS[state.game];
    const cards = deck.specials.slice();
    for (const rank of RANKS) for (const suit of deck.suits) cards.push(rank + suit[0]);
    return cards;
  }

  function openPicker(what) {
    picking = what;
    const grid = $("picker-grid");
    grid.textContent = "";
    grid.className = "picker-grid";
    const deck = DECKS[state.game];
    const current = what.mode === "correct" ? state.cards[what.index].card : null;
    const chosen = what.mode === "trick" ? new Set(trickInput.value.split(/[\s,]+/).filter(Boolean).map(normal)) : new Set();
    $("picker-title").textContent = what.mode === "correct" ? "Card " + (what.index + 1) + " was read as " + current + ". Which card is it?"
      : what.mode === "add" ? "Which card did it miss?" : "Tap the cards of the play to beat";
    $("picker-remove").hidden = what.mode !== "correct";
    $("picker-done").hidden = what.mode !== "trick";
    for (const code of allCards()) {
      const button = document.createElement("button");
      button.type = "button";
      const special = deck.specials.includes(code);
      button.className = "pick-card " + (special ? "special" : suitClass(code));
      button.dataset.card = code;
      button.setAttribute("aria-label", cardName(code));
      button.setAttribute("aria-pressed", String(code === current || chosen.has(code)));
      const rank = document.createElement("span");
      rank.className = "rank";
      rank.textContent = special ? code : code.slice(0, -1);
      button.append(rank);
      if (!special) {
        const suit = document.createElement("span");
        suit.className = "suit"; suit.setAttribute("aria-hidden", "true");
        suit.textContent = deck.suits.find((s) => s[0] === code.slice(-1))[2];
        button.append(suit);
      }
      button.addEventListener("click", () => pick(code, button));
      grid.append(button);
    }
    if (dialog.showModal) dialog.showModal(); else dialog.setAttribute("open", "");
  }

  function closePicker() {
    picking = null;
    if (dialog.close) dialog.close(); else dialog.removeAttribute("open");
  }

  function normal(token) {
    const lower = token.toLowerCase();
    const specials = { mahjong: "Mahjong", mj: "Mahjong", "1": "Mahjong", dog: "Dog", dg: "Dog", phoenix: "Phoenix", ph: "Phoenix", dragon: "Dragon", dr: "Dragon", bj: "BJ", rj: "RJ" };
    if (lower in specials) return specials[lower];
    let rank = lower.slice(0, -1).toUpperCase();
    if (rank === "T") rank = "10";
    return rank + lower.slice(-1);
  }

  function pick(code, button) {
    if (!picking) return;
    if (picking.mode === "trick") {
      const pressed = button.getAttribute("aria-pressed") !== "true";
      button.setAttribute("aria-pressed", String(pressed));
      return;
    }
    if (picking.mode === "correct") {
      const found = state.cards[picking.index];
      if (found.card !== code) { found.card = code; found.corrected = true; }
    } else {
      // A missed card has no outline: it counts but is not drawn.
      state.cards.push({ card: code, confidence: 1, corners: [], corrected: true });
    }
    closePicker();
    render();
    rejudge();
  }

  $("picker-remove").addEventListener("click", () => {
    if (picking && picking.mode === "correct") state.cards.splice(picking.index, 1);
    closePicker();
    render();
    rejudge();
  });
  $("picker-done").addEventListener("click", () => {
    const codes = [...$("picker-grid").querySelectorAll('[aria-pressed="true"]')].map((b) => b.dataset.card);
    trickInput.value = codes.join(" ");
    closePicker();
    if (state.bitmap) rejudge();
  });
  $("picker-cancel").addEventListener("click", closePicker);
  $("add-card").addEventListener("click", () => openPicker({ mode: "add" }));
  $("trick-pick").addEventListener("click", () => openPicker({ mode: "trick" }));

  if (params.get("trick")) trickInput.value = params.get("trick");
  loadProfiles();
})();
