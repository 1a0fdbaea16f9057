//! The gateway websocket: Hello, Identify (token, no privileged intents, a valid shard) and
//! READY with every field serenity needs, heartbeats and their ACKs, then the events a test
//! dispatches. Resuming is refused (op 9), so a reconnecting bot identifies again.

use super::state::{bot_user, Session, Shared};
use super::{APP_ID, TOKEN};
use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use std::sync::Arc;
use tokio::sync::mpsc;

/// GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT.
const PRIVILEGED_INTENTS: u64 = (1 << 1) | (1 << 8) | (1 << 15);

pub(super) async fn gateway(
    State(shared): State<Arc<Shared>>,
    RawQuery(query): RawQuery,
    ws: WebSocketUpgrade,
) -> Response {
    // serenity appends ?v=10 to the URL from GET /gateway; anything else is a broken URL.
    if query.as_deref() != Some("v=10") {
        return (StatusCode::BAD_REQUEST, "bad gateway query").into_response();
    }
    ws.on_upgrade(move |socket| session(shared, socket))
}

async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = socket.send(WsMessage::Close(Some(frame))).await;
}

async fn session(shared: Arc<Shared>, mut socket: WebSocket) {
    let hello = json!({ "op": 10, "d": { "heartbeat_interval": 41250 }, "s": null, "t": null });
    if socket
        .send(WsMessage::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<Value>();
    let mut tx = Some(tx);
    let mut identified = false;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let Some(Ok(msg)) = incoming else { break };
                let text = match msg {
                    WsMessage::Text(t) => t.to_string(),
                    WsMessage::Close(_) => break,
                    _ => continue,
                };
                let Ok(payload) = serde_json::from_str::<Value>(&text) else {
                    close(&mut socket, 4002, "Error while decoding payload.").await;
                    break;
                };
                match payload["op"].as_u64() {
                    Some(1) => {
                        let ack = json!({ "op": 11, "d": null, "s": null, "t": null });
                        if socket.send(WsMessage::Text(ack.to_string().into())).await.is_err() {
                            break;
                        }
                    }
                    Some(2) if identified => {
                        close(&mut socket, 4005, "Already authenticated.").await;
                        break;
                    }
                    Some(2) => {
                        let d = &payload["d"];
                        let token = d["token"].as_str().unwrap_or_default();
                        if token.trim_start_matches("Bot ") != TOKEN {
                            close(&mut socket, 4004, "Authentication failed.").await;
                            break;
                        }
                        let intents = d["intents"].as_u64().unwrap_or(0);
                        if intents & PRIVILEGED_INTENTS != 0 {
                            close(&mut socket, 4014, "Disallowed intent(s).").await;
                            break;
                        }
                        let shard = [
                            d["shard"][0].as_u64().unwrap_or(0),
                            d["shard"][1].as_u64().unwrap_or(1),
                        ];
                        if shard[1] == 0 || shard[0] >= shard[1] {
                            close(&mut socket, 4010, "Invalid shard.").await;
                            break;
                        }
                        identified = true;
                        let ready = {
                            let mut state = shared.lock();
                            state.identifies.push(d.clone());
                            let session_id = format!("session{}", state.snowflake());
                            if let Some(tx) = tx.take() {
                                state.sessions.push(Session { shard, tx, seq: 1 });
                            }
                            json!({ "op": 0, "t": "READY", "s": 1, "d": {
                                "v": 10, "user": bot_user(), "guilds": [],
                                "session_id": session_id,
                                "resume_gateway_url": format!("ws://{}/gateway", shared.addr),
                                "shard": shard, "application": { "id": APP_ID.to_string(), "flags": 0 },
                                "private_channels": [], "relationships": [], "presences": [],
                                "user_settings": {}, "guild_join_requests": [],
                                "geo_ordered_rtc_regions": [], "_trace": ["fake-discord"],
                            }})
                        };
                        if socket.send(WsMessage::Text(ready.to_string().into())).await.is_err() {
                            break;
                        }
                        shared.bump();
                    }
                    Some(6) => {
                        // Resuming is not supported here: ask for a fresh Identify.
                        let invalid = json!({ "op": 9, "d": false, "s": null, "t": null });
                        let _ = socket.send(WsMessage::Text(invalid.to_string().into())).await;
                    }
                    _ if !identified => {
                        close(&mut socket, 4003, "Not authenticated.").await;
                        break;
                    }
                    _ => {}
                }
            }
            Some(out) = rx.recv() => {
                if socket.send(WsMessage::Text(out.to_string().into())).await.is_err() {
                    break;
                }
            }
        }
    }
    drop(rx);
    shared.bump();
}
