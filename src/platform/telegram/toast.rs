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
