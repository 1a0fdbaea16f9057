//! Inline mode: `@bot` in any chat offers a challenge; the sent message becomes an open
//! challenge and then the game. The placeholder button carries the challenger's id and the
//! time it was offered, signed with the bot's button key (HMAC-SHA256), so a modified client
//! cannot make a challenge in another user's name. The signed data is good once (issue 31,
//! item 4): the first use claims it durably (`Manager::claim_once`), whether the sent
//! message became a challenge (inline feedback) or its button was pressed, and it expires
//! with the challenge it offers. A press of used, expired or old data, or of the data on a
//! message that is not inline, opens nothing and is answered with a refusal.

use super::boards;
use super::boards::html;
use super::boards::{show_reply, Origin};
use super::command;
use super::failure::{Failure, HandlerResult};
use super::markup::{self, INLINE_PREFIX};
use super::poster::Content;
use super::refs::chat_ref;
use super::refs::MsgRef;
use super::toast::answer;
use super::{user_ref, Ctx};
use crate::i18n::Lang;
use crate::manager::{Action, ActionError, Reply, Request, Target};
use crate::model::{Platform, TimeControl, UserRef};
use crate::platform::present;
use crate::rules::{TuzdekRule, Variant};
use crate::t;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::sync::Arc;
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQuery, ChosenInlineResult, InlineQuery, InlineQueryResult, InlineQueryResultArticle,
    InlineQueryResultsButton, InlineQueryResultsButtonKind, InputMessageContent,
    InputMessageContentText, ParseMode,
};

/// Bytes of the HMAC kept in button data: 128 bits, 32 hex digits, so the data
/// (`tgh:...`) fits Telegram's 64.
const TAG_BYTES: usize = 16;
/// Bytes of the HMAC kept in an inline placeholder's data: 96 bits, 24 hex digits, so
/// `tgi:<id>:<offered>:<terms>:<tag>` fits Telegram's 64 bytes (the id and the time in base
/// 36: at most 4 + 13 + 1 + 7 + 1 + 13 + 1 + 24 = 64).
const INLINE_TAG_BYTES: usize = 12;
/// Telegram's limit on button data.
const MAX_DATA: usize = 64;
/// The tag of [`ButtonKey::sign_short`]: 64 bits.
const SHORT_TAG_BYTES: usize = 8;

/// The key that signs inline placeholder buttons.
pub struct ButtonKey(Vec<u8>);

impl ButtonKey {
    pub fn new(key: &[u8]) -> ButtonKey {
        ButtonKey(key.to_vec())
    }

