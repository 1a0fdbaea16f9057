//! Game pages on the web (issue 35, docs/web.md): `/g/<key>` shows a game (replay, live
//! moves, link previews), `/g/<key>.pgn` its record, `/g/<key>.png` its board; `/` the
//! front page. Read-only: every page comes from the manager (`Manager::game_page`), never
//! from the store, and addresses carry a signature (`manager::links`), so a game of a
//! private chat is reachable only through its own link.

mod activity;
pub mod assets;
mod board_svg;
mod clients;
pub mod config;
mod explorer;
mod images;
mod live;
mod me;
mod mini_app;
pub mod page;
mod play;
mod player;
mod poll;
pub mod session;
pub mod signin;
mod sse;
pub mod tournament;
mod tournament_live;

use crate::i18n::Lang;
use crate::manager::links::GamePage;
use crate::manager::{ActionError, Manager};
use crate::model::Platform;
use crate::platform::http::{limits, server};
use crate::platform::present::{self, web::page_lang, web::Missing};
use crate::ratings::keys::Scope;
use axum::extract::DefaultBodyLimit;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
pub use config::WebConfig;
use live::Live;
use std::collections::HashMap;
use std::sync::Arc;

/// What every handler shares.
#[derive(Clone)]
struct App {
    manager: Manager,
    live: Arc<Live>,
    /// The watched tournaments (`tournament_live`).
    tournaments: Arc<tournament_live::LiveTournaments>,
    /// The public address, without a trailing slash.
    base: Arc<str>,
    /// Board images drawn lately (`images`).
    images: Arc<images::Images>,
    /// What players are signed in with (`signin`).
    sign_in: Arc<signin::SignIns>,
    /// The Discord Activity's sign-in, when `[discord] activity` is set up.
    discord: Option<Arc<signin::discord::DiscordExchange>>,
    /// Where a signed-in player's actions may come from (`Origin`): the site and
    /// `[web] embed_origins`.
    origins: Arc<[String]>,
    /// The session cookie is sent over https only.
    secure_cookie: bool,
    /// This process's count of each user's actions (`play::within_limit`).
    limits: Arc<crate::manager::limits::CommandLimit<String>>,
}

/// Serves the pages on `config.listen` until the task is dropped.
pub async fn serve(config: WebConfig, manager: Manager) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| anyhow::anyhow!("web: cannot listen on {}: {e}", config.listen))?;
    serve_on(listener, config, manager).await
}

/// `serve` on a listener already bound (tests bind port 0).
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    config: WebConfig,
    manager: Manager,
) -> anyhow::Result<()> {
    config.validate()?;
    tracing::info!(listen = %listener.local_addr()?, public_url = config.base(), "web: serving game pages");
    let limited = limits::Limited::new(
        listener,
        limits::Settings {
            max_connections: config.max_connections,
            max_per_address: config.max_per_address,
            idle: config.timeouts().idle,
            trusted: config.trusted_proxies.clone(),
        },
    );
    let clients = clients::Clients {
        trusted: config.trusted_proxies.clone().into(),
        per_client: limits::PerAddress::new(config.max_per_address),
    };
    let discord = match config.sign_in.discord.clone() {
        Some(settings) => Some(Arc::new(
            signin::discord::DiscordExchange::new(settings).map_err(|e| {
                anyhow::anyhow!("web: cannot build the Discord sign-in client: {e}")
            })?,
        )),
        None => None,
    };
    let per_minute = manager.config().limits.commands_per_minute;
    let app = router(App {
        live: Live::start(manager.clone(), config.max_live),
        tournaments: tournament_live::LiveTournaments::start(manager.clone()),
        manager,
        base: config.base().into(),
        images: Default::default(),
        sign_in: Arc::new(config.sign_in.clone()),
        discord,
        origins: config.allowed_origins().into(),
        secure_cookie: config.secure_cookie(),
        limits: Arc::new(crate::manager::limits::CommandLimit::new(per_minute)),
    })
    .layer(axum::middleware::from_fn_with_state(
        clients,
        clients::limit,
    ));
    server::serve(limited, app, config.timeouts(), std::future::pending()).await;
    Ok(())
}

