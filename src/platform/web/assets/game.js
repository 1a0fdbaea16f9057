// A game's page: draws the board of the chosen half-move as SVG, steps through the game
// (slider, buttons, arrow keys, the move list, ?ply=N), follows a live game through
// server-sent events and counts its clocks down. The data is the page's #game-data.
// play.js (a signed-in player's controls) hands it states with a "toguz:state" event, a
// position to show instead of the game's (the premove mode's preview, decided by the
// server) with "toguz:preview", and hears each drawing from "toguz:drawn".
"use strict";
(function () {
  const dataNode = document.getElementById("game-data");
  if (!dataNode) return;
  const game = JSON.parse(dataNode.textContent);
  const words = game.words;
  const SVG = "http://www.w3.org/2000/svg";
  const boardNode = document.getElementById("board");
  const slider = document.getElementById("slider");
  const plyText = document.getElementById("ply-text");
  const movesNode = document.getElementById("moves");
  const statusNode = document.getElementById("status");
  let ply = Math.min(game.ply, game.plies.length - 1);
  // A position drawn instead of the game's (play.js's premove mode), or null.
  let preview = null;

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const key in attrs) node.setAttribute(key, attrs[key]);
    if (parent) parent.appendChild(node);
    return node;
  }

  function text(parent, x, y, value, cls) {
    const node = el("text", { x: x, y: y, "text-anchor": "middle", class: cls }, parent);
    node.textContent = value;
    return node;
  }

  // Balls in a pit: up to 18 drawn, three to a row; the number says the rest.
  function balls(parent, cx, top, count) {
    const shown = Math.min(count, 18);
    const rows = Math.ceil(shown / 3);
    const startY = top + 62 - (rows - 1) * 9;
    for (let i = 0; i < shown; i++) {
      const row = Math.floor(i / 3);
      const inRow = Math.min(3, shown - row * 3);
      const x = cx + ((i % 3) - (inRow - 1) / 2) * 19;
      el("circle", { cx: x, cy: startY + row * 18, r: 8, class: "ball" }, parent);
    }
  }

  function pit(svg, p, side, index, x, y) {
    const count = p.pits[side][index];
    const other = 1 - side;
    const isTuzdek = p.tuzdeks[other] === index + 1;
    const g = el("g", { class: "pit" }, svg);
    let cls = isTuzdek ? "hole tuzdek" : "hole";
    if (p.last && p.last[0] === side && p.last[1] === index + 1) cls += " played";
    if (p.last && p.last[2] === side && p.last[3] === index + 1) cls += " landed";
    el("rect", { x: x, y: y, width: 80, height: 125, rx: 40, class: cls }, g);
    if (isTuzdek) {
      el("path", { d: `M${x + 20} ${y + 42} l40 40 m0 -40 l-40 40`, class: "cross" }, g);
    } else {
      balls(g, x + 40, y, count);
    }
    const countY = side === 1 ? y + 150 : y - 14;
    const shown = text(svg, x + 40, countY, String(count), "count");
    // Which pit the number counts (tests and scripts read the board by it).
    shown.dataset.side = String(side);
    shown.dataset.hole = String(index + 1);
    const numberY = side === 1 ? y - 12 : y + 142;
    text(svg, x + 40, numberY, String(index + 1), "pit-number");
  }

  function store(svg, p, side, y) {
    el("rect", { x: 40, y: y, width: 720, height: 44, rx: 22, class: "store-bar" }, svg);
    const shown = Math.min(p.stores[side], 162);
    for (let i = 0; i < shown; i++) {
      el("circle", { cx: 62 + Math.floor(i / 4) * 11, cy: y + 8 + (i % 4) * 9.5, r: 4.2, class: "ball" }, svg);
    }
    el("rect", { x: 772, y: y, width: 146, height: 44, rx: 8, class: "store-box" }, svg);
    text(svg, 810, y + 28, words.store, "store-label");
    text(svg, 880, y + 32, String(p.stores[side]), "store-count");
  }

  function draw() {
    const p = preview || game.plies[ply];
    const svg = el("svg", { viewBox: "0 0 960 520", role: "img", "aria-label": p.fen });
    el("rect", { x: 8, y: 8, width: 944, height: 504, rx: 18, class: "wood" }, svg);
    for (let i = 0; i < 9; i++) pit(svg, p, 1, 8 - i, 40 + i * 100, 50);
    store(svg, p, 1, 212);
    store(svg, p, 0, 264);
    for (let i = 0; i < 9; i++) pit(svg, p, 0, i, 40 + i * 100, 356);
    boardNode.replaceChildren(svg);
    boardNode.classList.toggle("preview", !!preview);
    boardNode.dataset.position = p.fen;
    boardNode.dataset.ply = String(ply);
    slider.max = String(game.plies.length - 1);
    slider.value = String(ply);
    plyText.textContent = `${words.ply} ${ply} / ${game.plies.length - 1}`;
    for (const b of movesNode.querySelectorAll("button")) {
      b.classList.toggle("current", Number(b.dataset.ply) === ply);
    }
    const atEnd = ply === game.plies.length - 1;
    statusNode.textContent = atEnd && !preview ? game.status : words.to_move[p.to_move];
    explorerLink();
    moveMarker();
    const detail = { ply: ply, last: atEnd, version: game.version, pits: p.pits, preview: !!preview };
    document.dispatchEvent(new CustomEvent("toguz:drawn", { detail: detail }));
  }

  // The explorer at the shown half-move: the pits played so far (none past its deepest).
  function explorerLink() {
    const link = document.getElementById("explorer-link");
    if (!link) return;
    const pits = [];
    for (let i = 1; i <= ply; i++) pits.push(game.plies[i].last ? game.plies[i].last[1] : "");
    link.hidden = ply > Number(link.dataset.max);
    const url = new URL(link.dataset.base, window.location.href);
    url.searchParams.set("moves", pits.join(""));
    link.href = url.pathname + url.search;
  }

  function go(next, remember) {
    ply = Math.max(0, Math.min(game.plies.length - 1, next));
    draw();
    if (remember !== false) {
      const url = new URL(window.location.href);
      url.searchParams.set("ply", String(ply));
      window.history.replaceState(null, "", url);
    }
  }

  function listMoves() {
    // A move number and its two half-moves stay on one line.
    movesNode.replaceChildren();
    let pair = null;
    for (let i = 1; i < game.plies.length; i++) {
      if (i % 2 === 1) {
        pair = document.createElement("span");
        pair.className = "pair";
        const number = document.createElement("span");
        number.className = "number";
        number.textContent = `${(i + 1) / 2}.`;
        pair.appendChild(number);
        movesNode.appendChild(pair);
      }
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.ply = String(i);
      b.textContent = game.plies[i].token;
      pair.appendChild(b);
    }
  }

  movesNode.addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (b) go(Number(b.dataset.ply));
  });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const steps = { start: () => 0, back: () => ply - 1, forward: () => ply + 1, end: () => game.plies.length - 1 };
  for (const name in steps) {
    document.getElementById(name).addEventListener("click", () => go(steps[name]()));
  }
  document.addEventListener("keydown", (e) => {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = { ArrowLeft: steps.back, ArrowRight: steps.forward, Home: steps.start, End: steps.end };
    if (keys[e.key]) {
      e.preventDefault();
      go(keys[e.key]());
    }
  });
  const copy = document.getElementById("copy");
  copy.addEventListener("click", () => {
    const fen = game.plies[ply].fen;
    if (!navigator.clipboard) return;
    navigator.clipboard.writeText(fen).then(
      () => { copy.textContent = words.copied; setTimeout(() => { copy.textContent = words.copy; }, 1500); },
      () => {}
    );
  });

  // Clocks: left at `at` (the server's milliseconds), the side to move's running.
  const clockNodes = [document.getElementById("clock-0"), document.getElementById("clock-1")];
  const offset = Date.now() - game.now_ms;
  function showClocks() {
    const c = game.clock;
    if (!c) return;
    for (let side = 0; side < 2; side++) {
      let left = c.left_ms[side];
      if (c.running === side) left -= Date.now() - offset - c.at_ms;
      left = Math.max(0, left);
      const s = Math.floor(left / 1000);
      const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
      const mm = h > 0 ? `${h}:${String(m).padStart(2, "0")}` : String(m);
      clockNodes[side].textContent = `${mm}:${String(sec).padStart(2, "0")}`;
    }
  }
  if (game.clock) setInterval(showClocks, 250);

  function take(update) {
    // States come from the live stream and from a player's action: the newest wins, and
    // one already shown is not drawn again.
    if (update.version <= game.version) return;
    const atEnd = ply === game.plies.length - 1;
    game.version = update.version;
    game.ongoing = update.ongoing;
    game.plies = update.plies;
    game.status = update.status;
    game.clock = update.clock;
    game.now_ms = update.now_ms;
    listMoves();
    go(atEnd ? game.plies.length - 1 : ply, false);
    showClocks();
    if (!update.ongoing) document.getElementById("live").hidden = true;
  }

  // A reviewed game: the evaluation graph (White's side, in balls; click a point to go to
  // that half-move) and the largest mistakes, each a link to the board before it.
  const reviewNode = document.getElementById("review");
  let marker = null;
  function showReview() {
    const r = game.review;
    if (!r) return;
    const w = 960, h = 200, mid = h / 2;
    const top = Math.max(10, ...r.evals.map((e) => Math.abs(e)));
    const x = (i) => (r.evals.length > 1 ? (i * w) / (r.evals.length - 1) : 0);
    const y = (e) => mid - (e / top) * (mid - 6);
    const heading = document.createElement("h2");
    heading.textContent = r.title;
    const svg = el("svg", { viewBox: `0 0 ${w} ${h}`, class: "graph", role: "img", "aria-label": r.title });
    el("rect", { x: 0, y: 0, width: w, height: mid, class: "graph-white" }, svg);
    el("rect", { x: 0, y: mid, width: w, height: mid, class: "graph-black" }, svg);
    const points = r.evals.map((e, i) => `${x(i).toFixed(1)},${y(e).toFixed(1)}`).join(" ");
    el("polyline", { points: points, class: "graph-line" }, svg);
    for (const m of r.mistakes) {
      el("circle", { cx: x(m.before_ply + 1), cy: y(r.evals[m.before_ply + 1]), r: 7, class: "graph-mark" }, svg);
    }
    marker = el("line", { x1: 0, x2: 0, y1: 0, y2: h, class: "graph-now" }, svg);
    svg.addEventListener("click", (e) => {
      const box = svg.getBoundingClientRect();
      go(Math.round(((e.clientX - box.left) / box.width) * (r.evals.length - 1)));
    });
    const list = document.createElement("ol");
    list.className = "mistakes";
    for (const m of r.mistakes) {
      const item = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = m.text;
      b.addEventListener("click", () => go(m.before_ply));
      item.appendChild(b);
      list.appendChild(item);
    }
    reviewNode.replaceChildren(heading, svg, list);
    reviewNode.hidden = false;
  }
  function moveMarker() {
    if (!marker || !game.review) return;
    const n = game.review.evals.length - 1;
    const at = n > 0 ? (Math.min(ply, n) * 960) / n : 0;
    marker.setAttribute("x1", at);
    marker.setAttribute("x2", at);
  }

  if (game.live && window.EventSource) {
    const source = new EventSource(game.live);
    let states = 0;
    source.addEventListener("game", (e) => {
      take(JSON.parse(e.data));
      // How many states came: a page (or a test) can tell the stream is open.
      states += 1;
      boardNode.dataset.live = String(states);
    });
    source.addEventListener("end", () => source.close());
  }
  document.addEventListener("toguz:state", (e) => take(e.detail));
  document.addEventListener("toguz:preview", (e) => {
    preview = e.detail || null;
    draw();
  });
  listMoves();
  showReview();
  showClocks();
  go(ply, false);
})();