    fn mac(&self, payload: &str) -> Option<Hmac<Sha256>> {
        // HMAC takes keys of any length; the error case cannot happen, and then nothing
        // verifies.
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).ok()?;
        mac.update(payload.as_bytes());
        Some(mac)
    }

    /// `<payload>:<tag>`, where `payload` starts with its kind's prefix (`tgh:`).
    #[cfg(test)]
    pub fn sign_payload(&self, payload: &str) -> String {
        self.sign_with(payload, TAG_BYTES)
    }

    fn sign_with(&self, payload: &str, bytes: usize) -> String {
        let tag = self
            .mac(payload)
            .map(|m| m.finalize().into_bytes()[..bytes].to_vec())
            .unwrap_or_default();
        let hex: String = tag.iter().map(|b| format!("{b:02x}")).collect();
        format!("{payload}:{hex}")
    }

    /// The payload of signed data (`<payload>:<tag>`, prefix included), if the tag is ours.
    pub fn verify_payload<'a>(&self, signed: &'a str) -> Option<&'a str> {
        self.verify_with(signed, TAG_BYTES)
    }

    /// `sign_payload` with a 64-bit tag, for data that needs the room (a history page
    /// button carries the key its page starts from) and guards nothing secret.
    pub fn sign_short(&self, payload: &str) -> String {
        self.sign_with(payload, SHORT_TAG_BYTES)
    }

    /// The payload of data signed by `sign_short`, if the tag is right.
    pub fn verify_short<'a>(&self, signed: &'a str) -> Option<&'a str> {
        self.verify_with(signed, SHORT_TAG_BYTES)
    }

    fn verify_with<'a>(&self, signed: &'a str, bytes: usize) -> Option<&'a str> {
        let (payload, hex) = signed.rsplit_once(':')?;
        let tag = unhex(hex).filter(|t| t.len() == bytes)?;
        self.mac(payload)?.verify_truncated_left(&tag).ok()?;
        Some(payload)
    }

    /// `tgi:<challenger>:<offered>:<terms>:<tag>` (the challenger's id and the time the
    /// challenge was offered, unix seconds, in base 36; `Terms::code`); `None` when it
    /// would not fit Telegram's 64 bytes.
    pub fn sign(&self, offer: &Offer) -> Option<String> {
        let payload = format!(
            "{INLINE_PREFIX}{}:{}:{}",
            base36(offer.challenger),
            base36(offer.offered),
            offer.terms.code()
        );
        Some(self.sign_with(&payload, INLINE_TAG_BYTES)).filter(|d| d.len() <= MAX_DATA)
    }

    /// What signed data (without the `tgi:` prefix) offers, if the tag is ours. The form
    /// before terms were offered (`tgi:<challenger>:<offered>:<tag>`, in decimal) offers
    /// the standard terms; the older one without a time is refused.
    pub fn verify(&self, signed: &str) -> Option<Offer> {
        let signed = format!("{INLINE_PREFIX}{signed}");
        let payload = self.verify_with(&signed, INLINE_TAG_BYTES)?;
        let fields: Vec<&str> = payload.strip_prefix(INLINE_PREFIX)?.split(':').collect();
        match fields[..] {
            [challenger, offered] => Some(Offer {
                challenger: challenger.parse().ok()?,
                offered: offered.parse().ok()?,
                terms: Terms::default(),
            }),
            [challenger, offered, terms] => Some(Offer {
                challenger: u64::from_str_radix(challenger, 36).ok()?,
                offered: u64::from_str_radix(offered, 36).ok()?,
                terms: Terms::from_code(terms)?,
            }),
            _ => None,
        }
    }
}

/// `n` in base 36, lower case.
fn base36(mut n: u64) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(char::from_digit((n % 36) as u32, 36).unwrap_or('0'));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
}

/// What an inline challenge is played with, as typed after the bot's name
/// (`command::inline_terms`): the standard game at the chat's time control, rated, unless
/// the query says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    pub variant: Variant,
    /// `None`: the default time control.
    pub time: Option<TimeControl>,
    pub rated: bool,
}

impl Default for Terms {
    fn default() -> Terms {
        Terms {
            variant: Variant::STANDARD,
            time: None,
            rated: true,
        }
    }
}

impl Terms {
    /// `<balls><tuzdek: s, o, n><r|u><time>`: `9sr`, `5onr3+2`, `9sruc` (time: nothing for
    /// the default, `c` for correspondence, else as typed: `0.5+2`).
    fn code(&self) -> String {
        let tuzdek = match self.variant.tuzdek_rule() {
            TuzdekRule::Standard => 's',
            TuzdekRule::Off => 'o',
            TuzdekRule::NinthAllowed => 'n',
        };
        let rated = if self.rated { 'r' } else { 'u' };
        let time = match self.time {
            None => String::new(),
            Some(TimeControl::Correspondence) => "c".into(),
            Some(time) => time.to_string(),
        };
        format!("{}{tuzdek}{rated}{time}", self.variant.balls_per_pit())
    }

