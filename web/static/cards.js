// A phone-friendly Tichu card picker: 56 big buttons grouped by suit. Each card belongs to
// at most one pile; the active pile gets the cards tapped. Used by the round form and the referee.
"use strict";
(function () {
  const SUITS = [
    { letter: "j", name: "Jade", symbol: "◆" },
    { letter: "s", name: "Sword", symbol: "⚔" },
    { letter: "p", name: "Pagoda", symbol: "⌂" },
    { letter: "t", name: "Star", symbol: "★" },
  ];
  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const RANK_NAMES = { J: "Jack", Q: "Queen", K: "King", A: "Ace" };
  const SPECIALS = [
    { code: "Mahjong", label: "Mah­jong", points: 0 },
    { code: "Dog", label: "Dog", points: 0 },
    { code: "Phoenix", label: "Phoe­nix", points: -25 },
    { code: "Dragon", label: "Dragon", points: 25 },
  ];

  function cardPoints(code) {
    if (code === "Dragon") return 25;
    if (code === "Phoenix") return -25;
    const rank = code.slice(0, -1);
    if (rank === "5") return 5;
    if (rank === "10" || rank === "K") return 10;
    return 0;
  }

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // piles: [{id, label, short}], the first is active at the start.
  function CardPicker(pileBar, gridHost, piles, onChange, withFill) {
    this.piles = piles;
    this.active = piles[0].id;
    this.owner = {}; // card code -> pile id
    this.onChange = onChange || function () {};
    this.pileButtons = {};
    this.cardButtons = {};
    pileBar.textContent = "";
    for (const pile of piles) {
      const button = el("button", { type: "button", class: "pile pile-" + pile.id, "aria-pressed": "false", "data-pile": pile.id });
      button.append(el("span", { class: "pile-label" }, pile.label), el("span", { class: "pile-count" }, ""));
      button.addEventListener("click", () => this.select(pile.id));
      pileBar.append(button);
      this.pileButtons[pile.id] = button;
    }
    if (withFill) {
      // Counting a round needs all 56 cards: tap the few odd ones, then give the rest at once.
      const fill = el("button", { type: "button", class: "fill-rest" }, "Every untapped card → chosen pile");
      fill.addEventListener("click", () => this.fillRest());
      pileBar.append(fill);
    }
    gridHost.textContent = "";
    const specials = el("div", { class: "card-row specials", role: "group", "aria-label": "Special cards" });
    for (const special of SPECIALS) specials.append(this.cardButton(special.code, special.label, special.code, "special"));
    gridHost.append(specials);
    // One column per suit, one row per rank: a phone is narrow but may scroll, and the
    // same rank in every suit sits on one line (pairs, bombs) with targets wide enough.
    const grid = el("div", { class: "card-grid", role: "group", "aria-label": "Cards by suit" });
    for (const suit of SUITS) grid.append(el("div", { class: "suit-name suit-" + suit.letter, "aria-hidden": "true" }, suit.symbol + " " + suit.name));
    for (const rank of RANKS) {
      for (const suit of SUITS) {
        const name = (RANK_NAMES[rank] || rank) + " of " + suit.name;
        grid.append(this.cardButton(rank + suit.letter, rank, name, "suit-" + suit.letter, suit.symbol));
      }
    }
    gridHost.append(grid);
    this.select(this.active);
  }

  CardPicker.prototype.cardButton = function (code, label, name, cls, symbol) {
    const button = el("button", { type: "button", class: "pick-card " + cls, "data-card": code, "aria-pressed": "false", "aria-label": name });
    button.append(el("span", { class: "rank" }, label));
    if (symbol) button.append(el("span", { class: "suit", "aria-hidden": "true" }, symbol));
    const points = cardPoints(code);
    if (points) button.append(el("span", { class: "card-points", "aria-hidden": "true" }, (points > 0 ? "+" : "") + points));
    button.append(el("span", { class: "owner", "aria-hidden": "true" }, ""));
    button.addEventListener("click", () => this.toggle(code));
    this.cardButtons[code] = button;
    return button;
  };

  CardPicker.prototype.select = function (pileId) {
    this.active = pileId;
    for (const [id, button] of Object.entries(this.pileButtons)) button.setAttribute("aria-pressed", String(id === pileId));
  };

  CardPicker.prototype.toggle = function (code) {
    if (this.owner[code] === this.active) delete this.owner[code];
    else this.owner[code] = this.active;
    this.refresh();
    this.onChange();
  };

  CardPicker.prototype.refresh = function () {
    const shortOf = Object.fromEntries(this.piles.map((p) => [p.id, p.short]));
    for (const [code, button] of Object.entries(this.cardButtons)) {
      const pile = this.owner[code];
      button.setAttribute("aria-pressed", String(pile !== undefined));
      button.dataset.pile = pile === undefined ? "" : pile;
      button.querySelector(".owner").textContent = pile === undefined ? "" : shortOf[pile];
      const base = button.getAttribute("aria-label").replace(/ \(.*\)$/, "");
      button.setAttribute("aria-label", pile === undefined ? base : base + " (" + shortOf[pile] + ")");
    }
    for (const pile of this.piles) {
      const cards = this.cards(pile.id);
      const points = cards.reduce((sum, c) => sum + cardPoints(c), 0);
      this.pileButtons[pile.id].querySelector(".pile-count").textContent = cards.length ? cards.length + " · " + points + " pts" : "";
    }
  };

  CardPicker.prototype.fillRest = function () {
    for (const code of Object.keys(this.cardButtons)) if (this.owner[code] === undefined) this.owner[code] = this.active;
    this.refresh();
    this.onChange();
  };

  CardPicker.prototype.cards = function (pileId) {
    return Object.keys(this.owner).filter((code) => this.owner[code] === pileId);
  };

  CardPicker.prototype.text = function (pileId) {
    return this.cards(pileId).join(" ");
  };

  CardPicker.prototype.setPile = function (pileId, text) {
    for (const code of Object.keys(this.owner)) if (this.owner[code] === pileId) delete this.owner[code];
    for (const token of (text || "").split(/[\s,]+/).filter(Boolean)) {
      const code = normalise(token);
      if (code in this.cardButtons) this.owner[code] = pileId;
    }
    this.refresh();
  };

  CardPicker.prototype.clear = function () {
    this.owner = {};
    this.refresh();
  };

  function normalise(token) {
    const lower = token.toLowerCase();
    const specials = { mahjong: "Mahjong", mj: "Mahjong", "1": "Mahjong", dog: "Dog", dg: "Dog", phoenix: "Phoenix", ph: "Phoenix", dragon: "Dragon", dr: "Dragon" };
    if (lower in specials) return specials[lower];
    let rank = lower.slice(0, -1).toUpperCase();
    if (rank === "T") rank = "10";
    return rank + lower.slice(-1);
  }

  window.CardPicker = CardPicker;
  window.cardPoints = cardPoints;
})();
