//! Discord messages drawn from manager views: the game message (board PNG in an embed, pit
//! buttons, action buttons), the challenge message, plain notices.
//!
//! Everything here is pure: an [`Outgoing`] is built from a view and turned into whichever
//! serenity builder the caller needs (an interaction answer, an update, a message edit). The
//! files are attached on every update: serenity always sends `attachments: []`, so an update
//! without the board file would remove the image.

use super::config::MentionStyle;
use crate::i18n::Lang;
use crate::manager::buttons::{encode, Button};
use crate::manager::{ChallengeView, GameView, Player};
use crate::model::UserRef;
use crate::platform::present::history_text;
use crate::platform::present::review::ReviewPost;
use crate::platform::present::{self, LabeledButton, LinkButton};
use crate::rules::Side;
use crate::t;
use serenity::all::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateEmbed, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, EditAttachments, EditInteractionResponse, EditMessage, UserId,
};

pub const BOARD_FILE: &str = "board.png";
/// The review's evaluation graph.
pub const REVIEW_FILE: &str = "review.png";

/// A file attached to a message. serenity sends each file as a multipart part `files[n]`
/// whose Content-Type it guesses from the name's extension, so the name says the type:
/// `.png` goes as `image/png`, a record's `.pgn` as `application/x-chess-pgn`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl Attachment {
    pub fn new(name: impl Into<String>, bytes: Vec<u8>) -> Attachment {
        Attachment {
            name: name.into(),
            bytes,
        }
    }

    fn to_serenity(&self) -> CreateAttachment {
        CreateAttachment::bytes(self.bytes.clone(), self.name.clone())
    }
}

/// A message to send or an update to apply.
#[derive(Clone, Debug, Default)]
pub struct Outgoing {
    pub content: String,
    pub embed: Option<CreateEmbed>,
    /// Its files: the board image (`board.png`, which the embed shows), a record...
    pub files: Vec<Attachment>,
    pub components: Vec<CreateActionRow>,
    /// Users this message may ping.
    pub ping: Vec<UserId>,
}

/// What a game message shows; an edit is needed only when this changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// The game's version (`GameView::version`): every durable change of what its boards
    /// show adds one, so it stands for the position, the end, draw offers, hints used...
    pub version: u64,
    /// Over: the edit that first shows the end tells the players.
    pub over: bool,
    /// The caption says the bot is busy (no stored change).
    pub bot_busy: bool,
}

impl Stamp {
    pub fn of(view: &GameView) -> Stamp {
        Stamp {
            version: view.version,
            over: view.is_over(),
            bot_busy: view.bot_busy.is_some(),
        }
    }
}

/// The Discord user id of a platform user, if it is one.
pub fn user_id(user: &UserRef) -> Option<UserId> {
    user.id
        .parse::<u64>()
        .ok()
        .filter(|&id| id != 0)
        .map(UserId::new)
}

fn mention(user: &UserRef) -> String {
    format!("<@{}>", user.id)
}

/// The DM channel and message of `user`'s board of the game in their DM, if it has one
/// (a tournament's board sent to them privately).
pub fn dm_board_of(view: &GameView, user: &UserRef) -> Option<(u64, u64)> {
    view.messages
        .iter()
        .filter(|m| super::dm_owner(m).is_some_and(|o| o.to_string() == user.id))
        .find_map(super::parse_message_ref)
}

/// The human whose turn it is, if any.
pub fn human_to_move(view: &GameView) -> Option<&UserRef> {
    view.to_move_player().and_then(Player::user)
}

/// The game message: board image, caption, pit buttons for the player to move, actions. The
/// board is drawn off the async workers (`render::board_png`), so other chats go on meanwhile.
pub async fn game(view: &GameView, lang: Lang, style: MentionStyle) -> Outgoing {
    game_for(view, lang, style, None).await
}

/// The game message of a board in `owner`'s DM (a tournament's board sent to them
/// privately), or of the game's own board (`None`): see [`game_drawn`].
pub async fn game_for(
    view: &GameView,
    lang: Lang,
    style: MentionStyle,
    owner: Option<&UserRef>,
) -> Outgoing {
    #[cfg(test)]
    tests::RENDERS.with(|n| n.set(n.get() + 1));
    let board = present::board_view(view, owner.or(present::viewer(view)), lang);
    let png = match crate::render::board_png(board).await {
        Ok(png) => Some(png),
        Err(error) => {
            tracing::error!(game = view.id, %error, "board image failed; sending the text only");
            None
        }
    };
    game_drawn(view, lang, style, png, owner)
}

