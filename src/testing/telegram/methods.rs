//! The Bot API methods the fake knows, on its state: sending and editing messages, photos
//! and documents, answering callback and inline queries, commands and the webhook.

use super::checks::{check_caption, check_markup, check_parse_mode, check_png, check_text};
use super::params::{
    bad, name_key, opt_i64, opt_str, req_str, value_bool, value_i64, value_str, ApiError, Files,
    Params,
};
use super::state::{bot_user, hash, message_json, next_message_id, now, FakeState, Webhook};
use super::{StoredMessage, BOT_ID, BOT_USERNAME};
use serde_json::{json, Value};
use std::collections::HashSet;

const NOT_MODIFIED: &str = "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";

const INVALID_QUERY: &str =
    "Bad Request: query is too old and response timeout expired or query id is invalid";

pub(super) fn dispatch(
    st: &mut FakeState,
    method: &str,
    p: &Params,
    files: &Files,
) -> Result<Value, ApiError> {
    match method {
        "getMe" => Ok(json!({
            "id": BOT_ID, "is_bot": true, "first_name": "Toguz", "username": BOT_USERNAME,
            "can_join_groups": true, "can_read_all_group_messages": false,
            "supports_inline_queries": true, "can_connect_to_business": false,
            "has_main_web_app": false
        })),
        "logOut" | "close" => Ok(json!(true)),
        "getWebhookInfo" => Ok(match &st.webhook {
            Some(w) => json!({"url": w.url, "has_custom_certificate": false,
                "pending_update_count": st.updates.len()}),
            None => json!({"url": "", "has_custom_certificate": false,
                "pending_update_count": st.updates.len()}),
        }),
        "deleteWebhook" => {
            st.webhook = None;
            if value_bool(p.get("drop_pending_updates")) {
                st.updates.clear();
            }
            Ok(json!(true))
        }
        "setWebhook" => set_webhook(st, p),
        "sendMessage" => send_message(st, p),
        "sendPhoto" => send_photo(st, p, files),
        "sendDocument" => send_document(st, p, files),
        "sendChatAction" => {
            known_chat(st, p)?;
            Ok(json!(true))
        }
        "editMessageText" => edit_text(st, p),
        "editMessageCaption" => edit_caption(st, p),
        "editMessageMedia" => edit_media(st, p, files),
        "editMessageReplyMarkup" => edit_markup(st, p),
        "deleteMessage" => {
            let chat = known_chat(st, p)?;
            let id = opt_i64(p, "message_id")?.ok_or_else(|| bad("message_id is required"))?;
            st.messages
                .remove(&(chat, id))
                .map(|_| json!(true))
                .ok_or_else(|| bad("message to delete not found"))
        }
        "getChatMember" => chat_member(st, p),
        "answerCallbackQuery" => answer_callback(st, p),
        "setMessageReaction" => set_reaction(st, p),
        "answerInlineQuery" => answer_inline(st, p),
        "setMyCommands" => set_commands(st, p),
        "getMyCommands" => Ok(st
            .commands
            .get(&command_key(p))
            .cloned()
            .unwrap_or(json!([]))),
        "deleteMyCommands" => {
            st.commands.remove(&command_key(p));
            Ok(json!(true))
        }
        "setChatMenuButton" => Ok(json!(true)),
        _ => Err(ApiError {
            status: 404,
            description: "Not Found".into(),
        }),
    }
}

fn set_webhook(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let url = req_str(p, "url")?;
    if url.is_empty() {
        st.webhook = None;
        return Ok(json!(true));
    }
    let parsed = reqwest::Url::parse(&url).map_err(|_| bad("can't parse URL"))?;
    if parsed.scheme() != "https" && !(st.allow_http_webhook && parsed.scheme() == "http") {
        return Err(bad("bad webhook: HTTPS url must be provided for webhook"));
    }
    let port = parsed.port_or_known_default();
    if parsed.scheme() == "https" && !matches!(port, Some(443 | 80 | 88 | 8443)) {
        return Err(bad(
            "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443",
        ));
    }
    let secret = opt_str(p, "secret_token");
    if let Some(s) = &secret {
        let ok = (1..=256).contains(&s.len())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !ok {
            return Err(bad("secret token contains unallowed characters"));
        }
    }
    st.webhook = Some(Webhook { url, secret });
    Ok(json!(true))
}

