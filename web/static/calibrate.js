// The calibration walk-through: name the deck, photograph its cards in rows (one suggested
// layout per photo), confirm each photo's card list, then POST /api/profiles to learn it.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const page = $("calibrate-page");
  const SUGGESTED = JSON.parse(page.dataset.steps);
  const photoHost = $("photo-steps");
  let game = "tichu";
  let photos = []; // per photo step: {file, cards}
  let step = 0; // 0 deck, 1..n photos, n+1 learn

  function slug(text) {
    return text.trim().toLowerCase().replace(/\s+/g, "-").replace(/[^a-z0-9_-]/g, "").replace(/^[-_]+/, "").slice(0, 40);
  }
  function countCards(text) { return text.split(/[\s,]+/).filter(Boolean).length; }

  function buildPhotoSteps() {
    photoHost.textContent = "";
    photos = SUGGESTED[game].map((s) => ({ file: null, cards: s.cards }));
    SUGGESTED[game].forEach((suggestion, index) => {
      const n = index + 1, total = SUGGESTED[game].length;
      const section = document.createElement("section");
      section.className = "card step";
      section.id = "step-photo-" + n;
      section.hidden = true;
      section.setAttribute("aria-labelledby", "photo-title-" + n);
      section.innerHTML =
        '<h2 id="photo-title-' + n + '"></h2>' +
        '<p class="how"></p>' +
        '<div class="layout" aria-label="The layout, row by row"></div>' +
        '<label class="field file-field" for="photo-' + n + '"><span></span>' +
        '<input type="file" id="photo-' + n + '" accept="image/*" capture="environment"></label>' +
        '<canvas class="thumb" hidden></canvas>' +
        '<p class="scan-status photo-status" aria-live="polite"></p>' +
        '<label class="field" for="cards-' + n + '">Cards in this photo, in reading order' +
        '<input type="text" id="cards-' + n + '" autocomplete="off" autocapitalize="off" spellcheck="false"></label>' +
        '<p class="hint">Change the list if you laid out other cards: rows top to bottom, each row left to right.</p>';
      section.querySelector("h2").textContent = "Photo " + n + " of " + total + ": " + suggestion.title;
      const cards = suggestion.cards.split(" ");
      section.querySelector(".how").textContent = "Lay these " + cards.length + " cards face up on a plain, darker table, apart from each other, " +
        "in rows, in the order shown (rows top to bottom, each row left to right). Photograph them from above, the whole layout in the picture, no flash glare.";
      const layout = section.querySelector(".layout");
      for (const card of cards) {
        const chip = document.createElement("span");
        chip.textContent = card;
        if (card.length > 3) chip.className = "wide"; // Mahjong, Phoenix...: two places
        layout.append(chip);
      }
      section.querySelector(".file-field span").textContent = "Take or upload photo " + n;
      const input = section.querySelector("#cards-" + n);
      input.value = suggestion.cards;
      input.addEventListener("input", () => { photos[index].cards = input.value; });
      const file = section.querySelector("#photo-" + n);
      file.addEventListener("change", () => choose(index, section, file.files[0] || null));
      photoHost.append(section);
    });
  }

  async function choose(index, section, file) {
    photos[index].file = file;
    const thumb = section.querySelector(".thumb");
    const status = section.querySelector(".photo-status");
    status.textContent = file ? "Photo chosen: " + (file.name || "camera") : "";
    thumb.hidden = !file;
    if (file) {
      try {
        const bitmap = await createImageBitmap(file);
        const width = Math.min(720, bitmap.width);
        thumb.width = width; thumb.height = Math.round((bitmap.height * width) / bitmap.width);
        thumb.getContext("2d").drawImage(bitmap, 0, 0, thumb.width, thumb.height);
      } catch (e) { thumb.hidden = true; }
    }
    show();
  }

  function lastStep() { return photos.length + 1; }

  function show() {
    $("step-deck").hidden = step !== 0;
    photos.forEach((_, index) => { $("step-photo-" + (index + 1)).hidden = step !== index + 1; });
    $("step-learn").hidden = step !== lastStep();
    $("back").disabled = step === 0;
    $("next").hidden = step === lastStep();
    if (step === 0) $("next").textContent = "Next: photo 1";
    else if (step <= photos.length) $("next").textContent = photos[step - 1].file ? (step === photos.length ? "Next: learn" : "Next: photo " + (step + 1)) : "Skip this photo";
    const progress = $("progress");
    progress.textContent = "";
    for (let i = 0; i <= lastStep(); i++) {
      const dot = document.createElement("li");
      dot.className = i < step ? "done" : i === step ? "current" : "";
      progress.append(dot);
    }
    $("step-count").textContent = "Step " + (step + 1) + " of " + (lastStep() + 1);
    if (step === lastStep()) review();
  }

  function review() {
    const list = $("review");
    list.textContent = "";
    photos.forEach((photo, index) => {
      const item = document.createElement("li");
      item.textContent = photo.file ? "Photo " + (index + 1) + ": " + countCards(photo.cards) + " cards (" + (photo.file.name || "camera") + ")" : "Photo " + (index + 1) + ": skipped";
      if (!photo.file) item.className = "missing";
      list.append(item);
    });
    const name = slug($("deck-name").value);
    const item = document.createElement("li");
    item.textContent = "Deck name: " + (name || "(none yet: go back to step 1)");
    list.prepend(item);
    $("learn").disabled = !name || !photos.some((p) => p.file);
  }

  function go(to) {
    step = Math.max(0, Math.min(lastStep(), to));
    show();
    window.scrollTo(0, 0);
  }

  for (const radio of document.querySelectorAll('input[name="game"]')) {
    radio.addEventListener("change", () => { game = radio.value; buildPhotoSteps(); show(); });
  }
  $("deck-name").addEventListener("change", () => { $("deck-name").value = slug($("deck-name").value); });
  $("back").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => {
    if (step === 0) {
      const name = slug($("deck-name").value);
      $("deck-name").value = name;
      if (!name) { $("deck-name-hint").textContent = "Name the deck first (small letters, digits, - and _)."; $("deck-name-hint").classList.add("error"); $("deck-name").focus(); return; }
    }
    go(step + 1);
  });

  $("learn").addEventListener("click", async () => {
    const status = $("learn-status");
    const name = slug($("deck-name").value);
    const form = new FormData();
    form.append("name", name);
    form.append("game", game);
    for (const photo of photos) {
      if (!photo.file) continue;
      form.append("photo", photo.file, photo.file.name || "photo.jpg");
      form.append("cards", photo.cards);
    }
    $("learn").disabled = true;
    $("learnt").hidden = true;
    status.classList.remove("error");
    status.textContent = "Learning the deck… (a few seconds per photo)";
    try {
      const response = await fetch("/api/profiles", { method: "POST", body: form });
      let data;
      try { data = await response.json(); } catch (e) { data = { error: "the server sent no answer (" + response.status + ")" }; }
      if (!response.ok) { status.classList.add("error"); status.textContent = data.error || "error " + response.status; return; }
      status.textContent = "";
      // In the decks' own suit order (the JSON object comes with its keys sorted).
      const suitOrder = ["jade", "sword", "pagoda", "star", "clubs", "diamonds", "hearts", "spades"];
      const colours = suitOrder.filter((suit) => (data.suit_colours || {})[suit]).map((suit) => suit + " " + data.suit_colours[suit]).join(", ");
      const names = (data.names_learnt || []).join(", ");
      $("learnt-text").textContent = "Learnt " + data.cards_learnt + " cards of the " + (data.game === "tichu" ? "Tichu" : "standard") + " deck “" + data.name + "”" +
        (colours ? ", with its suit colours (" + colours + ")" : "") +
        (names ? ", and the names printed on its " + names + " (they are found by them in fans and piles)" : "") +
        ". It is now a choice on the scanner.";
      $("use-deck").href = "/scan?deck=" + encodeURIComponent(data.name);
      $("learnt").hidden = false;
      localStorage.setItem("trickmate.scan.deck", data.name);
    } catch (e) {
      status.classList.add("error");
      status.textContent = "The server cannot be reached.";
    } finally {
      $("learn").disabled = false;
    }
  });

  buildPhotoSteps();
  show();
})();
