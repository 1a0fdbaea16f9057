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
use super::failure::{Failure, HandlerResult};
use super::markup::{self, INLINE_PREFIX};
use super::poster::Content;
use super::refs::chat_ref;
use super::refs::MsgRef;
use super::toast::answer;
use super::{user_ref, Ctx};
use crate::i18n::Lang;
use crate::manager::{Action, ActionError, Reply, Request, Target};
use crate::model::{Platform, UserRef};
use crate::platform::present;
use crate::rules::Variant;
use crate::t;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::sync::Arc;
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQuery, ChosenInlineResult, InlineQuery, InlineQueryResult, InlineQueryResultArticle,
    InputMessageContent, InputMessageContentText, ParseMode,
};

/// Bytes of the HMAC kept in button data: 128 bits, 32 hex digits, so the data
/// (`tgh:...`) fits Telegram's 64.
const TAG_BYTES: usize = 16;
/// Bytes of the HMAC kept in an inline placeholder's data: 96 bits, 24 hex digits, so
/// `tgi:<id>:<offered>:<tag>` (at most 4 + 20 + 1 + 10 + 1 + 24 = 60 bytes) fits.
const INLINE_TAG_BYTES: usize = 12;
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

    /// `tgi:<challenger>:<offered>:<tag>`: `offered` is when the challenge was offered
    /// (unix seconds).
    pub fn sign(&self, challenger: u64, offered: u64) -> String {
        self.sign_with(
            &format!("{INLINE_PREFIX}{challenger}:{offered}"),
            INLINE_TAG_BYTES,
        )
    }

    /// The challenger and the time offered of signed data (without the `tgi:` prefix), if
    /// the tag is ours. Data of the old form (`tgi:<challenger>:<tag>`, no time) is not.
    pub fn verify(&self, signed: &str) -> Option<Offer> {
        let signed = format!("{INLINE_PREFIX}{signed}");
        let payload = self.verify_with(&signed, INLINE_TAG_BYTES)?;
        let (challenger, offered) = payload.strip_prefix(INLINE_PREFIX)?.split_once(':')?;
        Some(Offer {
            challenger: challenger.parse().ok()?,
            offered: offered.parse().ok()?,
        })
    }
}

/// What an inline placeholder's signed data says: who offered the challenge, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    pub challenger: u64,
    /// Unix seconds.
    pub offered: u64,
}

impl Offer {
    /// The key that marks this offer used (`Manager::claim_once`).
    fn claim_key(&self) -> String {
        format!("tgi-used:{}:{}", self.challenger, self.offered)
    }

    /// The result id of the inline answer that carries this offer: the time offered, so
    /// that the chosen result names the offer it sent.
    fn result_id(&self) -> String {
        self.offered.to_string()
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

pub async fn on_inline_query(ctx: Arc<Ctx>, q: InlineQuery) -> HandlerResult {
    ctx.see(&q.from).await;
    let lang = ctx.lang_of(&user_ref(&q.from)).await;
    let text = t!(lang, "tg-inline-text", name = q.from.full_name());
    let content = InputMessageContent::Text(
        InputMessageContentText::new(html(&text)).parse_mode(ParseMode::Html),
    );
    let offer = Offer {
        challenger: q.from.id.0,
        offered: ctx.manager.clock().now(),
    };
    let title = t!(lang, "tg-inline-title");
    let article = InlineQueryResultArticle::new(offer.result_id(), title, content)
        .description(t!(lang, "tg-inline-description"))
        .reply_markup(markup::inline_placeholder(
            ctx.button_key.sign(offer.challenger, offer.offered),
            t!(lang, "tg-inline-accept"),
        ));
    ctx.bot
        .answer_inline_query(q.id, [InlineQueryResult::Article(article)])
        .cache_time(0)
        .is_personal(true)
        .await
        .map_err(|e| {
            Failure::Internal(anyhow::anyhow!(
                "answerInlineQuery: {}",
                ctx.poster.describe(&e)
            ))
        })?;
    Ok(())
}

/// The user sent the inline challenge: create it and put its buttons on the message.
pub async fn on_chosen_inline(ctx: Arc<Ctx>, r: ChosenInlineResult) -> HandlerResult {
    let Some(id) = r.inline_message_id else {
        return Ok(());
    };
    ctx.see(&r.from).await;
    // The offer sent is used up here: its data is good for this message only, and a press
    // of it anywhere later (this message's button is replaced) is refused.
    if let Ok(offered) = r.result_id.parse() {
        let offer = Offer {
            challenger: r.from.id.0,
            offered,
        };
        if !claim(&ctx, &offer).await {
            return Ok(());
        }
    }
    let challenger = user_ref(&r.from);
    open_inline_challenge(&ctx, challenger, MsgRef::Inline(id)).await;
    Ok(())
}

/// Marks `offer` used: true the first time only (false too when the store cannot say).
async fn claim(ctx: &Ctx, offer: &Offer) -> bool {
    match ctx
        .manager
        .claim_once(Platform::Telegram, &offer.claim_key())
        .await
    {
        Ok(first) => first,
        Err(error) => {
            tracing::warn!(%error, "Telegram: cannot claim an inline offer");
            false
        }
    }
}

async fn open_inline_challenge(ctx: &Ctx, challenger: UserRef, place: MsgRef) -> Option<String> {
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
            variant: Variant::default(),
            rated: true,
            time: None,
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
    let expires = offer
        .offered
        .saturating_add(ctx.manager.config().limits.challenge_expiry_secs);
    let inline = matches!(place, MsgRef::Inline(_));
    if !inline || ctx.manager.clock().now() >= expires || !claim(ctx, &offer).await {
        tracing::info!(challenger = id, inline, "Telegram: inline offer refused");
        return Err(Failure::Unable(t!(lang, "tg-inline-used")));
    }
    let name = ctx.people.name(id).unwrap_or_else(|| id.to_string());
    let challenger = UserRef::new(Platform::Telegram, id.to_string(), name);
    let Some(challenge) = open_inline_challenge(ctx, challenger, place.clone()).await else {
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

    #[test]
    fn signed_challenger_ids_verify_and_forgeries_do_not() {
        let key = ButtonKey::new(b"k1");
        let data = key.sign(u64::MAX, 9_999_999_999);
        assert!(data.len() <= 64, "{data}");
        let signed = data.strip_prefix(INLINE_PREFIX).unwrap();
        let offer = Offer {
            challenger: u64::MAX,
            offered: 9_999_999_999,
        };
        assert_eq!(key.verify(signed), Some(offer));
        assert_eq!(ButtonKey::new(b"k2").verify(signed), None, "another key");
        let tag = signed.rsplit(':').next().unwrap();
        assert_eq!(
            key.verify(&format!("42:9999999999:{tag}")),
            None,
            "another user"
        );
        let later = format!("{}:1:{tag}", u64::MAX);
        assert_eq!(key.verify(&later), None, "another time");
        for bad in ["42", "42:", "x:00", "42:zz", "42:0011", "42:1:"] {
            assert_eq!(key.verify(bad), None, "{bad}");
        }
        // The old form (no time, a 128-bit tag) no longer opens anything.
        let old = key.sign_payload("tgi:42");
        assert_eq!(key.verify(old.strip_prefix(INLINE_PREFIX).unwrap()), None);
    }
}