fn known_chat(st: &FakeState, p: &Params) -> Result<i64, ApiError> {
    let raw = p.get("chat_id").ok_or_else(|| bad("chat_id is empty"))?;
    let id = value_i64(raw).ok_or_else(|| bad("chat not found"))?;
    if st.chats.contains_key(&id) {
        return Ok(id);
    }
    if id > 0 {
        // A user who never wrote to the bot.
        return Err(ApiError {
            status: 403,
            description: "Forbidden: bot can't initiate conversation with a user".into(),
        });
    }
    Err(bad("chat not found"))
}

fn check_reply_to(st: &FakeState, chat: i64, p: &Params) -> Result<Option<i64>, ApiError> {
    let id = match p.get("reply_parameters") {
        Some(r) => r.get("message_id").and_then(value_i64),
        None => opt_i64(p, "reply_to_message_id")?,
    };
    match id {
        Some(id) if !st.messages.contains_key(&(chat, id)) => {
            Err(bad("message to be replied not found"))
        }
        other => Ok(other),
    }
}

fn send_message(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let chat = known_chat(st, p)?;
    let text = opt_str(p, "text").unwrap_or_default();
    check_text(&text, false)?;
    check_parse_mode(p, &text)?;
    let markup = check_markup(p.get("reply_markup"), false, is_private(st, chat))?;
    let reply_to = check_reply_to(st, chat, p)?;
    let m = StoredMessage {
        text: Some(text),
        ..bot_message(st, chat, markup, reply_to)
    };
    Ok(store_message(st, m))
}

/// A new message from the bot in `chat`, with its id, and nothing in it yet.
fn bot_message(
    st: &mut FakeState,
    chat: i64,
    reply_markup: Option<Value>,
    reply_to: Option<i64>,
) -> StoredMessage {
    StoredMessage {
        chat_id: chat,
        message_id: next_message_id(st, chat),
        from: bot_user(),
        date: now(),
        text: None,
        caption: None,
        photo: None,
        photo_size: (0, 0),
        document: None,
        reply_markup,
        edits: 0,
        reply_to,
        sender_chat: None,
    }
}

/// Keeps a sent message; the Message object the Bot API answers with.
fn store_message(st: &mut FakeState, m: StoredMessage) -> Value {
    let v = message_json(st, &m);
    st.messages.insert((m.chat_id, m.message_id), m);
    v
}

/// The photo of a request: an uploaded file (by field name or `attach://`) or a file_id.
fn photo_of(
    value: Option<&Value>,
    files: &Files,
    field: &str,
    inline: bool,
) -> Result<(String, (u32, u32)), ApiError> {
    let reference = value.and_then(value_str);
    let upload = match reference.as_deref() {
        Some(r) if r.starts_with("attach://") => {
            if inline {
                return Err(bad(
                    "can't use attach:// in inline messages: upload is not allowed",
                ));
            }
            Some(
                files
                    .get(&r["attach://".len()..])
                    .ok_or_else(|| bad("there is no photo in the request"))?,
            )
        }
        Some(r) if r.starts_with('F') => return Ok((r[1..].to_string(), (960, 400))),
        Some(r) if r.starts_with("http") => {
            return Err(bad("failed to get HTTP URL content"));
        }
        Some(_) => return Err(bad("wrong file identifier/HTTP URL specified")),
        None => files.get(field),
    };
    let bytes = upload.ok_or_else(|| bad("there is no photo in the request"))?;
    if inline {
        return Err(bad(
            "can't use attach:// in inline messages: upload is not allowed",
        ));
    }
    let size = check_png(bytes).map_err(|_| bad("IMAGE_PROCESS_FAILED"))?;
    Ok((hash(bytes), size))
}

/// A post with a caption (sendPhoto, sendDocument), checked as Telegram does before it
/// looks at the file: the chat, the caption and its parse mode, the keyboard, the message
/// replied to.
struct Captioned {
    chat: i64,
    caption: Option<String>,
    markup: Option<Value>,
    reply_to: Option<i64>,
}

impl Captioned {
    fn check(st: &FakeState, p: &Params) -> Result<Captioned, ApiError> {
        let chat = known_chat(st, p)?;
        let caption = opt_str(p, "caption");
        check_caption(&caption)?;
        if let Some(c) = &caption {
            check_parse_mode(p, c)?;
        }
        let markup = check_markup(p.get("reply_markup"), false, is_private(st, chat))?;
        let reply_to = check_reply_to(st, chat, p)?;
        Ok(Captioned {
            chat,
            caption,
            markup,
            reply_to,
        })
    }

