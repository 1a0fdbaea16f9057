//! Checks of the fake Discord itself: what it sends deserializes into serenity's types (or
//! serenity would silently drop it), and it rejects what real Discord rejects.

use serde_json::{json, Value};
use serenity::model::application::Interaction;
use toguz::testing::discord::{Failure, FakeDiscord, User, APP_ID, TOKEN};

fn client() -> reqwest::Client {
    reqwest::Client::new()
}

async fn send(
    fake: &FakeDiscord,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = client()
        .request(method, format!("{}/api/v10{path}", fake.url()))
        .header("authorization", format!("Bot {TOKEN}"));
    if let Some(body) = body {
        req = req.json(&body);
    }
    let resp = req.send().await.expect("request");
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Connects a raw gateway client, identifies, and returns the socket after READY.
async fn connect(fake: &FakeDiscord) -> (Value, futures_util_shim::GatewayClient) {
    use futures_util_shim::*;
    let (_, gw) = send(fake, reqwest::Method::GET, "/gateway", None).await;
    let url = format!("{}?v=10", gw["url"].as_str().unwrap());
    let mut ws = GatewayClient::connect(&url).await;
    let hello = ws.next_json().await;
    assert_eq!(hello["op"], 10);
    ws.send_json(
        json!({"op": 2, "d": {"token": format!("Bot {TOKEN}"), "intents": 1 | (1 << 12),
        "shard": [0, 1], "properties": {}, "compress": false, "large_threshold": 250}}),
    )
    .await;
    let ready = ws.next_json().await;
    (ready, ws)
}

/// A tiny websocket client on top of tokio-tungstenite (through serenity's re-export is not
/// available, so use axum's dependency tree: reqwest cannot speak websockets).
mod futures_util_shim {
    use serde_json::Value;
    use tokio::net::TcpStream;
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

    pub struct GatewayClient(WebSocketStream<MaybeTlsStream<TcpStream>>);

    impl GatewayClient {
        pub async fn connect(url: &str) -> GatewayClient {
            let (ws, _) = tokio_tungstenite::connect_async(url)
                .await
                .expect("ws connect");
            GatewayClient(ws)
        }
        pub async fn next_json(&mut self) -> Value {
            use futures::StreamExt;
            loop {
                match self.0.next().await {
                    Some(Ok(Message::Text(t))) => return serde_json::from_str(&t).unwrap(),
                    Some(Ok(Message::Close(frame))) => {
                        return serde_json::json!({"closed": frame.map(|f| u16::from(f.code))})
                    }
                    Some(Ok(_)) => continue,
                    other => return serde_json::json!({"closed": format!("{other:?}")}),
                }
            }
        }
        pub async fn send_json(&mut self, v: Value) {
            use futures::SinkExt;
            self.0
                .send(Message::Text(v.to_string()))
                .await
                .expect("ws send");
        }
    }
}

#[tokio::test]
async fn gateway_payloads_deserialize_into_serenity_types() {
    let fake = FakeDiscord::start().await;
    let (ready, mut ws) = connect(&fake).await;
    assert_eq!(ready["t"], "READY");
    let parsed: serenity::model::gateway::Ready =
        serde_json::from_value(ready["d"].clone()).expect("READY parses");
    assert_eq!(parsed.application.id.get(), APP_ID);

    let alice = User::new(1001, "Alice");
    let bob = User::new(1002, "Bob");
    let place = fake.guild_channel(5_000_000_000_000_000_000, 77);
    let options = json!([{ "name": "user", "type": 6, "value": bob.id.to_string() }]);
    fake.slash(
        &alice,
        place,
        "challenge",
        options,
        std::slice::from_ref(&bob),
    );
    let event = ws.next_json().await;
    assert_eq!(event["t"], "INTERACTION_CREATE");
    let interaction: Interaction =
        serde_json::from_value(event["d"].clone()).expect("command parses");
    let Interaction::Command(cmd) = interaction else {
        panic!("not a command")
    };
    assert_eq!(cmd.data.name, "challenge");
    assert!(cmd.data.resolved.members.contains_key(&bob.id.into()));

    // Answer it with a message with a button, then press the button.
    let id = cmd.id.get();
    let body = json!({"type": 4, "data": {"content": "hi", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Accept", "custom_id": "x1"}]}]}});
    let (status, _) = send(
        &fake,
        reqwest::Method::POST,
        &format!("/interactions/{id}/{}/callback", cmd.token),
        Some(body.clone()),
    )
    .await;
    assert_eq!(status, 204);
    let (status, again) = send(
        &fake,
        reqwest::Method::POST,
        &format!("/interactions/{id}/{}/callback", cmd.token),
        Some(body),
    )
    .await;
    assert_eq!(
        (status, again["code"].as_u64()),
        (400, Some(40060)),
        "only once"
    );
    let message = fake.original_message(id).expect("message created");
    let message_id = toguz::testing::discord::id_of(&message);
    fake.press(&bob, message_id, "x1");
    let event = ws.next_json().await;
    let interaction: Interaction =
        serde_json::from_value(event["d"].clone()).expect("component parses");
    let Interaction::Component(press) = interaction else {
        panic!("not a component")
    };
    assert_eq!(press.data.custom_id, "x1");
    assert_eq!(press.message.id.get(), message_id);

    // DMs carry `user`, not `member`.
    let dm = fake.dm_channel(88);
    fake.slash(&alice, dm, "play", json!([]), &[]);
    let event = ws.next_json().await;
    let interaction: Interaction =
        serde_json::from_value(event["d"].clone()).expect("DM command parses");
    assert!(interaction
        .as_command()
        .is_some_and(|c| c.guild_id.is_none() && c.user.id.get() == alice.id));
}

#[tokio::test]
async fn gateway_refuses_bad_tokens_and_privileged_intents() {
    let fake = FakeDiscord::start().await;
    let url = format!("{}/gateway?v=10", fake.url().replace("http", "ws"));
    for (token, intents, code) in [
        ("Bot nope.nope.nope", 1, 4004),
        (TOKEN, 1 << 15, 4014),
        (TOKEN, 1 << 1, 4014),
    ] {
        let mut ws = futures_util_shim::GatewayClient::connect(&url).await;
        let _hello = ws.next_json().await;
        ws.send_json(json!({"op": 2, "d": {"token": token, "intents": intents, "shard": [0, 1], "properties": {}}})).await;
        assert_eq!(ws.next_json().await["closed"], code);
    }
}

#[tokio::test]
async fn rest_rejects_what_discord_rejects() {
    let fake = FakeDiscord::start().await;
    // Bad token.
    let resp = client()
        .get(format!("{}/api/v10/users/@me", fake.url()))
        .header("authorization", "Bot a.b.c")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 401);
    // A kk localization fails the whole registration with 50035.
    let bad = json!([{"name": "help", "description": "Help", "type": 1, "name_localizations": {"kk": "комек"}}]);
    let (status, body) = send(
        &fake,
        reqwest::Method::PUT,
        &format!("/applications/{APP_ID}/commands"),
        Some(bad),
    )
    .await;
    assert_eq!((status, body["code"].as_u64()), (400, Some(50035)));
    assert!(fake.global_commands().is_empty());
    // Upper-case names, long descriptions, required after optional.
    for bad in [
        json!([{"name": "Help", "description": "x", "type": 1}]),
        json!([{"name": "help", "description": "x".repeat(101), "type": 1}]),
        json!([{"name": "a", "description": "x", "type": 1, "options": [
            {"name": "o1", "description": "d", "type": 3}, {"name": "o2", "description": "d", "type": 3, "required": true}]}]),
    ] {
        let (status, _) = send(
            &fake,
            reqwest::Method::PUT,
            &format!("/applications/{APP_ID}/commands"),
            Some(bad),
        )
        .await;
        assert_eq!(status, 400);
    }
    let good = json!([{"name": "help", "description": "Help", "type": 1, "name_localizations": {"ru": "помощь"}}]);
    let (status, body) = send(
        &fake,
        reqwest::Method::PUT,
        &format!("/applications/{APP_ID}/commands"),
        Some(good),
    )
    .await;
    assert_eq!(status, 200);
    let commands: Vec<serenity::model::application::Command> =
        serde_json::from_value(body).expect("commands parse");
    assert_eq!(commands[0].name, "help");
    // Scripted failures come first, then the real answer.
    fake.fail_next(
        "GET",
        "/users/@me",
        Failure::RateLimit {
            retry_after: 0.2,
            global: false,
        },
        1,
    );
    let (status, body) = send(&fake, reqwest::Method::GET, "/users/@me", None).await;
    assert_eq!(status, 429);
    assert_eq!(body["retry_after"], 0.2);
    let (status, me) = send(&fake, reqwest::Method::GET, "/users/@me", None).await;
    assert_eq!(status, 200);
    let _user: serenity::model::user::CurrentUser =
        serde_json::from_value(me).expect("user parses");
    // Unknown channels.
    let (status, _) = send(
        &fake,
        reqwest::Method::POST,
        "/channels/999/messages",
        Some(json!({"content": "x"})),
    )
    .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn callbacks_check_types_attachments_and_components() {
    let fake = FakeDiscord::start().await;
    let (_, mut ws) = connect(&fake).await;
    let alice = User::new(1001, "Alice");
    let place = fake.guild_channel(5_000_000_000_000_000_000, 77);
    let id = fake.slash(&alice, place, "board", json!([]), &[]);
    let event = ws.next_json().await;
    let token = event["d"]["token"].as_str().unwrap().to_string();
    let url = format!("{}/api/v10/interactions/{id}/{token}/callback", fake.url());
    // UPDATE_MESSAGE is only for components.
    let (status, _) = send(
        &fake,
        reqwest::Method::POST,
        &format!("/interactions/{id}/{token}/callback"),
        Some(json!({"type": 7, "data": {"content": "x"}})),
    )
    .await;
    assert_eq!(status, 400);
    // A file that the payload does not list is refused.
    let form = reqwest::multipart::Form::new()
        .text(
            "payload_json",
            json!({"type": 4, "data": {"content": "x", "attachments": []}}).to_string(),
        )
        .part(
            "files[0]",
            reqwest::multipart::Part::bytes(vec![1, 2, 3]).file_name("board.png"),
        );
    let resp = client().post(&url).multipart(form).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 400);
    // Any file, not only images, must come as Discord takes it: payload_json present, the
    // part named files[n] with a file name, its id listed in the payload's attachments.
    let listed = json!({"type": 4, "data": {"content": "x",
        "attachments": [{"id": 0, "filename": "game.pgn"}]}})
    .to_string();
    let record = || reqwest::multipart::Part::bytes(b"1. 7 3".to_vec());
    let forms = [
        reqwest::multipart::Form::new().part("files[0]", record().file_name("game.pgn")),
        reqwest::multipart::Form::new()
            .text("payload_json", listed.clone())
            .part("files[0]", record()),
        reqwest::multipart::Form::new()
            .text("payload_json", listed.clone())
            .part("file", record().file_name("game.pgn")),
        reqwest::multipart::Form::new()
            .text("payload_json", listed.clone())
            .part("files[1]", record().file_name("game.pgn")),
    ];
    for form in forms {
        let resp = client().post(&url).multipart(form).send().await.unwrap();
        assert_eq!(resp.status().as_u16(), 400);
    }
    // Duplicate custom ids are refused.
    let dup = json!({"type": 4, "data": {"content": "x", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "1", "custom_id": "a"}, {"type": 2, "style": 1, "label": "2", "custom_id": "a"}]}]}});
    let (status, _) = send(
        &fake,
        reqwest::Method::POST,
        &format!("/interactions/{id}/{token}/callback"),
        Some(dup),
    )
    .await;
    assert_eq!(status, 400);
    // An embed image must name an attachment of the message; this one does.
    let form = reqwest::multipart::Form::new()
        .text("payload_json", json!({"type": 4, "data": {"embeds": [{"title": "t", "image": {"url": "attachment://board.png"}}],
            "attachments": [{"id": 0, "filename": "board.png"}]}}).to_string())
        .part("files[0]", reqwest::multipart::Part::bytes(vec![1, 2, 3]).file_name("board.png"));
    let resp = client().post(&url).multipart(form).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 204);
    let message = fake.original_message(id).unwrap();
    assert_eq!(message["attachments"][0]["filename"], "board.png");
    assert_eq!(message["attachments"][0]["content_type"], "image/png");
    assert_eq!(
        fake.attachment_bytes(&message["attachments"][0]),
        vec![1, 2, 3]
    );
    // Followups and edits work through the interaction's webhook.
    let (status, edited) = send(
        &fake,
        reqwest::Method::PATCH,
        &format!("/webhooks/{APP_ID}/{token}/messages/@original"),
        Some(json!({"content": "edited", "attachments": []})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(edited["content"], "edited");
    assert_eq!(
        edited["attachments"],
        json!([]),
        "attachments: [] removes the image"
    );
    let _m: serenity::model::channel::Message =
        serde_json::from_value(edited).expect("message parses");
}

/// Link buttons (issue 35) as Discord takes them: style 5 with an http(s) url and no
/// custom_id; no url on any other button; at most five rows of at most five buttons.
#[tokio::test]
async fn link_buttons_rows_and_their_limits_are_checked() {
    let fake = FakeDiscord::start().await;
    let (_, mut ws) = connect(&fake).await;
    let alice = User::new(1002, "Alice");
    let place = fake.guild_channel(5_000_000_000_000_000_001, 78);
    let id = fake.slash(&alice, place, "board", json!([]), &[]);
    let event = ws.next_json().await;
    let token = event["d"]["token"].as_str().unwrap().to_string();
    let path = format!("/interactions/{id}/{token}/callback");
    let url = "https://pages.example.org/g/ab12cd-0123456789abcdef0123";
    let pit = json!({"type": 2, "style": 1, "label": "1", "custom_id": "1m:ab12cd:0:1"});
    let rows = |buttons: Vec<Value>| {
        json!({"type": 4, "data": {"content": "board",
        "components": [{"type": 1, "components": [pit.clone()]}, {"type": 1, "components": buttons}]}})
    };
    let refused = [
        // A link with a custom_id, without a url, with one that is no web address.
        rows(vec![
            json!({"type": 2, "style": 5, "label": "Page", "url": url, "custom_id": "x"}),
        ]),
        rows(vec![json!({"type": 2, "style": 5, "label": "Page"})]),
        rows(vec![
            json!({"type": 2, "style": 5, "label": "Page", "url": "ftp://pages.example.org/x"}),
        ]),
        rows(vec![
            json!({"type": 2, "style": 5, "label": "Page", "url": format!("{url}/{}", "a".repeat(512))}),
        ]),
        // A url on a button that is not a link.
        rows(vec![
            json!({"type": 2, "style": 2, "label": "Page", "url": url, "custom_id": "y"}),
        ]),
        // Six buttons in a row; six rows.
        rows(
            (0..6)
                .map(|i| json!({"type": 2, "style": 5, "label": "Page", "url": format!("{url}?{i}")}))
                .collect(),
        ),
        json!({"type": 4, "data": {"content": "board", "components": (0..6)
            .map(|i| json!({"type": 1, "components": [
                {"type": 2, "style": 1, "label": "1", "custom_id": format!("b{i}")}]}))
            .collect::<Vec<_>>()}}),
    ];
    for body in refused {
        let (status, answer) = send(&fake, reqwest::Method::POST, &path, Some(body.clone())).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["code"], 50035, "{answer}");
    }
    let good = rows(vec![
        json!({"type": 2, "style": 5, "label": "🌐 Game page", "url": url}),
    ]);
    let (status, answer) = send(&fake, reqwest::Method::POST, &path, Some(good)).await;
    assert_eq!(status, 204, "{answer}");
    let message = fake.original_message(id).unwrap();
    assert_eq!(message["components"][1]["components"][0]["url"], url);
}