fn router(app: App) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/leaderboard", get(leaderboard))
        .route("/g/{key}", get(game))
        .route("/p/{key}", get(player_page))
        .route("/explorer", get(explorer::page))
        .route("/explorer/game/{id}", get(explorer::game))
        .route("/g/{key}/live", get(live_events))
        .route("/g/{key}/seat", get(play::seat))
        .route(
            "/g/{key}/act",
            post(play::act).layer(DefaultBodyLimit::max(play::MAX_BODY)),
        )
        .route("/login/{token}", get(me::login_page).post(me::login))
        .route("/me", get(me::me))
        .route("/api/me/games", get(me::api_games))
        .route("/logout", post(me::logout))
        .route("/assets/{name}", get(asset))
        .route("/t/{key}", get(tournament::page))
        .route("/t/{key}/live", get(tournament::live))
        .route("/tg", get(mini_app::entry))
        .route("/api/signin/telegram", mini_app::sign_in_route())
        .route("/activity", get(activity::page))
        .route("/api/signin/discord", post(activity::sign_in))
        .fallback(not_found_anywhere)
        .layer(axum::middleware::from_fn(security_headers))
        .with_state(app)
}

/// The policy of every page that is not framed: no script, style or frame from elsewhere.
const STRICT: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";
/// A page opened inside Telegram (a Mini App) or Discord (an Activity): framed by them
/// alone, and Telegram's own script allowed (`/tg` and the game page).
const FRAMED_TELEGRAM: &str = "default-src 'none'; script-src 'self' https://telegram.org; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
     form-action 'none'; frame-ancestors https://web.telegram.org https://*.discordsays.com \
     https://discord.com https://*.discord.com";
/// `STRICT`, but its form may post to the site: the sign-in link's page (`/login/<token>`).
const LOGIN: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";
/// `FRAMED_TELEGRAM` without Telegram's script (`/me`, `/activity`).
const FRAMED: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors https://web.telegram.org https://*.discordsays.com https://discord.com \
     https://*.discord.com";

/// Which policy a path's answer gets: `Some(policy)` for the pages that must open inside
/// Telegram and Discord (the game page, `/me`, `/tg`, `/activity`), `None` for the rest.
fn framed_policy(path: &str) -> Option<&'static str> {
    match path {
        "/tg" => Some(FRAMED_TELEGRAM),
        "/me" | "/activity" => Some(FRAMED),
        _ => {
            let key = path.strip_prefix("/g/")?;
            let page = !key.is_empty()
                && !key.contains('/')
                && !key.ends_with(".png")
                && !key.ends_with(".pgn");
            page.then_some(FRAMED_TELEGRAM)
        }
    }
}