    /// The new message, with its id, once the file passed too.
    fn message(self, st: &mut FakeState) -> StoredMessage {
        StoredMessage {
            caption: self.caption,
            ..bot_message(st, self.chat, self.markup, self.reply_to)
        }
    }
}

fn send_photo(st: &mut FakeState, p: &Params, files: &Files) -> Result<Value, ApiError> {
    let post = Captioned::check(st, p)?;
    let (photo, size) = photo_of(p.get("photo"), files, "photo", false)?;
    let m = StoredMessage {
        photo: Some(photo),
        photo_size: size,
        ..post.message(st)
    };
    Ok(store_message(st, m))
}

/// sendDocument as Telegram takes it: an uploaded file (multipart, the field `document`
/// or `attach://` a part) with a file name and 1 byte to 50 MB; a `caption` of at most 1024
/// characters. A document sent by URL or file id is not something this bot does: refused.
fn send_document(st: &mut FakeState, p: &Params, files: &Files) -> Result<Value, ApiError> {
    let post = Captioned::check(st, p)?;
    let (name, bytes) = match p.get("document").and_then(value_str) {
        Some(r) if r.starts_with("attach://") => files_named(files, &r["attach://".len()..]),
        Some(_) => return Err(bad("wrong file identifier/HTTP URL specified")),
        None => files_named(files, "document"),
    }
    .ok_or_else(|| bad("there is no document in the request"))?;
    if bytes.is_empty() {
        return Err(bad("file must be non-empty"));
    }
    if bytes.len() > 50 << 20 {
        return Err(ApiError {
            status: 413,
            description: "Request Entity Too Large".into(),
        });
    }
    let m = StoredMessage {
        document: Some((name, bytes.to_vec())),
        ..post.message(st)
    };
    Ok(store_message(st, m))
}

/// An uploaded part and its file name (Telegram shows a document by its name: one is
/// required).
fn files_named<'a>(files: &'a Files, field: &str) -> Option<(String, &'a [u8])> {
    let bytes = files.get(field)?;
    let name = String::from_utf8(files.get(&name_key(field))?.clone()).ok()?;
    (!name.is_empty()).then_some((name, bytes.as_slice()))
}

/// The message an edit targets: `chat_id` + `message_id`, or `inline_message_id`.
enum Target {
    Chat(i64, i64),
    Inline(String),
}

fn edit_target(st: &FakeState, p: &Params) -> Result<Target, ApiError> {
    if let Some(id) = opt_str(p, "inline_message_id") {
        if p.contains_key("chat_id") || p.contains_key("message_id") {
            return Err(bad("message identifier is not specified"));
        }
        if !st.inline_messages.contains_key(&id) {
            return Err(bad("MESSAGE_ID_INVALID"));
        }
        return Ok(Target::Inline(id));
    }
    let (Some(_), Some(mid)) = (p.get("chat_id"), opt_i64(p, "message_id")?) else {
        return Err(bad("message identifier is not specified"));
    };
    let chat = known_chat(st, p)?;
    let m = st
        .messages
        .get(&(chat, mid))
        .ok_or_else(|| bad("message to edit not found"))?;
    if m.from["id"] != json!(BOT_ID) {
        return Err(bad("message can't be edited"));
    }
    Ok(Target::Chat(chat, mid))
}

/// Whether `chat` is a user's private chat with the bot (Web App buttons go only there).
fn is_private(st: &FakeState, chat: i64) -> bool {
    st.chats.get(&chat).and_then(|c| c["type"].as_str()) == Some("private")
}

/// Whether an edited message is in a private chat (an inline message is in none).
fn in_private(st: &FakeState, t: &Target) -> bool {
    match t {
        Target::Chat(chat, _) => is_private(st, *chat),
        Target::Inline(_) => false,
    }
}

fn target_mut<'a>(st: &'a mut FakeState, t: &Target) -> &'a mut StoredMessage {
    match t {
        Target::Chat(c, m) => st.messages.get_mut(&(*c, *m)).expect("checked"),
        Target::Inline(id) => st.inline_messages.get_mut(id).expect("checked"),
    }
}

fn edit_result(st: &FakeState, t: &Target) -> Value {
    match t {
        Target::Chat(c, m) => message_json(st, &st.messages[&(*c, *m)]),
        Target::Inline(_) => json!(true),
    }
}