/// Discord's rate limit on message creates, through the HTTP API: five per 5 s per
/// channel with the bucket's headers on each answer, the sixth 429 with `retry_after` and
/// `global: false` and nothing created; another channel is not held.
#[tokio::test]
async fn a_channel_over_five_messages_in_five_seconds_gets_discords_429() {
    let fake = FakeDiscord::start().await;
    fake.guild_channel(77, 7_001);
    fake.guild_channel(77, 7_002);
    let post = |channel: u64, n: u32| {
        client()
            .post(format!(
                "{}/api/v10/channels/{channel}/messages",
                fake.url()
            ))
            .header("authorization", format!("Bot {TOKEN}"))
            .json(&json!({ "content": n.to_string() }))
            .send()
    };
    for n in 0..5u32 {
        let resp = post(7_001, n).await.unwrap();
        assert_eq!(resp.status().as_u16(), 200);
        let h = resp.headers();
        assert_eq!(h["x-ratelimit-limit"], "5");
        assert_eq!(h["x-ratelimit-remaining"], (4 - n).to_string().as_str());
        for name in [
            "x-ratelimit-reset",
            "x-ratelimit-reset-after",
            "x-ratelimit-bucket",
        ] {
            assert!(h.contains_key(name), "{name}");
        }
    }
    let resp = post(7_001, 5).await.unwrap();
    assert_eq!(resp.status().as_u16(), 429);
    assert_eq!(resp.headers()["x-ratelimit-remaining"], "0");
    assert_eq!(resp.headers()["x-ratelimit-scope"], "user");
    assert!(resp.headers().contains_key("retry-after"));
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["global"], false);
    let wait = body["retry_after"].as_f64().unwrap();
    assert!(wait > 0.0 && wait <= 5.0, "{body}");
    assert_eq!(
        fake.channel_messages(7_001).len(),
        5,
        "the sixth was not created"
    );
    assert_eq!(post(7_002, 0).await.unwrap().status().as_u16(), 200);
    let refusals = fake.rate_limit_refusals();
    assert_eq!(refusals.len(), 1);
    assert!(!refusals[0].global());
    assert_eq!(fake.limits_lifted(), None);
}

