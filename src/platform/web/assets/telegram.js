// The Telegram Mini App (issue 50): on /tg and on a game's page opened inside Telegram.
// Telegram puts the launch parameters in the URL's fragment (tgWebAppData: the signed
// initData; tgWebAppThemeParams: the colours; ...). This script reads them itself, so it
// works in any client and in tests; Telegram's own script (telegram-web-app.js) is loaded
// only inside Telegram and used only when it loaded: ready(), expand(), the back button,
// haptics and theme changes.
(function () {
  "use strict";
  var TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js";
  // What this Mini App launch left for the next pages: {launched, theme, signed}.
  var STATE = "toguz-tg";
  // The session, as play.js reads it (the web contract).
  var SESSION = "toguz-session";
  var COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;
  // Telegram's colours for the page's own variables (game.css).
  var VARIABLES = {
    bg_color: "--bg",
    text_color: "--fg",
    hint_color: "--dim",
    button_color: "--accent"
  };
  var me = document.currentScript;
  var failedText = (me && me.getAttribute("data-failed")) || "";

  function load(key) {
    try {
      return JSON.parse(sessionStorage.getItem(key));
    } catch (e) {
      return null;
    }
  }

  function save(key, value) {
    try {
      sessionStorage.setItem(key, JSON.stringify(value));
    } catch (e) {
      // Storage refused (private mode): the page still works, signed in until it closes.
    }
  }

  function decode(text) {
    try {
      return decodeURIComponent(text.replace(/\+/g, "%20"));
    } catch (e) {
      return null;
    }
  }

  // The fragment's parameters, decoded once (tgWebAppData stays initData's own encoding).
  function launchParams() {
    var params = {};
    var hash = location.hash.replace(/^#/, "");
    hash.split("&").forEach(function (pair) {
      var at = pair.indexOf("=");
      if (at <= 0) return;
      var key = decode(pair.slice(0, at));
      var value = decode(pair.slice(at + 1));
      if (key !== null && value !== null) params[key] = value;
    });
    return params;
  }

  function parseJson(text) {
    try {
      return JSON.parse(text);
    } catch (e) {
      return null;
    }
  }

  function isDark(colour) {
    var hex = colour.length === 4
      ? colour.replace(/^#(.)(.)(.)$/, "#$1$1$2$2$3$3")
      : colour;
    var r = parseInt(hex.substr(1, 2), 16);
    var g = parseInt(hex.substr(3, 2), 16);
    var b = parseInt(hex.substr(5, 2), 16);
    return 0.299 * r + 0.587 * g + 0.114 * b < 128;
  }

  // Telegram's colours on the page: as --tg-theme-* (as Telegram's script names them) and
  // in the page's own variables. Only colours are taken.
  function applyTheme(theme) {
    if (!theme || typeof theme !== "object") return;
    var style = document.documentElement.style;
    Object.keys(theme).forEach(function (key) {
      var colour = theme[key];
      if (!/^[a-z_]+$/.test(key) || typeof colour !== "string" || !COLOUR.test(colour)) return;
      style.setProperty("--tg-theme-" + key.replace(/_/g, "-"), colour);
      if (VARIABLES[key]) style.setProperty(VARIABLES[key], colour);
      if (key === "bg_color") style.setProperty("color-scheme", isDark(colour) ? "dark" : "light");
    });
  }

  function webApp() {
    return (window.Telegram && window.Telegram.WebApp) || null;
  }

  function atLeast(app, version) {
    try {
      return !app.isVersionAtLeast || app.isVersionAtLeast(version);
    } catch (e) {
      return false;
    }
  }

  // A haptic tap where Telegram's script runs: "success", "error" (notifications) or an
  // impact style ("light", "medium", ...). For play.js too (window.toguzTelegram.haptic).
  // Telegram's script loads beside the sign-in: a tap asked before it arrives is given
  // when it does (`withTelegram`).
  var hapticLater = null;
  function haptic(kind) {
    var app = webApp();
    if (!app) {
      hapticLater = kind;
      return;
    }
    if (!app.HapticFeedback || !atLeast(app, "6.1")) return;
    try {
      if (kind === "success" || kind === "error" || kind === "warning") {
        app.HapticFeedback.notificationOccurred(kind);
      } else {
        app.HapticFeedback.impactOccurred(kind);
      }
    } catch (e) {
      // Haptics are a nicety.
    }
  }

  // Telegram's main button (the wide one under the Mini App) carries the page's one pressing
  // action, as play.js decides it (accept a draw offered, a rematch); no text hides it. Asked
  // before Telegram's script arrives, it is set when it does (`withTelegram`).
  var main = { text: null, onClick: null, set: null, later: false };
  function mainButton(text, onClick) {
    main.text = text || null;
    main.onClick = onClick || null;
    var app = webApp();
    if (!app || !app.MainButton) {
      main.later = true;
      return;
    }
    try {
      var button = app.MainButton;
      if (main.set) button.offClick(main.set);
      main.set = null;
      if (!main.text) {
        button.hide();
        return;
      }
      var act = main.onClick;
      main.set = function () {
        if (act) act();
      };
      button.setText(main.text);
      button.onClick(main.set);
      button.show();
    } catch (e) {
      // The page's own buttons do the same.
    }
  }
  window.toguzTelegram = { haptic: haptic, mainButton: mainButton };

  var entry = document.getElementById("tg-app");
  var state = load(STATE) || {};

  // Telegram's script is here: tell Telegram the page is ready, take the whole height,
  // follow theme changes, and offer the back button on pages reached from another.
  function withTelegram() {
    var app = webApp();
    if (!app) return;
    if (hapticLater) {
      haptic(hapticLater);
      hapticLater = null;
    }
    if (main.later) {
      main.later = false;
      mainButton(main.text, main.onClick);
    }
    try {
      app.ready();
      app.expand();
    } catch (e) {
      // An old client: the page works without.
    }
    if (app.onEvent) {
      app.onEvent("themeChanged", function () {
        applyTheme(app.themeParams);
        state.theme = app.themeParams;
        save(STATE, state);
      });
    }
    var back = app.BackButton;
    if (back && atLeast(app, "6.1")) {
      if (!entry && history.length > 1) {
        back.onClick(function () {
          history.back();
        });
        back.show();
      } else {
        back.hide();
      }
    }
  }

  function loadTelegram() {
    if (webApp()) {
      withTelegram();
      return;
    }
    var script = document.createElement("script");
    script.src = TELEGRAM_SCRIPT;
    script.async = true;
    script.onload = withTelegram;
    // Unreachable (offline, blocked): the fragment already gave what the page needs.
    script.onerror = function () {};
    document.head.appendChild(script);
  }

  function show(id, shown) {
    var element = document.getElementById(id);
    if (element) element.hidden = !shown;
  }

  // A refusal in words, where the reader looks: on /tg its own line, elsewhere a line at
  // the top of the page.
  function fail(text) {
    var error = document.getElementById("tg-error");
    if (!error) {
      error = document.createElement("p");
      error.id = "tg-error";
      error.className = "tg-error";
      error.setAttribute("role", "alert");
      var main = document.querySelector("main") || document.body;
      main.insertBefore(error, main.firstChild);
    }
    error.textContent = text || failedText;
    error.hidden = false;
    show("tg-status", false);
    haptic("error");
  }

  // The signed launch data's own hash: the same launch needs no second sign-in.
  function launchHash(initData) {
    var match = /(?:^|&)hash=([0-9a-fA-F]+)/.exec(initData);
    return match ? match[1] : null;
  }

  function signIn(initData, then) {
    fetch("/api/signin/telegram", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ init_data: initData }),
      credentials: "same-origin"
    })
      .then(function (response) {
        return response.json().then(function (body) {
          return { ok: response.ok, body: body };
        });
      })
      .then(function (answer) {
        var body = answer.body || {};
        if (!answer.ok || typeof body.token !== "string") {
          fail(typeof body.error === "string" ? body.error : failedText);
          return;
        }
        save(SESSION, { token: body.token, csrf: body.csrf, name: body.name });
        state.signed = launchHash(initData);
        save(STATE, state);
        document.dispatchEvent(new CustomEvent("toguz:session"));
        haptic("success");
        then(body);
      })
      .catch(function () {
        fail(failedText);
      });
  }

  var params = launchParams();
  var initData = params.tgWebAppData || "";
  var theme = parseJson(params.tgWebAppThemeParams || "") || state.theme;
  if (initData) {
    state.launched = true;
    state.theme = theme;
    save(STATE, state);
  }
  applyTheme(theme);
  if (!state.launched) {
    // Not opened from Telegram.
    if (entry) {
      show("tg-status", false);
      show("tg-outside", true);
    }
    return;
  }
  loadTelegram();
  if (entry) {
    if (!initData) {
      show("tg-status", false);
      show("tg-outside", true);
      return;
    }
    signIn(initData, function (body) {
      var start = typeof body.start === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(body.start)
        ? "/g/" + body.start
        : "/me";
      location.replace(start);
    });
  } else if (initData && !(load(SESSION) && state.signed === launchHash(initData))) {
    // A game's page opened by a Web App button: sign in and stay.
    signIn(initData, function () {});
  }
})();