/// The game message around an image drawn already (`None`: the text only). A board in `owner`'s DM has the pits
/// only on their turn, only their actions, and mentions only them; the game's own board
/// does not mention a player to move who has a board in their DM (they are told there).
fn game_drawn(
    view: &GameView,
    lang: Lang,
    style: MentionStyle,
    png: Option<Vec<u8>>,
    owner: Option<&UserRef>,
) -> Outgoing {
    let to_move = human_to_move(view);
    let (to_move, mentioned) = match owner {
        Some(owner) => {
            let theirs = to_move.filter(|u| *u == owner);
            (theirs, theirs)
        }
        None => (to_move, to_move.filter(|u| dm_board_of(view, u).is_none())),
    };
    let humans: Vec<&UserRef> = view.players.iter().filter_map(Player::user).collect();
    let mut embed = CreateEmbed::new()
        .description(present::caption_with(view, lang, present::ClockStyle::Live))
        .field(
            present::side_name(Side::White, lang),
            present::player_name(view.player(Side::White), lang),
            true,
        )
        .field(
            present::side_name(Side::Black, lang),
            present::player_name(view.player(Side::Black), lang),
            true,
        )
        .colour(embed_colour(view));
    if png.is_some() {
        embed = embed.image(format!("attachment://{BOARD_FILE}"));
    }
    let (content, ping) = match (mentioned, style) {
        (Some(user), MentionStyle::Mention) => (
            t!(
                lang,
                "discord-your-move",
                mention = mention(user),
                id = view.id.as_str()
            ),
            user_id(user).into_iter().collect(),
        ),
        (None, _) if view.is_over() && !humans.is_empty() => {
            let mentions: Vec<String> = humans.iter().map(|u| mention(u)).collect();
            let text = t!(
                lang,
                "discord-game-over-mention",
                mentions = mentions.join(" ")
            );
            (text, Vec::new())
        }
        _ => (String::new(), Vec::new()),
    };
    let mut components = Vec::new();
    // A DM board has pits only on its owner's turn: the other player's are not theirs.
    if !view.is_over() && (owner.is_none() || to_move.is_some()) {
        let pits = present::pit_buttons(view, to_move);
        let (first, second) = pits.split_at(pits.len().min(5));
        for row in [first, second] {
            if !row.is_empty() {
                components.push(CreateActionRow::Buttons(
                    row.iter().map(pit_button).collect(),
                ));
            }
        }
    }
    let mut actions = present::action_buttons(view, owner, lang);
    if view.is_over() {
        actions.push(history_text::record_button(&view.id, lang));
    }
    if !actions.is_empty() {
        components.push(CreateActionRow::Buttons(
            actions.iter().take(5).map(action_button).collect(),
        ));
    }
    // A board has at most three rows (two of pits, one of actions), so the page's link
    // gets a fourth of its own; were a board ever at Discord's five, it would go without.
    if let Some(link) = present::page_button(view, lang) {
        if components.len() < MAX_ROWS {
            components.push(CreateActionRow::Buttons(vec![link_button(&link)]));
        }
    }
    Outgoing {
        content,
        embed: Some(embed),
        files: png
            .map(|png| Attachment::new(BOARD_FILE, png))
            .into_iter()
            .collect(),
        components,
        ping,
    }
}

/// Action rows in one message, at most (Discord's limit).
const MAX_ROWS: usize = 5;

/// `out`, a game's board, with a button that opens the Discord Activity in its channel
/// (issue 50), while the game goes on: beside the page's link when the board has one.
pub fn with_activity(mut out: Outgoing, view: &GameView, lang: Lang) -> Outgoing {
    if view.is_over() {
        return out;
    }
    let button = CreateButton::new(encode(&Button::LaunchActivity))
        .label(t!(lang, "discord-activity-button"))
        .style(ButtonStyle::Primary);
    // `game_drawn` puts the page's link last, alone in its row.
    let beside_link = present::page_button(view, lang).is_some();
    let rows = out.components.len();
    match out.components.last_mut() {
        Some(CreateActionRow::Buttons(row)) if beside_link && row.len() == 1 => row.push(button),
        _ if rows < MAX_ROWS => out.components.push(CreateActionRow::Buttons(vec![button])),
        _ => {}
    }
    out
}