    fn from_code(code: &str) -> Option<Terms> {
        let mut chars = code.chars();
        let balls = u8::try_from(chars.next()?.to_digit(10)?).ok()?;
        let tuzdek = match chars.next()? {
            's' => TuzdekRule::Standard,
            'o' => TuzdekRule::Off,
            'n' => TuzdekRule::NinthAllowed,
            _ => return None,
        };
        let rated = match chars.next()? {
            'r' => true,
            'u' => false,
            _ => return None,
        };
        let time = match chars.as_str() {
            "" => None,
            "c" => Some(TimeControl::Correspondence),
            text => Some(TimeControl::parse(text).ok()?),
        };
        Some(Terms {
            variant: Variant::new(balls, tuzdek).ok()?,
            time,
            rated,
        })
    }

    /// The terms in words, for the offer's description and message (`None`: the default
    /// terms, which the plain texts describe).
    fn text(&self, lang: Lang) -> Option<String> {
        (*self != Terms::default())
            .then(|| present::terms_text(self.variant, self.time, self.rated, lang))
    }
}

/// What an inline placeholder's signed data says: who offered the challenge, when, and on
/// what terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    pub challenger: u64,
    /// Unix seconds.
    pub offered: u64,
    pub terms: Terms,
}

impl Offer {
    /// The key that marks this offer used (`Manager::claim_once`). An offer of other terms
    /// in the same second is another offer.
    fn claim_key(&self) -> String {
        let key = format!("tgi-used:{}:{}", self.challenger, self.offered);
        match self.terms == Terms::default() {
            true => key,
            false => format!("{key}:{}", self.terms.code()),
        }
    }

    /// The result id of the inline answer that carries this offer: the time offered and
    /// the terms, so that the chosen result names the offer it sent.
    fn result_id(&self) -> String {
        format!("{}:{}", self.offered, self.terms.code())
    }

    /// The offer a chosen result names (`result_id`; a bare time from before terms).
    fn chosen(challenger: u64, result_id: &str) -> Option<Offer> {
        let (offered, terms) = match result_id.split_once(':') {
            Some((offered, code)) => (offered, Terms::from_code(code)?),
            None => (result_id, Terms::default()),
        };
        Some(Offer {
            challenger,
            offered: offered.parse().ok()?,
            terms,
        })
    }
}

