// The Discord Activity's entry script (issue 50, docs/web.md "Discord Activity"): the
// Embedded App SDK's handshake with the Discord client, `authorize` for a code, our
// server's sign-in with it (`POST /api/signin/discord`, which trades the code with Discord
// and opens a session), `authenticate` with the access token it hands back, then the
// channel's game or the player's games to choose from. Built into
// src/platform/web/assets/activity.js by `npm run build` (build.mjs).
import { DiscordSDK } from "@discord/embedded-app-sdk";

const root = document.getElementById("activity");
const status = document.getElementById("activity-status");
const list = document.getElementById("activity-games");
const words = root ? root.dataset : {};

function say(text, failed) {
  if (!status) return;
  status.textContent = text || "";
  status.classList.toggle("error", !!failed);
  status.setAttribute("role", failed ? "alert" : "status");
}

// Sessions in iframes live in sessionStorage (third-party cookies are refused there); the
// game page's script reads it on load and on this event (CONTRACT.md).
function keepSession(body) {
  const session = { token: body.token, csrf: body.csrf, name: body.name };
  sessionStorage.setItem("toguz-session", JSON.stringify(session));
  document.dispatchEvent(new CustomEvent("toguz:session"));
}

async function signIn(sdk, clientId) {
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const answer = await fetch("/api/signin/discord", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
    credentials: "omit",
  });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok || !body.token) {
    throw new Refused(body.error || words.refused);
  }
  await sdk.commands.authenticate({ access_token: body.access_token });
  keepSession(body);
  return body;
}

class Refused extends Error {}

// The channel's game, or the list to choose from.
async function openGame(token, channelId) {
  const query = channelId ? "?channel=" + encodeURIComponent(channelId) : "";
  const answer = await fetch("/api/me/games" + query, {
    headers: { Authorization: "Bearer " + token },
    credentials: "omit",
  });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Refused(body.error || words.unavailable);
  const games = Array.isArray(body.games) ? body.games : [];
  const here = games.filter((g) => g.here === true);
  const pick = here.length === 1 ? here[0] : games.length === 1 && here.length === 0 ? games[0] : null;
  if (pick) {
    location.replace("/g/" + encodeURIComponent(pick.key) + location.search);
    return;
  }
  showList(games);
}

function showList(games) {
  if (!list) return;
  list.textContent = "";
  if (games.length === 0) {
    say(words.none);
    return;
  }
  say(words.choose);
  for (const game of games) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = "/g/" + encodeURIComponent(game.key) + location.search;
    link.textContent = String(game.title || game.key);
    item.appendChild(link);
    if (game.your_turn) {
      const turn = document.createElement("span");
      turn.className = "your-turn";
      turn.textContent = " · " + words.yourTurn;
      item.appendChild(turn);
    }
    list.appendChild(item);
  }
}

async function start() {
  const clientId = words.clientId;
  let sdk;
  try {
    // The SDK reads frame_id, instance_id and platform from the launch query and throws
    // without them: outside Discord there is nobody to talk to.
    sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  } catch (_) {
    say(words.outside, true);
    return;
  }
  say(words.signingIn);
  let session;
  try {
    await sdk.ready();
    session = await signIn(sdk, clientId);
  } catch (error) {
    // A refusal from the client (the user closed the consent) or from our server: the
    // server's words when it gave them, else ours. Nothing is kept.
    sessionStorage.removeItem("toguz-session");
    say(error instanceof Refused ? error.message : words.refused, true);
    return;
  }
  try {
    await openGame(session.token, sdk.channelId);
  } catch (error) {
    // Signed in, but the games could not be read: the session stays.
    say(error instanceof Refused ? error.message : words.unavailable, true);
  }
}

if (root) start();