/// A private message of `text` and one button that opens `link` (`/web signin:login`).
pub fn link_message(content: String, link: &LinkButton) -> Outgoing {
    let mut out = text(content);
    out.components = vec![CreateActionRow::Buttons(vec![link_button(link)])];
    out
}

/// A private message of `text` with a button per link, five to a row (a private alert's
/// games, issue 51: at most `present::alerts::MAX_LISTED`, within Discord's 25).
pub fn links_message(content: String, links: &[LinkButton]) -> Outgoing {
    let mut out = text(content);
    out.components = links
        .chunks(5)
        .take(5)
        .map(|row| CreateActionRow::Buttons(row.iter().map(link_button).collect()))
        .collect();
    out
}

/// A button that opens an address in the browser (it has no custom_id: the bot is not told).
fn link_button(link: &LinkButton) -> CreateButton {
    CreateButton::new_link(link.url.clone()).label(link.label.clone())
}

fn embed_colour(view: &GameView) -> u32 {
    if view.is_over() {
        return 0xC9A227; // gold: the result
    }
    match view.position.to_move() {
        Side::White => 0xE8E2D0,
        Side::Black => 0x3B3A36,
    }
}

fn pit_button(b: &LabeledButton) -> CreateButton {
    let style = if b.enabled {
        ButtonStyle::Primary
    } else {
        ButtonStyle::Secondary
    };
    CreateButton::new(encode(&b.button))
        .label(b.label.clone())
        .style(style)
        .disabled(!b.enabled)
}

fn action_button(b: &LabeledButton) -> CreateButton {
    let style = match b.button {
        Button::Resign { .. } | Button::DeclineChallenge { .. } => ButtonStyle::Danger,
        Button::AcceptDraw { .. } | Button::AcceptChallenge { .. } => ButtonStyle::Success,
        Button::Rematch { .. } => ButtonStyle::Primary,
        _ => ButtonStyle::Secondary,
    };
    CreateButton::new(encode(&b.button))
        .label(b.label.clone())
        .style(style)
        .disabled(!b.enabled)
}

/// The challenge message: who challenges whom, Accept / Decline / Withdraw while open.
pub fn challenge(view: &ChallengeView, lang: Lang) -> Outgoing {
    let mut content = present::challenge_text(view, lang);
    let mut ping = Vec::new();
    if view.is_open() {
        if let Some(opponent) = &view.opponent {
            content = format!("{} {content}", mention(opponent));
            ping.extend(user_id(opponent));
        }
    }
    let buttons = present::challenge_buttons(view, lang);
    let components = if buttons.is_empty() {
        Vec::new()
    } else {
        vec![CreateActionRow::Buttons(
            buttons.iter().map(action_button).collect(),
        )]
    };
    Outgoing {
        content,
        components,
        ping,
        ..Outgoing::default()
    }
}

/// A game review: the summary in an embed showing the evaluation graph, and a button per
/// marked mistake.
pub fn review(post: ReviewPost, mistakes: &[LabeledButton]) -> Outgoing {
    let mut embed = CreateEmbed::new().description(post.text).colour(0xC9A227);
    if post.png.is_some() {
        embed = embed.image(format!("attachment://{REVIEW_FILE}"));
    }
    let components = mistakes
        .chunks(5)
        .map(|row| CreateActionRow::Buttons(row.iter().map(action_button).collect()))
        .collect();
    Outgoing {
        embed: Some(embed),
        files: post
            .png
            .map(|png| Attachment::new(REVIEW_FILE, png.to_vec()))
            .into_iter()
            .collect(),
        components,
        ..Outgoing::default()
    }
}