fn unhex(hex: &str) -> Option<Vec<u8>> {
    if hex.len() % 2 != 0 || !hex.is_ascii() {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

/// `@bot [terms]` typed in a chat: one result, the challenge on those terms; terms that
/// cannot be read offer nothing, and a button above the results says why (it opens the
/// bot's help).
pub async fn on_inline_query(ctx: Arc<Ctx>, q: InlineQuery) -> HandlerResult {
    ctx.see(&q.from).await;
    // Whoever accepts the offer presses on a message the bot never sees, and their press
    // names only themselves: the offerer's name is kept now, when Telegram sends it.
    if let Err(error) = ctx.manager.remember_user(&user_ref(&q.from)).await {
        tracing::warn!(%error, "telegram: an inline offerer's name not kept");
    }
    let lang = ctx.lang_of(&user_ref(&q.from)).await;
    let offered = ctx.manager.clock().now();
    let answer = match command::inline_terms(&q.query) {
        Ok((variant, time, rated)) => {
            let terms = Terms {
                variant,
                time,
                rated,
            };
            let offer = Offer {
                challenger: q.from.id.0,
                offered,
                terms,
            };
            match offer_article(&ctx, &q, &offer, lang) {
                Some(article) => Ok(article),
                None => Err(t!(lang, "tg-inline-terms-too-long")),
            }
        }
        Err(error) => Err(error.text(lang)),
    };
    let request = match answer {
        Ok(article) => ctx
            .bot
            .answer_inline_query(q.id, [InlineQueryResult::Article(article)]),
        Err(why) => ctx
            .bot
            .answer_inline_query(q.id, Vec::<InlineQueryResult>::new())
            .button(InlineQueryResultsButton {
                text: clip_button(&why),
                kind: InlineQueryResultsButtonKind::StartParameter(HELP_START.into()),
            }),
    };
    request.cache_time(0).is_personal(true).await.map_err(|e| {
        Failure::Internal(anyhow::anyhow!(
            "answerInlineQuery: {}",
            ctx.poster.describe(&e)
        ))
    })?;
    Ok(())
}

/// The start parameter of the button that explains refused inline terms: `/start help`
/// answers with the help.
pub const HELP_START: &str = "help";

/// The article that sends `offer` (`None`: its data would not fit in a button).
fn offer_article(
    ctx: &Ctx,
    q: &InlineQuery,
    offer: &Offer,
    lang: Lang,
) -> Option<InlineQueryResultArticle> {
    let data = ctx.button_key.sign(offer)?;
    let name = q.from.full_name();
    let (text, description) = match offer.terms.text(lang) {
        None => (
            t!(lang, "tg-inline-text", name = name),
            t!(lang, "tg-inline-description"),
        ),
        Some(terms) => (
            t!(
                lang,
                "tg-inline-text-terms",
                name = name,
                terms = terms.clone()
            ),
            t!(lang, "tg-inline-description-terms", terms = terms),
        ),
    };
    let content = InputMessageContent::Text(
        InputMessageContentText::new(html(&text)).parse_mode(ParseMode::Html),
    );
    let title = t!(lang, "tg-inline-title");
    let article = InlineQueryResultArticle::new(offer.result_id(), title, content)
        .description(description)
        .reply_markup(markup::inline_placeholder(
            data,
            t!(lang, "tg-inline-accept"),
        ));
    Some(article)
}

/// A refusal short enough for the button above inline results (Telegram shows one line).
fn clip_button(text: &str) -> String {
    crate::render::shorten(text, 65, "…")
}

/// The user sent the inline challenge: create it and put its buttons on the message.
pub async fn on_chosen_inline(ctx: Arc<Ctx>, r: ChosenInlineResult) -> HandlerResult {
    let Some(id) = r.inline_message_id else {
        return Ok(());
    };
    ctx.see(&r.from).await;
    // The offer sent is used up here: its data is good for this message only, and a press
    // of it anywhere later (this message's button is replaced) is refused.
    let Some(offer) = Offer::chosen(r.from.id.0, &r.result_id) else {
        tracing::info!(
            result = r.result_id,
            "Telegram: a chosen result of no offer"
        );
        return Ok(());
    };
    if !claim(&ctx, &offer).await {
        return Ok(());
    }
    let challenger = user_ref(&r.from);
    open_inline_challenge(&ctx, challenger, MsgRef::Inline(id), offer.terms).await;
    Ok(())
}

/// Marks `offer` used: true the first time only (false too when the store cannot say). The
/// mark is kept at least as long as the offer is good (`expires`), however long challenges
/// are open in this deployment.
async fn claim(ctx: &Ctx, offer: &Offer) -> bool {
    match ctx
        .manager
        .claim_once_until(Platform::Telegram, &offer.claim_key(), expires(ctx, offer))
        .await
    {
        Ok(first) => first,
        Err(error) => {
            tracing::warn!(%error, "Telegram: cannot claim an inline offer");
            false
        }
    }
}

/// The challenger of an offer pressed by someone else: named as this process last saw
/// them, else as Telegram named them when they made the offer (kept by the manager, so a
/// restart or another process knows it too), never by their bare id unless both are gone.
async fn offerer(ctx: &Ctx, id: u64) -> UserRef {
    let key = id.to_string();
    if let Some(name) = ctx.people.name(id) {
        return UserRef::new(Platform::Telegram, key, name);
    }
    match ctx.manager.known_user(Platform::Telegram, &key).await {
        Some(known) => known,
        None => {
            tracing::warn!(
                challenger = id,
                "telegram: an inline offerer's name is unknown"
            );
            UserRef::new(Platform::Telegram, key.clone(), key)
        }
    }
}

/// When `offer` stops being good: when the challenge it offers would have expired.
fn expires(ctx: &Ctx, offer: &Offer) -> u64 {
    let open_for = ctx.manager.config().limits.challenge_expiry_secs;
    offer.offered.saturating_add(open_for)
}

async fn open_inline_challenge(
    ctx: &Ctx,
    challenger: UserRef,
    place: MsgRef,
    terms: Terms,
) -> Option<String> {
    if let MsgRef::Inline(id) = &place {
        if !ctx.claim_inline(id).await {
            return None;
        }
    }
    let lang = ctx.lang_of(&challenger).await;
    let req = Request {
        actor: challenger,
        chat: chat_ref(&place),
        action: Action::Challenge {
            opponent: None,
            variant: terms.variant,
            rated: terms.rated,
            time: terms.time,
        },
    };
    match ctx.manager.act(req).await {
        Ok(Reply::Challenge(cv)) => {
            let target = Target::Challenge(cv.id.clone());
            present::attach(&ctx.manager, target, place.to_ref(), None).await;
            ctx.poster
                .edit(place, boards::challenge_content(&cv, lang), 0);
            Some(cv.id)
        }
        Ok(_) => None,
        Err(err) => {
            let text = html(&present::error_text(&err, lang));
            ctx.poster.edit(
                place,
                Content::Text {
                    text,
                    keyboard: None,
                },
                0,
            );
            None
        }
    }
}

/// A press on an inline challenge Telegram never reported as chosen (inline feedback is
/// off): create the challenge now and accept it for the presser.
pub async fn inline_placeholder_press(
    ctx: &Arc<Ctx>,
    q: &CallbackQuery,
    signed: &str,
    place: MsgRef,
    lang: Lang,
) -> HandlerResult {
    // The challenger's id is signed: data forged in someone else's name is refused.
    let Some(offer) = ctx.button_key.verify(signed) else {
        return Err(Failure::bad_button("inline button not signed by us"));
    };
    let id = offer.challenger;
    if id == q.from.id.0 {
        return Err(Failure::Unable(t!(lang, "tg-inline-own")));
    }
    // Good once, on an inline message, while the challenge it offers would be open.
    let inline = matches!(place, MsgRef::Inline(_));
    if !inline || ctx.manager.clock().now() >= expires(ctx, &offer) || !claim(ctx, &offer).await {
        tracing::info!(challenger = id, inline, "Telegram: inline offer refused");
        return Err(Failure::Unable(t!(lang, "tg-inline-used")));
    }
    let challenger = offerer(ctx, id).await;
    let opened = open_inline_challenge(ctx, challenger, place.clone(), offer.terms).await;
    let Some(challenge) = opened else {
        return Err(Failure::alert(ActionError::ChallengeClosed));
    };
    let req = Request {
        actor: user_ref(&q.from),
        chat: chat_ref(&place),
        action: Action::AcceptChallenge { challenge },
    };
    let reply = ctx.manager.act(req).await.map_err(Failure::alert)?;
    answer(ctx, q, String::new(), false).await;
    let origin = Origin {
        place: Some(place),
        chat: None,
        reply_to: None,
        repost: false,
        adopt: false,
        asker: None,
    };
    show_reply(ctx, reply, &origin, lang).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(terms: Terms) -> Offer {
        Offer {
            challenger: u64::MAX,
            offered: 9_999_999_999,
            terms,
        }
    }

    #[test]
    fn signed_offers_verify_and_forgeries_do_not() {
        let key = ButtonKey::new(b"k1");
        let data = key.sign(&offer(Terms::default())).expect("fits");
        assert!(data.len() <= MAX_DATA, "{data}");
        let signed = data.strip_prefix(INLINE_PREFIX).unwrap();
        assert_eq!(key.verify(signed), Some(offer(Terms::default())));
        assert_eq!(ButtonKey::new(b"k2").verify(signed), None, "another key");
        let tag = signed.rsplit(':').next().unwrap();
        let terms = Terms::default().code();
        let forged = format!("{}:{}:{terms}:{tag}", base36(42), base36(9_999_999_999));
        assert_eq!(key.verify(&forged), None, "another user");
        let later = format!("{}:1:{terms}:{tag}", base36(u64::MAX));
        assert_eq!(key.verify(&later), None, "another time");
        let unrated = format!("{}:{}:9su:{tag}", base36(u64::MAX), base36(9_999_999_999));
        assert_eq!(key.verify(&unrated), None, "other terms");
        for bad in [
            "42",
            "42:",
            "x:00",
            "42:zz",
            "42:0011",
            "42:1:",
            "a:b:c:d:00",
        ] {
            assert_eq!(key.verify(bad), None, "{bad}");
        }
        // The form before terms (decimal, no terms) offers the standard terms; the one
        // before that (no time, a 128-bit tag) opens nothing.
        let decimal = key.sign_with("tgi:42:1700000000", INLINE_TAG_BYTES);
        let before = Offer {
            challenger: 42,
            offered: 1_700_000_000,
            terms: Terms::default(),
        };
        assert_eq!(
            key.verify(decimal.strip_prefix(INLINE_PREFIX).unwrap()),
            Some(before)
        );
        let old = key.sign_payload("tgi:42");
        assert_eq!(key.verify(old.strip_prefix(INLINE_PREFIX).unwrap()), None);
    }

    #[test]
    fn every_variant_and_time_control_fits_in_a_button_and_reads_back() {
        let key = ButtonKey::new(b"k1");
        let times = [
            "1+0",
            "3+2",
            "0.5+2",
            "0.1+0",
            "179.5+60",
            "180+60",
            "correspondence",
            "1 day",
            "14 days",
        ];
        for balls in Variant::BALLS_PER_PIT {
            for rule in [
                TuzdekRule::Standard,
                TuzdekRule::Off,
                TuzdekRule::NinthAllowed,
            ] {
                let variant = Variant::new(balls, rule).unwrap();
                let controls = times.iter().map(|t| Some(TimeControl::parse(t).unwrap()));
                for time in controls.chain([None]) {
                    for rated in [true, false] {
                        let terms = Terms {
                            variant,
                            time,
                            rated,
                        };
                        assert_eq!(Terms::from_code(&terms.code()), Some(terms));
                        let data = key.sign(&offer(terms)).expect("fits in 64 bytes");
                        let signed = data.strip_prefix(INLINE_PREFIX).unwrap();
                        assert_eq!(key.verify(signed), Some(offer(terms)), "{data}");
                        let chosen = Offer::chosen(u64::MAX, &offer(terms).result_id());
                        assert_eq!(chosen, Some(offer(terms)));
                    }
                }
            }
        }
        assert_eq!(
            Terms::from_code("9sr2d").and_then(|t| t.time),
            Some(TimeControl::Days(2))
        );
        for bad in [
            "", "9", "9s", "9xr", "4sr", "9sr3+", "9srx", "9sr0+0", "9sr4d",
        ] {
            assert_eq!(Terms::from_code(bad), None, "{bad}");
        }
        // A result id from before terms names the standard terms.
        let bare = Offer::chosen(7, "1700000000").expect("an offer");
        assert_eq!(bare.terms, Terms::default());
        assert_eq!(Offer::chosen(7, "soon"), None);
    }

    #[test]
    fn offers_of_other_terms_are_claimed_apart() {
        let standard = offer(Terms::default());
        assert_eq!(
            standard.claim_key(),
            format!("tgi-used:{}:9999999999", u64::MAX)
        );
        let five = Terms {
            variant: Variant::new(5, TuzdekRule::Standard).unwrap(),
            ..Terms::default()
        };
        assert_ne!(offer(five).claim_key(), standard.claim_key());
    }

    #[test]
    fn a_refusal_is_clipped_to_one_line() {
        assert_eq!(clip_button("short"), "short");
        let long = "я".repeat(100);
        let clipped = clip_button(&long);
        assert_eq!(clipped.chars().count(), 65);
        assert!(clipped.ends_with('…'));
    }
}