/// Headers on every answer: no script, style or frame from elsewhere (the framed pages
/// named by `framed_policy` excepted), no address leaking in a Referer (a game's address
/// is its key), no sniffing. A handler that set its own policy keeps it.
async fn security_headers(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let path = request.uri().path();
    let framed = framed_policy(path);
    let strict = if path.starts_with("/login/") {
        LOGIN
    } else {
        STRICT
    };
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let policy = framed.unwrap_or(strict);
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(policy));
    let set = [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (
            header::HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
    ];
    for (name, value) in set {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if framed.is_none() {
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    response
}

/// The language of a request.
fn lang_of(query: &HashMap<String, String>, headers: &HeaderMap) -> Lang {
    let accept = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    page_lang(query.get("lang").map(String::as_str), accept)
}

fn html(status: StatusCode, body: String) -> Response {
    let headers = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        (header::CACHE_CONTROL, "no-cache"),
        (header::VARY, "Accept-Language"),
    ];
    (status, headers, body).into_response()
}

/// `response` with `X-Robots-Tag: noindex` unless its page is `listed` (issue 49, finding
/// 9): a game of a private chat or a player who did not choose to be found stays out of
/// search engines, as the page's own `robots` tag says.
fn with_robots(mut response: Response, listed: bool) -> Response {
    if !listed {
        response.headers_mut().insert(
            header::HeaderName::from_static("x-robots-tag"),
            HeaderValue::from_static("noindex, nofollow"),
        );
    }
    response
}

/// Games of the listed chats shown on the front page, of each list.
const LISTED: usize = 20;

/// `/`: the listed chats' games.
async fn index(
    State(app): State<App>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let games = match app.manager.public_games(LISTED).await {
        Ok(games) => games,
        Err(error) => {
            tracing::warn!(%error, "web: the listed games could not be read");
            return unavailable(lang, "/");
        }
    };
    let words = present::web::index_words(&games, lang);
    let tournaments = index_tournaments(&app, lang).await;
    html(StatusCode::OK, page::index_with(&words, lang, &tournaments))
}

/// Tournaments of the listed chats shown on the front page, running and finished.
const LISTED_TOURNAMENTS: usize = 10;

/// The front page's section of tournaments (none shown when they cannot be read).
async fn index_tournaments(app: &App, lang: Lang) -> String {
    match app.manager.public_tournaments(LISTED_TOURNAMENTS).await {
        Ok((live, finished)) => {
            let list = present::web_tournament::tournament_list(&live, &finished, lang);
            tournament::index_section(&list)
        }
        Err(error) => {
            tracing::warn!(%error, "web: the listed tournaments could not be read");
            String::new()
        }
    }
}

/// `/leaderboard`: every platform's leaderboards, each category's top.
async fn leaderboard(
    State(app): State<App>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let mut boards = Vec::new();
    for platform in [Platform::Telegram, Platform::Discord, Platform::Console] {
        match app
            .manager
            .leaderboards(Scope::Platform(platform), None)
            .await
        {
            Ok(found) => boards.extend(found),
            Err(error) => {
                tracing::warn!(%error, "web: the leaderboards could not be read");
                return unavailable(lang, "/leaderboard");
            }
        }
    }
    let mut users = Vec::new();
    for board in &boards {
        users.extend(board.top.iter().map(|(_, row)| row.user.clone()));
    }
    let mut keys = HashMap::new();
    for user in users {
        if keys.contains_key(&user.key()) {
            continue;
        }
        match app.manager.player_page_key(&user).await {
            Ok(key) => {
                keys.insert(user.key(), key);
            }
            // The board still shows, that name without its link.
            Err(error) => tracing::warn!(%error, "web: a player page key could not be made"),
        }
    }
    let words = present::web::leaderboard_words(&boards, &keys, lang);
    html(StatusCode::OK, page::leaderboards(&words, lang))
}

/// `/p/<key>`: a player's page. An unknown or forged key gets the plain 404.
async fn player_page(
    State(app): State<App>,
    Path(key): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let page = match app.manager.player_page(&key).await {
        Ok(page) => page,
        Err(error) => return read_failed(error, lang, Missing::Player, &format!("/p/{key}")),
    };
    let words = present::web_player::player_words(&page, lang);
    let body = player::player_page(&words, &page.key, page.public, lang);
    with_robots(html(StatusCode::OK, body), page.public)
}

/// What `/g/<name>` asks for.
enum Want {
    Page,
    Record,
    Image,
}

/// `/g/<key>`, `/g/<key>.pgn`, `/g/<key>.png`.
async fn game(
    State(app): State<App>,
    Path(name): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let (key, want) = if let Some(key) = name.strip_suffix(".pgn") {
        (key, Want::Record)
    } else if let Some(key) = name.strip_suffix(".png") {
        (key, Want::Image)
    } else {
        (name.as_str(), Want::Page)
    };
    let page = match app.manager.game_page(key).await {
        Ok(page) => page,
        Err(error) => return read_failed(error, lang, Missing::Game, &format!("/g/{name}")),
    };
    // A finished game's page never changes; an ongoing one's does with every move.
    let cache = if page.view.is_over() {
        "public, max-age=86400"
    } else {
        "no-cache"
    };
    match want {
        Want::Page => {
            let ply = query.get("ply").and_then(|p| p.parse::<usize>().ok());
            // A reader signed in by cookie gets their session's CSRF token in the page
            // (their play script acts with it), and a page no cache keeps.
            let signed = match session::cookie(&headers) {
                Some(_) => session::session_of(&app.manager, &headers).await.ok(),
                None => None,
            };
            let csrf = signed.as_ref().map(|s| s.csrf.as_str());
            let book = match app.manager.book_line(&page.view.id).await {
                Ok(book) => Some(book),
                Err(error) => {
                    // The page still shows, without the explorer's line.
                    tracing::warn!(game = page.view.id, %error, "web: the explorer's line could not be read");
                    None
                }
            };
            let body = page::game_page(&page, lang, ply, &app.base, csrf, book.as_ref());
            let mut response = with_robots(html(StatusCode::OK, body), page.listed);
            let cache = if signed.is_some() { "no-store" } else { cache };
            let headers = response.headers_mut();
            if let Ok(value) = HeaderValue::from_str(cache) {
                headers.insert(header::CACHE_CONTROL, value);
            }
            headers.insert(
                header::VARY,
                HeaderValue::from_static("Accept-Language, Cookie"),
            );
            response
        }
        Want::Record => {
            let disposition = format!("inline; filename=\"toguz-{}.pgn\"", page.view.id);
            let headers = [
                (
                    header::CONTENT_TYPE,
                    "text/plain; charset=utf-8".to_string(),
                ),
                (header::CONTENT_DISPOSITION, disposition),
                (header::CACHE_CONTROL, cache.to_string()),
            ];
            let listed = page.listed;
            with_robots((headers, page.record).into_response(), listed)
        }
        Want::Image => with_robots(board_image(&app, &page, lang, cache).await, page.listed),
    }
}

/// `/g/<key>.png`: the board in `lang`, drawn through the drawing pool and kept a while
/// (`images`); a query string other than `lang` changes nothing. The picture's words are in
/// the reader's language, so caches keep one per language (`Vary`).
async fn board_image(app: &App, page: &GamePage, lang: Lang, cache: &str) -> Response {
    let key = images::ImageKey {
        page: page.key.clone(),
        version: page.view.version,
        lang,
        second: match &page.view.clock {
            Some(clock) if !page.view.is_over() => clock.shown_at_ms / 1000,
            _ => 0,
        },
    };
    let board = || crate::render::pool::board_png(present::board_view(&page.view, None, lang));
    match app.images.get_or_draw(key, board).await {
        Ok(png) => {
            let headers = [
                (header::CONTENT_TYPE, "image/png".to_string()),
                (header::CACHE_CONTROL, cache.to_string()),
                (header::VARY, "Accept-Language".to_string()),
            ];
            (headers, png.as_ref().clone()).into_response()
        }
        Err(error) => {
            tracing::error!(game = page.view.id, %error, "web: the board could not be drawn");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// `/g/<key>/live`: the game's states as server-sent events (`game`), until it ends
/// (`end`). Over `max_live` streams, 503: the page still works, without live moves.
async fn live_events(
    State(app): State<App>,
    Path(key): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let Ok(slot) = app.live.slots.clone().try_acquire_owned() else {
        return too_many_live();
    };
    let page = match app.manager.game_page(&key).await {
        Ok(page) => page,
        Err(error) => return read_failed(error, lang, Missing::Game, &format!("/g/{key}/live")),
    };
    let receiver = app.live.watch(page);
    sse::stream(
        slot,
        receiver,
        "game",
        move |s| s.json(lang),
        |s| s.page.view.is_over(),
    )
}

/// `/assets/<name>`: gzip when the browser takes it, cached for a year (the address
/// changes with the content).
async fn asset(Path(name): Path<String>, headers: HeaderMap) -> Response {
    let Some(asset) = assets::find(&name) else {
        return not_found(Lang::En, Missing::Page, &format!("/assets/{name}"));
    };
    let gzip = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("gzip")))
        && !asset.gzip.is_empty();
    let mut response = if gzip {
        let mut r = asset.gzip.clone().into_response();
        r.headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        r
    } else {
        asset.body.into_response()
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    response
}

fn not_found(lang: Lang, missing: Missing, path: &str) -> Response {
    html(StatusCode::NOT_FOUND, page::not_found(lang, missing, path))
}

/// The answer to a page whose record could not be read: the 404 page when there is no such
/// game, player or tournament (a forged key is one), else the 503 page (the store did not
/// answer), logged.
fn read_failed(error: ActionError, lang: Lang, missing: Missing, path: &str) -> Response {
    match error {
        ActionError::NoSuchGame | ActionError::NoSuchTournament => not_found(lang, missing, path),
        error => {
            tracing::warn!(%error, path, "web: a page could not be read");
            unavailable(lang, path)
        }
    }
}

/// The 503 for a live stream when all `max_live` are taken (the page still works, without
/// live changes).
fn too_many_live() -> Response {
    (StatusCode::SERVICE_UNAVAILABLE, "too many live pages").into_response()
}

/// A 503 page in the reader's language: the store did not answer (the caller logs why).
pub(super) fn unavailable(lang: Lang, path: &str) -> Response {
    html(
        StatusCode::SERVICE_UNAVAILABLE,
        page::unavailable(lang, path),
    )
}

async fn not_found_anywhere(
    uri: axum::http::Uri,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    not_found(lang_of(&query, &headers), Missing::Page, uri.path())
}