/// The board before a review's marked mistake, with its caption.
pub fn mistake_board(caption: String, png: Vec<u8>) -> Outgoing {
    let embed = CreateEmbed::new()
        .description(caption)
        .image(format!("attachment://{BOARD_FILE}"))
        .colour(0xC9A227);
    Outgoing {
        embed: Some(embed),
        files: vec![Attachment::new(BOARD_FILE, png)],
        ..Outgoing::default()
    }
}

/// A plain text notice.
pub fn text(content: String) -> Outgoing {
    Outgoing {
        content,
        ..Outgoing::default()
    }
}

fn allowed(ping: &[UserId]) -> CreateAllowedMentions {
    CreateAllowedMentions::new().users(ping.iter().copied())
}

impl Outgoing {
    fn attachments(&self) -> Vec<CreateAttachment> {
        self.files.iter().map(Attachment::to_serenity).collect()
    }

    /// The files as an edit's whole attachment list: they replace whatever was there.
    fn edit_attachments(&self) -> EditAttachments {
        self.files
            .iter()
            .fold(EditAttachments::new(), |list, f| list.add(f.to_serenity()))
    }
}

impl Outgoing {
    /// As an interaction answer (a new message or an update of the pressed one).
    pub fn into_response(self, ephemeral: bool) -> CreateInteractionResponseMessage {
        let files = self.attachments();
        let mut msg = CreateInteractionResponseMessage::new()
            .content(self.content)
            .allowed_mentions(allowed(&self.ping))
            .components(self.components)
            .embeds(self.embed.into_iter().collect())
            .add_files(files);
        if ephemeral {
            msg = msg.ephemeral(true);
        }
        msg
    }

    /// As an edit of an existing message: the files replace the old ones.
    pub fn into_edit(self) -> EditMessage {
        let files = self.edit_attachments();
        EditMessage::new()
            .content(self.content)
            .allowed_mentions(allowed(&self.ping))
            .components(self.components)
            .embeds(self.embed.into_iter().collect())
            .attachments(files)
    }

    /// As the edit of a deferred answer (PATCH .../messages/@original): like
    /// [`Outgoing::into_edit`], the files replace the old ones.
    pub fn into_edit_response(self) -> EditInteractionResponse {
        let files = self.edit_attachments();
        EditInteractionResponse::new()
            .content(self.content)
            .allowed_mentions(allowed(&self.ping))
            .components(self.components)
            .embeds(self.embed.into_iter().collect())
            .attachments(files)
    }

    /// As a whole message sent as a follow-up (an answer after a deferral that cannot be
    /// an edit of the deferred response).
    pub fn into_full_followup(self) -> CreateInteractionResponseFollowup {
        let files = self.attachments();
        CreateInteractionResponseFollowup::new()
            .content(self.content)
            .allowed_mentions(allowed(&self.ping))
            .components(self.components)
            .embeds(self.embed.into_iter().collect())
            .add_files(files)
    }

    /// As a plain channel message (the answer to a command whose interaction Discord no
    /// longer knows).
    pub fn into_message(self) -> CreateMessage {
        let files = self.attachments();
        CreateMessage::new()
            .content(self.content)
            .allowed_mentions(allowed(&self.ping))
            .components(self.components)
            .embeds(self.embed.into_iter().collect())
            .add_files(files)
    }