fn edit_text(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let t = edit_target(st, p)?;
    let text = opt_str(p, "text").unwrap_or_default();
    check_text(&text, true)?;
    check_parse_mode(p, &text)?;
    let markup = check_markup(p.get("reply_markup"), true, in_private(st, &t))?;
    let m = target_mut(st, &t);
    if m.text.is_none() {
        return Err(bad("there is no text in the message to edit"));
    }
    if m.text.as_deref() == Some(text.as_str()) && m.reply_markup == markup {
        return Err(bad(NOT_MODIFIED.trim_start_matches("Bad Request: ")));
    }
    m.text = Some(text);
    m.reply_markup = markup;
    m.edits += 1;
    Ok(edit_result(st, &t))
}

fn edit_caption(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let t = edit_target(st, p)?;
    let caption = opt_str(p, "caption");
    check_caption(&caption)?;
    let markup = check_markup(p.get("reply_markup"), true, in_private(st, &t))?;
    let m = target_mut(st, &t);
    if m.photo.is_none() {
        return Err(bad("there is no caption in the message to edit"));
    }
    if m.caption == caption && m.reply_markup == markup {
        return Err(bad(NOT_MODIFIED.trim_start_matches("Bad Request: ")));
    }
    m.caption = caption;
    m.reply_markup = markup;
    m.edits += 1;
    Ok(edit_result(st, &t))
}

fn edit_media(st: &mut FakeState, p: &Params, files: &Files) -> Result<Value, ApiError> {
    let t = edit_target(st, p)?;
    let media = p
        .get("media")
        .filter(|m| m.is_object())
        .ok_or_else(|| bad("can't parse InputMedia: media is not an object"))?;
    if media.get("type").and_then(Value::as_str) != Some("photo") {
        return Err(bad("wrong type of the web page content"));
    }
    let caption = media
        .get("caption")
        .and_then(Value::as_str)
        .map(str::to_string);
    check_caption(&caption)?;
    let markup = check_markup(p.get("reply_markup"), true, in_private(st, &t))?;
    let inline = matches!(t, Target::Inline(_));
    let (photo, size) = photo_of(media.get("media"), files, "", inline)?;
    let m = target_mut(st, &t);
    if m.photo.is_none() && m.text.is_some() && inline {
        return Err(bad("MESSAGE_ID_INVALID"));
    }
    if m.photo.as_deref() == Some(photo.as_str())
        && m.caption == caption
        && m.reply_markup == markup
    {
        return Err(bad(NOT_MODIFIED.trim_start_matches("Bad Request: ")));
    }
    m.photo = Some(photo);
    m.photo_size = size;
    m.text = None;
    m.caption = caption;
    m.reply_markup = markup;
    m.edits += 1;
    Ok(edit_result(st, &t))
}

fn edit_markup(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let t = edit_target(st, p)?;
    let markup = check_markup(p.get("reply_markup"), true, in_private(st, &t))?;
    let m = target_mut(st, &t);
    if m.reply_markup == markup {
        return Err(bad(NOT_MODIFIED.trim_start_matches("Bad Request: ")));
    }
    m.reply_markup = markup;
    m.edits += 1;
    Ok(edit_result(st, &t))
}

