// The referee page: pick the trick, the play and (optionally) the rest of the hand,
// set the wish and the turn, and ask the server's referee.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const piles = [
    { id: "trick", label: "On the table (to beat)", short: "table" },
    { id: "play", label: "Played now", short: "play" },
    { id: "rest", label: "Rest of hand (optional)", short: "hand" },
    // A Phoenix single on the table is worth the card played before it plus a half.
    { id: "before", label: "Play before that (optional)", short: "prev" },
  ];
  const picker = new window.CardPicker($("ref-piles"), $("ref-picker"), piles, () => { $("verdict").hidden = true; });
  picker.select("play");
  let wish = null;
  const wishBox = $("wish");
  for (const rank of [null, "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "toggle wish-button"; b.textContent = rank || "none";
    b.setAttribute("aria-label", rank ? "Wish for " + rank : "No wish");
    b.setAttribute("aria-pressed", String(rank === null));
    b.addEventListener("click", () => {
      wish = rank;
      for (const other of wishBox.children) other.setAttribute("aria-pressed", String(other === b));
    });
    wishBox.append(b);
  }

  function situation(pass) {
    const s = { game: "tichu", play: pass ? "pass" : picker.text("play"), turn: $("turn").checked };
    const trick = picker.text("trick");
    const before = picker.text("before");
    if (trick) s.trick = before ? [before, trick] : [trick];
    const rest = picker.text("rest");
    if (rest) s.hand = (picker.text("play") + " " + rest).trim();
    if (wish) s.wish = wish;
    return s;
  }

  async function judge(pass) {
    const box = $("verdict");
    box.hidden = false;
    box.className = "verdict";
    if (!pass && !picker.text("play")) { box.textContent = "Tap the cards that were played (or judge a pass)."; return; }
    try {
      const response = await fetch("/api/referee", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(situation(pass)) });
      const data = await response.json();
      if (!response.ok) { box.classList.add("error"); box.textContent = data.error || "the referee could not answer"; return; }
      box.classList.add(data.legal ? "legal" : "illegal");
      box.textContent = "";
      const head = document.createElement("strong");
      head.textContent = data.legal ? "✓ Legal" : "✗ Not legal";
      const detail = document.createElement("p");
      const combo = data.combination;
      detail.textContent = (combo ? combo.kind.replace("_", " ") + (combo.rank !== undefined && combo.rank !== null ? " of rank " + combo.rank : "") + ", " + combo.length + (combo.length === 1 ? " card" : " cards") : "no combination") +
        " · " + data.points + " points";
      box.append(head, detail);
      if (data.reason) { const reason = document.createElement("p"); reason.className = "reason"; reason.textContent = data.reason; box.append(reason); }
    } catch (e) { box.classList.add("error"); box.textContent = "The server cannot be reached."; }
  }
  $("judge").addEventListener("click", () => judge(false));
  $("pass").addEventListener("click", () => judge(true));
  $("ref-clear").addEventListener("click", () => { picker.clear(); $("verdict").hidden = true; });
})();