/// Autocomplete as Discord has it (issue 51): registered only on string, integer and
/// number options and never beside choices; asked for only on such an option; its
/// interaction (type 4) deserializes into serenity's `Interaction::Autocomplete` with the
/// focused value, takes only callback type 8, with at most 25 choices of 1 to 100
/// characters; a command takes no type 8.
#[tokio::test]
async fn autocomplete_is_taken_as_discord_takes_it() {
    let fake = FakeDiscord::start().await;
    let (_, mut ws) = connect(&fake).await;
    let commands = format!("/applications/{APP_ID}/commands");
    let register = |body: Value| send(&fake, reqwest::Method::PUT, &commands, Some(body));
    let time = |extra: Value| {
        let mut option = json!({"name": "time", "description": "d", "type": 3});
        option
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        json!([{"name": "play", "description": "Play", "type": 1, "options": [option]}])
    };
    for bad in [
        time(json!({"autocomplete": true, "choices": [{"name": "3+2", "value": "3+2"}]})),
        time(json!({"type": 5, "autocomplete": true})),
    ] {
        let (status, body) = register(bad).await;
        assert_eq!(
            (status, body["code"].as_u64()),
            (400, Some(50035)),
            "{body}"
        );
    }
    let (status, _) = register(time(json!({"autocomplete": true}))).await;
    assert_eq!(status, 200);

    let alice = User::new(1001, "Alice");
    let place = fake.guild_channel(5_000_000_000_000_000_000, 77);
    let typed = json!([{"name": "time", "type": 3, "value": "2", "focused": true}]);
    let id = fake.autocomplete(&alice, place, "play", typed);
    let event = ws.next_json().await;
    let interaction: Interaction = serde_json::from_value(event["d"].clone()).expect("parses");
    let Interaction::Autocomplete(typing) = interaction else {
        panic!("not an autocomplete interaction: {event}");
    };
    assert_eq!(typing.data.autocomplete().map(|o| o.value), Some("2"));
    let token = typing.token.clone();
    let callback = format!("/interactions/{id}/{token}/callback");
    let choice = |name: &str| json!({"name": name, "value": "2d"});
    for refused in [
        json!({"type": 4, "data": {"content": "x"}}),
        json!({"type": 8, "data": {"choices": vec![choice("2 days"); 26]}}),
        json!({"type": 8, "data": {"choices": [choice("")]}}),
        json!({"type": 8, "data": {}}),
    ] {
        let (status, _) = send(&fake, reqwest::Method::POST, &callback, Some(refused)).await;
        assert_eq!(status, 400);
    }
    let answer = json!({"type": 8, "data": {"choices": [choice("2 days per move")]}});
    let (status, _) = send(&fake, reqwest::Method::POST, &callback, Some(answer)).await;
    assert_eq!(status, 204);
    assert_eq!(fake.callback(id).and_then(|c| c.callback_type()), Some(8));

    // A command is not answered with choices.
    let id = fake.slash(&alice, place, "play", json!([]), &[]);
    let event = ws.next_json().await;
    let token = event["d"]["token"].as_str().unwrap().to_string();
    let answer = json!({"type": 8, "data": {"choices": [choice("2 days per move")]}});
    let (status, _) = send(
        &fake,
        reqwest::Method::POST,
        &format!("/interactions/{id}/{token}/callback"),
        Some(answer),
    )
    .await;
    assert_eq!(status, 400);
}
