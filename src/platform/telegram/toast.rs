//! Answering a button press (answerCallbackQuery): every press is answered, with a short
//! notice, an alert, or nothing but the spinner stopping.

use super::Ctx;
use teloxide::prelude::*;
use teloxide::types::CallbackQuery;

/// answerCallbackQuery: a toast, or an alert the user must close. Telegram allows 200
/// characters.
pub async fn answer(ctx: &Ctx, q: &CallbackQuery, text: String, alert: bool) {
    let mut req = ctx.bot.answer_callback_query(q.id.clone());
    if !text.is_empty() {
        let text: String = text.chars().take(200).collect();
        req = req.text(text).show_alert(alert);
    }
    if let Err(err) = req.await {
        tracing::info!(error = ctx.poster.describe(&err), "callback not answered");
    }
}

/// answerCallbackQuery with a `t.me/<bot>?start=...` link: the presser's app opens their
/// private chat with the bot (with Start, the first time), where their news will come.
pub async fn answer_with_link(ctx: &Ctx, q: &CallbackQuery, text: String, url: String) {
    let text: String = text.chars().take(200).collect();
    let url = match url::Url::parse(&url) {
        Ok(url) => url,
        Err(error) => {
            tracing::warn!(%error, "a start link that does not parse");
            return answer(ctx, q, text, false).await;
        }
    };
    let req = ctx
        .bot
        .answer_callback_query(q.id.clone())
        .text(text)
        .url(url);
    if let Err(err) = req.await {
        tracing::info!(error = ctx.poster.describe(&err), "callback not answered");
    }
}
