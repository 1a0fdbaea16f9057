//! Serving updates: long polling or a webhook, and the update tree (commands, button
//! presses, inline queries, chosen inline results), each handler guarded against panics and
//! its failure answered in one place (failure.rs).

use super::config::Checked;
use super::failure::{self, Failure, HandlerResult};
use super::guard::catch_panic;
use super::poster::scrub;
use super::{callbacks, commands, inline, webhook, Ctx};
use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use teloxide::dispatching::{UpdateFilterExt, UpdateHandler};
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChosenInlineResult, InlineQuery};
use teloxide::update_listeners::Polling;

/// What an endpoint returns: every failure is answered there, so none reaches the
/// dispatcher.
type Served = Result<(), Infallible>;

/// Serves updates until Ctrl-C, by long polling or by webhook.
pub async fn dispatch(ctx: Arc<Ctx>, checked: Checked, token: String) -> anyhow::Result<()> {
    let bot = ctx.bot.clone();
    let poll_timeout = Duration::from_secs(ctx.config.poll_timeout_secs);
    let mut dispatcher = Dispatcher::builder(bot.clone(), schema())
        .dependencies(dptree::deps![ctx])
        .default_handler(|_| async {})
        .enable_ctrlc_handler()
        .build();
    match checked.webhook {
        None => {
            let listener = Polling::builder(bot)
                .timeout(poll_timeout)
                .delete_webhook()
                .await
                .build();
            dispatcher
                .dispatch_with_listener(listener, listener_errors(token.clone()))
                .await;
        }
        Some(w) => {
            // Bound before anything else: a taken port is a clear start-up error.
            let tcp = tokio::net::TcpListener::bind(w.listen)
                .await
                .map_err(|err| {
                    anyhow::anyhow!(
                        "cannot listen on telegram.webhook.listen {}: {err}",
                        w.listen
                    )
                })?;
            let listener = webhook::start(&bot, &w, tcp, checked.token.expose()).await?;
            dispatcher
                .dispatch_with_listener(listener, listener_errors(token.clone()))
                .await;
        }
    }
    Ok(())
}

/// Logs update-listener errors without the token (network errors carry the URL).
fn listener_errors<E: std::fmt::Display + Send + 'static>(
    token: String,
) -> Arc<impl Fn(E) -> std::future::Ready<()> + Send + Sync> {
    Arc::new(move |err: E| {
        let error = scrub(&err.to_string(), &token);
        tracing::warn!(error, "telegram: fetching updates failed");
        std::future::ready(())
    })
}

fn schema() -> UpdateHandler<Infallible> {
    dptree::entry()
        .branch(Update::filter_message().endpoint(message))
        .branch(Update::filter_callback_query().endpoint(callback))
        .branch(Update::filter_inline_query().endpoint(inline_query))
        .branch(Update::filter_chosen_inline_result().endpoint(chosen_inline))
}

// Each endpoint runs its handler with panics caught, and hands a failure (a panic among
// them) to the one function that answers it for that kind of update: a bug in one update is
// logged and answered with a generic error, and the bot goes on serving everyone else.

/// Runs a handler; a panic is a failure like any other.
async fn guarded(handler: impl Future<Output = HandlerResult>) -> HandlerResult {
    catch_panic(handler)
        .await
        .unwrap_or_else(|panic| Err(Failure::Panicked(panic)))
}

async fn message(ctx: Arc<Ctx>, msg: Message) -> Served {
    if let Err(failure) = guarded(commands::on_message(ctx.clone(), msg.clone())).await {
        failure::message_failed(&ctx, &msg, failure).await;
    }
    Ok(())
}

async fn callback(ctx: Arc<Ctx>, q: CallbackQuery) -> Served {
    if let Err(failure) = guarded(callbacks::on_callback(ctx.clone(), q.clone())).await {
        failure::press_failed(&ctx, &q, failure).await;
    }
    Ok(())
}

async fn inline_query(ctx: Arc<Ctx>, q: InlineQuery) -> Served {
    let user = q.from.id.0;
    if let Err(failure) = guarded(inline::on_inline_query(ctx.clone(), q)).await {
        failure::inline_failed(&ctx, "inline query", user, failure);
    }
    Ok(())
}

async fn chosen_inline(ctx: Arc<Ctx>, r: ChosenInlineResult) -> Served {
    let user = r.from.id.0;
    if let Err(failure) = guarded(inline::on_chosen_inline(ctx.clone(), r)).await {
        failure::inline_failed(&ctx, "chosen inline result", user, failure);
    }
    Ok(())
}