/// getChatMember as Telegram answers it: the chat must be one the bot is in, `user_id` a
/// user Telegram knows (else `PARTICIPANT_ID_INVALID`); someone known who never was in the
/// group has left it. Each status carries the fields the Bot API gives it.
fn chat_member(st: &FakeState, p: &Params) -> Result<Value, ApiError> {
    let chat = known_chat(st, p)?;
    let user_id = match p.get("user_id") {
        None => return Err(bad("user_id is empty")),
        Some(v) => value_i64(v).ok_or_else(|| bad("invalid user_id specified"))?,
    };
    let user = st
        .users
        .get(&user_id)
        .cloned()
        .ok_or_else(|| bad("PARTICIPANT_ID_INVALID"))?;
    let status = if chat > 0 {
        // A private chat: its user, or nobody else.
        (if chat == user_id { "member" } else { "left" }).to_string()
    } else {
        st.members
            .get(&(chat, user_id))
            .cloned()
            .unwrap_or_else(|| "left".to_string())
    };
    let mut member = json!({"user": user, "status": status});
    match status.as_str() {
        "creator" => member["is_anonymous"] = json!(false),
        "administrator" => {
            for (key, value) in [
                ("can_be_edited", false),
                ("is_anonymous", false),
                ("can_manage_chat", true),
                ("can_delete_messages", true),
                ("can_manage_video_chats", true),
                ("can_restrict_members", true),
                ("can_promote_members", false),
                ("can_change_info", true),
                ("can_invite_users", true),
                ("can_post_stories", false),
                ("can_edit_stories", false),
                ("can_delete_stories", false),
                ("can_pin_messages", true),
            ] {
                member[key] = json!(value);
            }
        }
        "restricted" => {
            member["until_date"] = json!(0);
            member["is_member"] = json!(true);
            for key in [
                "can_send_messages",
                "can_send_audios",
                "can_send_documents",
                "can_send_photos",
                "can_send_videos",
                "can_send_video_notes",
                "can_send_voice_notes",
                "can_send_polls",
                "can_send_other_messages",
                "can_add_web_page_previews",
                "can_change_info",
                "can_invite_users",
                "can_pin_messages",
                "can_manage_topics",
            ] {
                member[key] = json!(false);
            }
        }
        "kicked" => member["until_date"] = json!(0),
        _ => {}
    }
    Ok(member)
}

fn answer_callback(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let id = opt_str(p, "callback_query_id").unwrap_or_default();
    let text = opt_str(p, "text").unwrap_or_default();
    if text.chars().count() > 200 {
        return Err(bad("MESSAGE_TOO_LONG"));
    }
    if let Some(url) = opt_str(p, "url") {
        check_start_link(&url)?;
    }
    match st.callback_queries.get_mut(&id) {
        Some(answered) if !*answered => {
            *answered = true;
            Ok(json!(true))
        }
        _ => Err(bad(INVALID_QUERY.trim_start_matches("Bad Request: "))),
    }
}

fn answer_inline(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let id = opt_str(p, "inline_query_id").unwrap_or_default();
    let results = p
        .get("results")
        .and_then(Value::as_array)
        .cloned()
        .ok_or_else(|| bad("can't parse inline query results"))?;
    if results.len() > 50 {
        return Err(bad("RESULTS_TOO_MUCH"));
    }
    let mut ids = HashSet::new();
    for r in &results {
        let rid = r.get("id").and_then(Value::as_str).unwrap_or("");
        if rid.is_empty() || rid.len() > 64 || !ids.insert(rid.to_string()) {
            return Err(bad("RESULT_ID_INVALID"));
        }
        if r.get("type").and_then(Value::as_str) == Some("article") {
            let title = r.get("title").and_then(Value::as_str).unwrap_or("");
            if title.trim().is_empty() {
                return Err(bad("RESULT_TITLE_EMPTY"));
            }
            let text = r
                .pointer("/input_message_content/message_text")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("can't parse InputMessageContent"))?;
            check_text(text, false)?;
        }
        // An inline message may be sent to any chat: no Web App buttons.
        check_markup(r.get("reply_markup"), true, false)?;
    }
    if let Some(button) = p.get("button") {
        check_results_button(button)?;
    }
    let q = st
        .inline_queries
        .get_mut(&id)
        .filter(|q| !q.answered)
        .ok_or_else(|| bad(INVALID_QUERY.trim_start_matches("Bad Request: ")))?;
    q.answered = true;
    q.results = results;
    q.button = p.get("button").cloned();
    Ok(json!(true))
}

/// The button above inline results: a label and exactly one of a Web App or a start
/// parameter (1-64 characters of `A-Z a-z 0-9 _ -`), as the Bot API requires.
fn check_results_button(button: &Value) -> Result<(), ApiError> {
    let text = button.get("text").and_then(Value::as_str).unwrap_or("");
    if text.trim().is_empty() {
        return Err(bad("BUTTON_TEXT_EMPTY"));
    }
    let start = button.get("start_parameter");
    if start.is_some() == button.get("web_app").is_some() {
        return Err(bad("can't parse InlineQueryResultsButton"));
    }
    if let Some(start) = start {
        let start = start.as_str().unwrap_or("");
        let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if start.is_empty() || start.len() > 64 || !start.chars().all(allowed) {
            return Err(bad("START_PARAM_INVALID"));
        }
    }
    Ok(())
}

fn command_key(p: &Params) -> String {
    let scope = p
        .get("scope")
        .and_then(|s| s.get("type"))
        .and_then(Value::as_str)
        .unwrap_or("default");
    let lang = opt_str(p, "language_code").unwrap_or_default();
    format!("{scope}/{lang}")
}

