// Start a table: create it through the API, then open the scorer link on this phone.
"use strict";
(function () {
  const formNode = document.getElementById("new-table");
  const custom = document.getElementById("custom-target-field");
  const error = document.getElementById("start-error");
  for (const radio of formNode.querySelectorAll('input[name="target"]')) {
    radio.addEventListener("change", () => { custom.hidden = formNode.elements.target.value !== "custom"; });
  }
  formNode.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    const players = [0, 1, 2, 3].map((seat) => formNode.elements["player" + seat].value.trim());
    const empty = players.findIndex((name) => !name);
    if (empty >= 0) { show("Seat " + (empty + 1) + " needs a name."); formNode.elements["player" + empty].focus(); return; }
    let target = formNode.elements.target.value;
    target = target === "custom" ? Number(document.getElementById("custom-target").value) : Number(target);
    if (!Number.isInteger(target) || target <= 0) { show("The target must be a whole number above 0."); return; }
    const doubleVictory = Number(document.getElementById("double-victory").value);
    if (!Number.isInteger(doubleVictory) || doubleVictory <= 0 || doubleVictory % 5) {
      show("A double victory must score a positive multiple of 5 (usually 200).");
      document.getElementById("double-victory").focus();
      return;
    }
    const rules = { double_victory: doubleVictory, count_from_cards: document.getElementById("count-from-cards").checked };
    try {
      const response = await fetch("/api/tables", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: formNode.elements.game.value, players, target, rules }),
      });
      const data = await response.json();
      if (!response.ok) { show(data.error || "could not start the table"); return; }
      location.href = data.scorer_url;
    } catch (e) { show("The server cannot be reached. Is trickmate serve still running?"); }
  });
  function show(message) { error.textContent = message; error.hidden = false; }
})();
