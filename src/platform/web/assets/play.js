// A signed-in player's controls (issue 50). On a game's page: asks the server for the
// player's seat (/g/<key>/seat) and, on their turn, lays a button over each pit they may
// play (data-pit, 1-9 in their own numbering: the server decides which); draw, resign (with
// a confirm), rematch and hint below the board; in a correspondence game, a panel of the
// player's own premoves: lines typed one per row (saved or cleared as a whole), or entered
// on the board (the premove mode: the board shows the position the line being entered
// leads to, as the server computed it, with a button over each pit that may be chosen
// next; each pit goes to the server, which checks it). An action goes to /g/<key>/act, and the
// board updates from its answer at once (handed to game.js as a "toguz:state" event); the
// bot's reply or the opponent's move comes through the page's live stream. On /me: signing
// out, and the list of games for a session kept in the tab.
//
// The session is the cookie's (the page then carries its CSRF token in a meta tag) or the
// one a framed sign-in (Telegram Mini App, Discord Activity) kept in
// sessionStorage["toguz-session"], announced with a "toguz:session" event. A spectator or a
// signed-out reader sees the page as it was.
"use strict";
(function () {
  const csrfMeta = document.querySelector('meta[name="toguz-csrf"]');
  const lang = document.documentElement.lang || "en";
  let session = null;

  function readSession() {
    if (csrfMeta) return { csrf: csrfMeta.content, token: null };
    try {
      const kept = JSON.parse(window.sessionStorage.getItem("toguz-session") || "null");
      if (kept && kept.token && kept.csrf) return { csrf: kept.csrf, token: kept.token, name: kept.name };
    } catch (e) {
      // No storage (a locked-down frame): no session.
    }
    return null;
  }

  async function call(method, path, body) {
    const headers = {};
    if (session.token) headers.Authorization = "Bearer " + session.token;
    if (method === "POST") {
      headers["Content-Type"] = "application/json";
      headers["X-Toguz-Csrf"] = session.csrf;
    }
    const sep = path.indexOf("?") < 0 ? "?" : "&";
    const response = await fetch(`${path}${sep}lang=${encodeURIComponent(lang)}`, {
      method: method,
      headers: headers,
      body: body ? JSON.stringify(body) : undefined,
      credentials: "same-origin",
      cache: "no-store",
    });
    let data = null;
    try {
      data = await response.json();
    } catch (e) {
      data = null;
    }
    return { ok: response.ok, status: response.status, data: data };
  }

  function button(text, action, extra) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (action) b.dataset.action = action;
    if (extra) b.className = extra;
    return b;
  }

  // ---- A game's page ----
  function gamePage(board, playNode, words) {
    const key = board.dataset.key;
    const messageNode = document.getElementById("play-message");
    const actionsNode = document.getElementById("play-actions");
    const data = JSON.parse(document.getElementById("game-data").textContent);
    const last = data.plies.length - 1;
    let shown = { ply: data.ply, last: data.ply === last, version: data.version, pits: data.plies[data.ply].pits };
    let ongoing = data.ongoing;
    let seat = null;
    let note = null;
    let busy = false;
    let confirming = false;
    let asking = false;
    let askAgain = false;
    // The pit button the keyboard is on, if any (kept across redraws).
    let focusedPit = null;
    document.addEventListener("focusin", (e) => {
      const pit = e.target.dataset ? e.target.dataset.pit : null;
      focusedPit = pit || null;
    });

    // Whether seat `a` is as new as `b`: the game's version, then the premoves' changes.
    function newer(a, b) {
      if (!b) return true;
      if (a.version !== b.version) return a.version > b.version;
      return !a.premoves || !b.premoves || a.premoves.edits >= b.premoves.edits;
    }

    async function refreshSeat() {
      if (!session) return;
      if (asking) {
        askAgain = true;
        return;
      }
      asking = true;
      try {
        const r = await call("GET", `/g/${key}/seat`);
        // An older seat (asked before an action was answered) never replaces a newer one.
        if (r.ok && r.data && newer(r.data, seat)) {
          seat = r.data;
        } else if (r.status === 401) {
          session = null;
          seat = null;
        }
      } catch (e) {
        note = words.failed;
      }
      asking = false;
      render();
      if (askAgain) {
        askAgain = false;
        refreshSeat();
      }
    }

    // Inside Telegram, its main button carries the one pressing action: accepting the
    // draw the opponent offers, else a rematch.
    let mainShown = null;
    function telegramMain() {
      const telegram = window.toguzTelegram;
      if (!telegram || !telegram.mainButton) return;
      const a = seat && seat.side !== null && !busy ? seat.actions : {};
      const pick = a.accept_draw ? "accept_draw" : a.rematch ? "rematch" : null;
      if (pick === mainShown) return;
      mainShown = pick;
      if (!pick) {
        telegram.mainButton(null, null);
        return;
      }
      telegram.mainButton(words[pick], () => {
        if (seat) act({ action: pick, ply: seat.ply });
      });
    }

    // The premoves panel, made once (a redraw keeps what is being typed).
    const premovesNode = document.createElement("section");
    premovesNode.id = "play-premoves";
    premovesNode.hidden = true;
    const premovesTitle = document.createElement("h3");
    const premovesList = document.createElement("ol");
    const premovesDraft = document.createElement("p");
    premovesDraft.id = "premoves-draft";
    // In the mode: the board is not the game.
    const premovesNote = document.createElement("p");
    premovesNote.className = "meta";
    const premovesHelp = document.createElement("p");
    premovesHelp.className = "meta";
    const premovesInput = document.createElement("textarea");
    premovesInput.rows = 3;
    premovesInput.id = "premoves-lines";
    const premovesControls = document.createElement("div");
    premovesControls.className = "controls";
    premovesNode.append(premovesTitle, premovesList, premovesDraft, premovesNote, premovesHelp, premovesInput, premovesControls);
    playNode.appendChild(premovesNode);
    let premovesTyped = false;
    premovesInput.addEventListener("input", () => {
      premovesTyped = true;
    });
    // The premove mode: the board shows the preview and its pits enter the draft.
    let premoveMode = false;
    // The preview handed to game.js last (as JSON), so a redraw that changes nothing is not
    // drawn again.
    let previewSent = "null";

    function showPreview() {
      const mine = seat && seat.premoves;
      if (premoveMode && !(mine && mine.preview)) premoveMode = false;
      const p = premoveMode ? mine.preview.board : null;
      const sent = JSON.stringify(p);
      if (sent === previewSent) return;
      previewSent = sent;
      document.dispatchEvent(new CustomEvent("toguz:preview", { detail: p }));
    }

    function renderPremoves() {
      const mine = seat && seat.premoves;
      premovesNode.hidden = !mine;
      if (!mine) return;
      premovesTitle.textContent = words.premoves;
      premovesList.replaceChildren();
      for (const line of mine.shown) {
        const item = document.createElement("li");
        item.textContent = line;
        premovesList.appendChild(item);
      }
      if (!mine.shown.length) {
        const item = document.createElement("li");
        item.className = "meta";
        item.textContent = words.premoves_none;
        premovesList.appendChild(item);
      }
      const mode = premoveMode && !!mine.preview;
      premovesNode.classList.toggle("mode", mode);
      premovesDraft.hidden = !mode || !mine.draft;
      premovesDraft.textContent = words.premoves_draft.replace("{moves}", mine.draft);
      premovesNote.hidden = !mode;
      premovesNote.textContent = words.premoves_preview;
      premovesHelp.textContent = words.premoves_help;
      premovesHelp.hidden = !mine.open || mode;
      premovesInput.hidden = !mine.open || mode;
      if (!premovesTyped) premovesInput.value = mine.typed.join("\n");
      premovesControls.replaceChildren();
      if (mode) {
        const something = !!mine.draft || mine.shown.length > 0;
        const keys = [
          [words.premoves_add, "premove_add", mine.addable, ""],
          [words.premoves_undo, "premove_undo", something, ""],
          [words.premoves_clear, "premove_clear", something, "danger"],
          [words.premoves_back, "premoves_back", true, ""],
        ];
        for (const [label, action, on, extra] of keys) {
          const b = button(label, action, extra);
          b.disabled = !on || busy;
          premovesControls.appendChild(b);
        }
        return;
      }
      if (mine.open && mine.preview) premovesControls.appendChild(button(words.premoves_board, "premoves_board"));
      if (mine.open) premovesControls.appendChild(button(words.premoves_save, "premoves_save"));
      if (mine.shown.length) premovesControls.appendChild(button(words.premoves_clear, "premoves_clear", "danger"));
    }

    premovesControls.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-action]");
      if (!b || !seat || !seat.premoves) return;
      const action = b.dataset.action;
      if (action === "premoves_board" || action === "premoves_back") {
        premoveMode = action === "premoves_board";
        note = null;
        render();
        // The keyboard goes on from the board's first pit, or back to the mode's button.
        const next = premoveMode
          ? board.querySelector("button[data-premove]")
          : premovesControls.querySelector('[data-action="premoves_board"]');
        if (next) next.focus();
        return;
      }
      if (action.startsWith("premove_")) {
        act({ action: action, edits: seat.premoves.edits });
        return;
      }
      const clear = action === "premoves_clear";
      const lines = clear ? [] : premovesInput.value.split("\n");
      // Cleared: the box shows the (empty) queue again; saved: what was typed stays, also
      // when the save is refused.
      if (clear) premovesTyped = false;
      act({ action: "premoves", lines: lines });
    });

    function render() {
      telegramMain();
      renderPremoves();
      showPreview();
      if (!seat || seat.side === null) {
        playNode.hidden = true;
        pits();
        return;
      }
      playNode.hidden = false;
      let text = note || seat.message || "";
      if (!text && premoveMode) text = seat.premoves.preview.prompt;
      if (!text && ongoing) text = seat.pits.length ? words.your_move : words.their_move;
      messageNode.textContent = text;
      actionsNode.replaceChildren();
      const a = seat.actions;
      if (confirming && a.resign) {
        const ask = document.createElement("span");
        ask.textContent = words.resign_confirm;
        actionsNode.append(ask, button(words.resign_yes, "resign", "danger"), button(words.cancel, "cancel"));
      } else {
        confirming = false;
        const offered = [
          [a.hint, words.hint, "hint"],
          [a.accept_draw, words.accept_draw, "accept_draw"],
          [a.decline_draw, words.decline_draw, "decline_draw"],
          [a.offer_draw, words.offer_draw, "offer_draw"],
          [a.resign, words.resign, "confirm"],
          [a.rematch, words.rematch, "rematch"],
        ];
        for (const [open, label, action] of offered) {
          if (open) actionsNode.appendChild(button(label, action));
        }
      }
      pits();
    }

    // The pit buttons, over the board drawn now: only on the player's turn, at the game's
    // last half-move, and for the version the seat was decided at.
    function pits() {
      for (const old of board.querySelectorAll(".pit-buttons")) old.remove();
      if (premoveMode) {
        premovePits();
        return;
      }
      if (!seat || !seat.pits.length || !shown.last || shown.version !== seat.version || busy) return;
      const layer = document.createElement("div");
      layer.className = seat.side === 1 ? "pit-buttons top" : "pit-buttons";
      // In the order they stand on the board, left to right (Tab goes the same way).
      const order = seat.side === 1 ? seat.pits.slice().reverse() : seat.pits;
      for (const pit of order) {
        const balls = shown.pits ? shown.pits[seat.side][pit - 1] : "";
        const b = button("", null, null);
        b.dataset.pit = String(pit);
        b.dataset.ply = String(seat.ply);
        const label = words.pit.replace("{pit}", String(pit)).replace("{balls}", String(balls));
        b.setAttribute("aria-label", label);
        b.title = label;
        layer.appendChild(b);
      }
      board.appendChild(layer);
      // A redraw replaces the buttons: the keyboard's focus stays on the same pit.
      const again = focusedPit && layer.querySelector(`[data-pit="${focusedPit}"]`);
      if (again && (!document.activeElement || document.activeElement === document.body)) again.focus();
    }

    // The premove mode's pit buttons, over the preview drawn now: the pits the server says
    // the side to move in the preview may choose, on that side's row.
    function premovePits() {
      const preview = seat && seat.premoves && seat.premoves.preview;
      if (!preview || !shown.preview || shown.version !== seat.version || busy) return;
      const side = preview.board.to_move;
      const layer = document.createElement("div");
      layer.className = side === 1 ? "pit-buttons premove top" : "pit-buttons premove";
      const order = side === 1 ? preview.pits.slice().reverse() : preview.pits;
      const label = preview.theirs_next ? words.premove_theirs : words.premove_mine;
      for (const pit of order) {
        const b = button("", null, null);
        b.dataset.pit = String(pit);
        b.dataset.premove = "1";
        const balls = preview.board.pits[side][pit - 1];
        const text = label.replace("{pit}", String(pit)).replace("{balls}", String(balls));
        b.setAttribute("aria-label", text);
        b.title = text;
        layer.appendChild(b);
      }
      board.appendChild(layer);
      // The keyboard stays in the board: on the same pit if the row has it, else the first.
      if (focusedPit && (!document.activeElement || document.activeElement === document.body)) {
        const again = layer.querySelector(`[data-pit="${focusedPit}"]`) || layer.querySelector("button");
        if (again) again.focus();
      }
    }

    async function act(body) {
      if (busy || !session) return;
      busy = true;
      note = null;
      // A pit of the premove mode keeps the keyboard on the board (the next pit is chosen
      // there); a move ends the player's turn.
      if (body.action !== "premove_pit") focusedPit = null;
      pits();
      try {
        const r = await call("POST", `/g/${key}/act`, body);
        if (r.ok && r.data && r.data.goto) {
          window.location.href = r.data.goto;
          return;
        }
        if (r.ok && r.data) {
          if (newer(r.data, seat)) seat = r.data;
          busy = false;
          if (r.data.state) {
            ongoing = r.data.state.ongoing;
            document.dispatchEvent(new CustomEvent("toguz:state", { detail: r.data.state }));
          }
        } else {
          note = (r.data && r.data.error) || words.failed;
          busy = false;
          refreshSeat();
        }
      } catch (e) {
        note = words.failed;
        busy = false;
      }
      render();
    }

    board.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-pit]");
      if (!b) return;
      if (b.dataset.premove) {
        if (seat && seat.premoves) act({ action: "premove_pit", pit: Number(b.dataset.pit), edits: seat.premoves.edits });
        return;
      }
      act({ action: "move", ply: Number(b.dataset.ply), pit: Number(b.dataset.pit) });
    });
    actionsNode.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-action]");
      if (!b || !seat) return;
      const action = b.dataset.action;
      if (action === "confirm" || action === "cancel") {
        confirming = action === "confirm";
        render();
        return;
      }
      confirming = false;
      act({ action: action, ply: seat.ply });
    });
    document.addEventListener("toguz:drawn", (e) => {
      shown = e.detail;
      if (seat && session && shown.version > seat.version) {
        // The live stream brought a change (the bot's reply, the opponent's move).
        note = null;
        refreshSeat();
      } else {
        pits();
      }
    });

    function start() {
      if (session) return;
      session = readSession();
      if (session) refreshSeat();
    }
    document.addEventListener("toguz:session", start);
    start();
  }

  // ---- /me ----
  function mePage(logout, list) {
    function start() {
      if (session) return;
      session = readSession();
      if (!session) return;
      logout.hidden = false;
      if (!session.token) return;
      // A framed sign-in: the server could not see the session; the list comes from the API.
      const about = document.getElementById("me-about");
      if (about && about.dataset.signed && session.name) {
        about.textContent = about.dataset.signed.replace("{name}", session.name);
      }
      call("GET", "/api/me/games").then((r) => {
        if (!r.ok || !r.data) return;
        list.replaceChildren();
        for (const g of r.data.games) {
          const item = document.createElement("li");
          const link = document.createElement("a");
          link.href = `/g/${encodeURIComponent(g.key)}`;
          link.textContent = g.title;
          item.appendChild(link);
          if (g.your_turn) {
            const turn = document.createElement("span");
            turn.className = "meta";
            turn.textContent = " " + list.dataset.turn;
            item.appendChild(turn);
          }
          list.appendChild(item);
        }
        if (!r.data.games.length) {
          const item = document.createElement("li");
          item.className = "meta";
          item.textContent = list.dataset.none;
          list.appendChild(item);
        }
      }, () => {});
    }
    logout.addEventListener("click", async () => {
      if (!session) return;
      try {
        await call("POST", "/logout");
      } catch (e) {
        // Signed out here whatever the server said.
      }
      try {
        window.sessionStorage.removeItem("toguz-session");
      } catch (e) {
        // Nothing kept.
      }
      window.location.href = "/";
    });
    document.addEventListener("toguz:session", start);
    start();
  }

  const board = document.getElementById("board");
  const playNode = document.getElementById("play");
  const wordsNode = document.getElementById("play-words");
  if (board && playNode && wordsNode) gamePage(board, playNode, JSON.parse(wordsNode.textContent));
  const logout = document.getElementById("logout");
  const list = document.getElementById("me-games");
  if (logout && list) mePage(logout, list);
})();