fn set_commands(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let commands = p
        .get("commands")
        .and_then(Value::as_array)
        .cloned()
        .ok_or_else(|| bad("can't parse commands JSON object"))?;
    if commands.len() > 100 {
        return Err(bad("BOT_COMMANDS_TOO_MUCH"));
    }
    for c in &commands {
        let name = c.get("command").and_then(Value::as_str).unwrap_or("");
        let ok = (1..=32).contains(&name.len())
            && name
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_');
        if !ok {
            return Err(bad("BOT_COMMAND_INVALID"));
        }
        let d = c.get("description").and_then(Value::as_str).unwrap_or("");
        if d.trim().is_empty() || d.chars().count() > 256 {
            return Err(bad("command description is empty or too long"));
        }
    }
    if let Some(l) = opt_str(p, "language_code") {
        if !(l.is_empty() || l.len() == 2 && l.chars().all(|c| c.is_ascii_lowercase())) {
            return Err(bad("invalid language code specified"));
        }
    }
    st.commands.insert(command_key(p), Value::Array(commands));
    Ok(json!(true))
}

/// An answerCallbackQuery `url`: without a game, Telegram takes only a link that opens the
/// bot itself with a start parameter (`https://t.me/<bot>?start=<1-64 of A-Z a-z 0-9 _ ->`).
fn check_start_link(url: &str) -> Result<(), ApiError> {
    let rest = url
        .strip_prefix("https://t.me/")
        .or_else(|| url.strip_prefix("http://t.me/"))
        .or_else(|| url.strip_prefix("t.me/"));
    let ok = rest
        .and_then(|r| r.split_once("?start="))
        .is_some_and(|(bot, start)| {
            bot.eq_ignore_ascii_case(BOT_USERNAME)
                && (1..=64).contains(&start.len())
                && start
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        });
    match ok {
        true => Ok(()),
        false => Err(bad("URL_INVALID")),
    }
}

/// The emoji a bot may react with (Bot API `ReactionTypeEmoji`).
const REACTIONS: &[&str] = &[
    "👍",
    "👎",
    "❤",
    "🔥",
    "🥰",
    "👏",
    "😁",
    "🤔",
    "🤯",
    "😱",
    "🤬",
    "😢",
    "🎉",
    "🤩",
    "🤮",
    "💩",
    "🙏",
    "👌",
    "🕊",
    "🤡",
    "🥱",
    "🥴",
    "😍",
    "🐳",
    "❤‍🔥",
    "🌚",
    "🌭",
    "💯",
    "🤣",
    "⚡",
    "🍌",
    "🏆",
    "💔",
    "🤨",
    "😐",
    "🍓",
    "🍾",
    "💋",
    "🖕",
    "😈",
    "😴",
    "😭",
    "🤓",
    "👻",
    "👨‍💻",
    "👀",
    "🎃",
    "🙈",
    "😇",
    "😨",
    "🤝",
    "✍",
    "🤗",
    "🫡",
    "🎅",
    "🎄",
    "☃",
    "💅",
    "🤪",
    "🗿",
    "🆒",
    "💘",
    "🙉",
    "🦄",
    "😘",
    "💊",
    "🙊",
    "😎",
    "👾",
    "🤷‍♂",
    "🤷",
    "🤷‍♀",
    "😡",
];

/// setMessageReaction: the message must exist; a bot sets at most one reaction, an emoji
/// from the allowed list (an empty list removes it).
fn set_reaction(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let chat = known_chat(st, p)?;
    let message = opt_i64(p, "message_id")?.ok_or_else(|| bad("message_id is empty"))?;
    if !st.messages.contains_key(&(chat, message)) {
        return Err(bad("message to react not found"));
    }
    let list = p
        .get("reaction")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if list.len() > 1 {
        return Err(bad("REACTIONS_TOO_MANY"));
    }
    let mut emoji = Vec::new();
    for r in &list {
        let ok = r.get("type").and_then(Value::as_str) == Some("emoji");
        match r.get("emoji").and_then(Value::as_str) {
            Some(e) if ok && REACTIONS.contains(&e) => emoji.push(e.to_string()),
            _ => return Err(bad("REACTION_INVALID")),
        }
    }
    st.reactions.insert((chat, message), emoji);
    Ok(json!(true))
}
