//! Inline mode: `@bot` in any chat offers a challenge; the sent message becomes an open
//! challenge and then the game. The placeholder button carries the challenger's id signed
//! with the bot's button key (HMAC-SHA256), so a modified client cannot make a challenge in
//! another user's name.

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
/// (`tgi:<id>:<tag>`, at most 4 + 20 + 1 + 32 = 57 bytes) fits Telegram's 64.
const TAG_BYTES: usize = 16;

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

    /// `<payload>:<tag>`, where `payload` starts with its kind's prefix (`tgi:`, `tgh:`).
    pub fn sign_payload(&self, payload: &str) -> String {
        let tag = self
            .mac(payload)
            .map(|m| m.finalize().into_bytes()[..TAG_BYTES].to_vec())
            .unwrap_or_default();
        let hex: String = tag.iter().map(|b| format!("{b:02x}")).collect();
        format!("{payload}:{hex}")
    }

    /// The payload of signed data (`<payload>:<tag>`, prefix included), if the tag is ours.
    pub fn verify_payload<'a>(&self, signed: &'a str) -> Option<&'a str> {
        let (payload, hex) = signed.rsplit_once(':')?;
        let tag = unhex(hex).filter(|t| t.len() == TAG_BYTES)?;
        self.mac(payload)?.verify_truncated_left(&tag).ok()?;
        Some(payload)
    }

    /// `tgi:<challenger>:<tag>`.
    pub fn sign(&self, challenger: u64) -> String {
        self.sign_payload(&format!("{INLINE_PREFIX}{challenger}"))
    }

    /// The challenger of signed data (without the `tgi:` prefix), if the tag is ours.
    pub fn verify(&self, signed: &str) -> Option<u64> {
        let signed = format!("{INLINE_PREFIX}{signed}");
        let payload = self.verify_payload(&signed)?;
        payload.strip_prefix(INLINE_PREFIX)?.parse().ok()
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
    let article = InlineQueryResultArticle::new("challenge", t!(lang, "tg-inline-title"), content)
        .description(t!(lang, "tg-inline-description"))
        .reply_markup(markup::inline_placeholder(
            ctx.button_key.sign(q.from.id.0),
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
    let challenger = user_ref(&r.from);
    open_inline_challenge(&ctx, challenger, MsgRef::Inline(id)).await;
    Ok(())
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
            present::attach(&ctx.manager, target, place.to_ref()).await;
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
    let Some(id) = ctx.button_key.verify(signed) else {
        return Err(Failure::bad_button("inline button not signed by us"));
    };
    if id == q.from.id.0 {
        return Err(Failure::Unable(t!(lang, "tg-inline-own")));
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
        let data = key.sign(u64::MAX);
        assert!(data.len() <= 64, "{data}");
        let signed = data.strip_prefix(INLINE_PREFIX).unwrap();
        assert_eq!(key.verify(signed), Some(u64::MAX));
        assert_eq!(ButtonKey::new(b"k2").verify(signed), None, "another key");
        let (_, tag) = signed.split_once(':').unwrap();
        assert_eq!(key.verify(&format!("42:{tag}")), None, "another user");
        for bad in ["42", "42:", "x:00", "42:zz", "42:0011"] {
            assert_eq!(key.verify(bad), None, "{bad}");
        }
    }
}