    /// As a follow-up message to an interaction.
    pub fn into_followup(self) -> CreateInteractionResponseFollowup {
        CreateInteractionResponseFollowup::new()
            .content(self.content)
            .allowed_mentions(allowed(&self.ping))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::manager::{ChallengeStatus, GameStatus};
    use crate::model::{ChatRef, Level, Platform};
    use crate::rules::Variant;
    use serde_json::Value;

    /// The game message with its board drawn here (the tests are not on a runtime).
    fn game(view: &GameView, lang: Lang, style: MentionStyle) -> Outgoing {
        let board = present::board_view(view, present::viewer(view), lang);
        game_drawn(view, lang, style, crate::render::png(&board).ok(), None)
    }

    thread_local! {
        /// Boards drawn on this thread (tests count the renders of one refresh).
        pub(in crate::platform::discord) static RENDERS: std::cell::Cell<usize> =
            const { std::cell::Cell::new(0) };
    }

    fn user(id: &str, name: &str) -> UserRef {
        UserRef::new(Platform::Discord, id, name)
    }

    fn view(players: [Player; 2]) -> GameView {
        GameView::sample("abc123", ChatRef::new(Platform::Discord, "9"), players)
    }

    fn json<T: serde::Serialize>(v: &T) -> Value {
        serde_json::to_value(v).unwrap()
    }

    fn buttons(out: &Outgoing) -> Vec<Value> {
        out.components
            .iter()
            .flat_map(|row| json(row)["components"].as_array().cloned().unwrap())
            .collect()
    }

    #[test]
    fn a_game_message_has_nine_pit_buttons_matching_the_legal_moves() {
        let mut v = view([
            Player::Human(user("11", "Alice")),
            Player::Human(user("22", "Bob")),
        ]);
        v.position.play(7).unwrap();
        v.ply = 1;
        let out = game(&v, Lang::En, MentionStyle::Mention);
        let all = buttons(&out);
        let pits: Vec<&Value> = all
            .iter()
            .filter(|b| b["custom_id"].as_str().unwrap().starts_with("1m:"))
            .collect();
        assert_eq!(pits.len(), 9);
        let legal = v.position.legal_moves();
        for (i, b) in pits.iter().enumerate() {
            let pit = i as u8 + 1;
            assert_eq!(b["custom_id"], format!("1m:abc123:1:{pit}"));
            assert!(b["label"].as_str().unwrap().starts_with(&pit.to_string()));
            assert_eq!(b["disabled"], !legal.contains(pit));
        }
        // Bob (Black) is to move and is mentioned; only he may be pinged.
        assert!(out.content.contains("<@22>"), "{}", out.content);
        assert_eq!(out.ping, vec![UserId::new(22)]);
        let embed = json(out.embed.as_ref().unwrap());
        assert!(embed["description"].as_str().unwrap().contains("abc123"));
        assert_eq!(embed["fields"][0]["value"], "Alice");
        // Resign and offer draw are there; at most 5 buttons a row, at most 5 rows.
        assert!(all.iter().any(|b| b["custom_id"] == "1r:abc123:1"));
        assert!(all.iter().any(|b| b["custom_id"] == "1d:abc123:1"));
        assert!(out.components.len() <= 5);
        assert!(out
            .components
            .iter()
            .all(|r| json(r)["components"].as_array().unwrap().len() <= 5));
    }

    #[test]
    fn a_finished_game_offers_a_rematch_a_review_its_opening_and_its_record() {
        let mut v = view([Player::Human(user("11", "Alice")), Player::Bot(Level::Easy)]);
        v.status = GameStatus::Finished {
            winner: Some(Side::Black),
            reason: crate::manager::FinishReason::Resigned(Side::White),
        };
        v.ply = 3;
        let out = game(&v, Lang::Ru, MentionStyle::Mention);
        let all = buttons(&out);
        assert_eq!(all.len(), 4);
        assert_eq!(all[0]["custom_id"], "1rm:abc123");
        assert_eq!(all[1]["custom_id"], "1rv:abc123");
        assert_eq!(all[1]["label"], "Разбор");
        assert_eq!(all[2]["custom_id"], "1op:abc123");
        assert_eq!(all[2]["label"], "Дебют");
        assert_eq!(all[3]["custom_id"], "1rc:abc123");
        assert_eq!(all[3]["label"], "Запись");
        // A game ended before any move has nothing to review, but a record all the same.
        v.ply = 0;
        let ids: Vec<Value> = buttons(&game(&v, Lang::Ru, MentionStyle::Mention))
            .iter()
            .map(|b| b["custom_id"].clone())
            .collect();
        assert_eq!(ids, ["1rm:abc123", "1rc:abc123"]);
        assert!(out.ping.is_empty());
        let embed = json(out.embed.as_ref().unwrap());
        assert!(embed["description"].as_str().unwrap().contains("сдаётся"));
    }

    #[test]
    fn a_board_links_its_page_in_a_row_of_its_own_when_the_pages_are_served() {
        let url = "https://pages.example.org/g/abc123-0123456789abcdef0123";
        let mut v = view([
            Player::Human(user("11", "Alice")),
            Player::Human(user("22", "Bob")),
        ]);
        let plain = game(&v, Lang::En, MentionStyle::Mention);
        assert!(buttons(&plain).iter().all(|b| b["style"] != 5));
        v.page_url = Some(url.into());
        for over in [false, true] {
            if over {
                v.status = GameStatus::Finished {
                    winner: Some(Side::Black),
                    reason: crate::manager::FinishReason::Resigned(Side::White),
                };
            }
            let out = game(&v, Lang::Kk, MentionStyle::Mention);
            assert!(out.components.len() <= MAX_ROWS);
            let last = json(out.components.last().unwrap());
            let row = last["components"].as_array().unwrap();
            assert_eq!(row.len(), 1, "{last}");
            assert_eq!(row[0]["style"], 5);
            assert_eq!(row[0]["url"], url);
            assert_eq!(row[0]["label"], "🌐 Ойын беті");
            assert!(row[0]["custom_id"].is_null(), "{last}");
        }
    }

    #[test]
    fn with_the_bot_to_move_every_pit_is_disabled_and_nobody_is_pinged() {
        let v = view([
            Player::Bot(Level::Random),
            Player::Human(user("11", "Alice")),
        ]);
        let out = game(&v, Lang::Kk, MentionStyle::Mention);
        assert!(out.ping.is_empty() && out.content.is_empty());
        assert!(buttons(&out)
            .iter()
            .filter(|b| b["custom_id"].as_str().unwrap().starts_with("1m:"))
            .all(|b| b["disabled"] == true));
    }

    #[test]
    fn message_style_leaves_the_game_message_quiet() {
        let v = view([
            Player::Human(user("11", "Alice")),
            Player::Human(user("22", "Bob")),
        ]);
        let out = game(&v, Lang::En, MentionStyle::Message);
        assert!(out.content.is_empty() && out.ping.is_empty());
    }

    #[test]
    fn a_challenge_pings_the_opponent_and_loses_its_buttons_when_closed() {
        let mut c = ChallengeView {
            id: "ch0001".into(),
            challenger: user("11", "Alice"),
            opponent: Some(user("22", "Bob")),
            variant: Variant::STANDARD,
            chat: ChatRef::new(Platform::Discord, "9"),
            expires_at: u64::MAX,
            shown_at: 0,
            status: ChallengeStatus::Open,
            challenger_side: None,
            rematch_of: None,
            messages: vec![],
            rated: true,
            time_control: Default::default(),
            time_changeable: false,
            time_changes: 0,
            lang: Lang::En,
        };
        let out = challenge(&c, Lang::En);
        assert!(out.content.starts_with("<@22> "));
        assert_eq!(out.ping, vec![UserId::new(22)]);
        let ids: Vec<Value> = buttons(&out)
            .iter()
            .map(|b| b["custom_id"].clone())
            .collect();
        assert_eq!(ids, ["1ca:ch0001:0", "1cd:ch0001", "1cc:ch0001"]);
        c.status = ChallengeStatus::Expired;
        let out = challenge(&c, Lang::En);
        assert!(out.components.is_empty() && out.ping.is_empty());
        assert!(out.content.contains("expired"));
    }

    #[test]
    fn updates_always_carry_the_board_file() {
        let v = view([
            Player::Human(user("11", "Alice")),
            Player::Human(user("22", "Bob")),
        ]);
        let out = game(&v, Lang::En, MentionStyle::Mention);
        let png = &out.files.first().expect("the board renders").bytes;
        assert!(png.starts_with(b"\x89PNG"));
        let edit = json(&out.clone().into_edit());
        assert_eq!(edit["attachments"][0]["filename"], BOARD_FILE);
        let response = json(&out.clone().into_response(false));
        assert_eq!(response["attachments"][0]["filename"], BOARD_FILE);
        // The edit of a deferred answer replaces the old board with the new file only.
        let deferred = json(&out.clone().into_edit_response());
        let kept = deferred["attachments"].as_array().expect("attachments");
        assert_eq!(kept.len(), 1, "{deferred}");
        assert_eq!(
            (kept[0]["id"].as_u64(), &kept[0]["filename"]),
            (Some(0), &serde_json::json!(BOARD_FILE))
        );
        let followup = json(&out.into_full_followup());
        assert_eq!(followup["attachments"][0]["filename"], BOARD_FILE);
        assert!(followup["embeds"][0]["image"]["url"].is_string());
    }
}
