//! Answering one interaction, once: directly while it is fresh (within Discord's 3 s), or,
//! once it has been deferred because the answer was late (`guard.rs`), by editing the
//! deferred response (PATCH /webhooks/{app}/{token}/messages/@original) or by a follow-up.

use super::guard::Guarded;
use super::messages::{self, Outgoing};
use crate::i18n::Lang;
use crate::t;
use serenity::all::{
    ChannelId, CreateInteractionResponse, CreateInteractionResponseMessage,
    EditInteractionResponse, Http, InteractionId,
};
use serenity::builder::Builder;
use std::time::Duration;

/// Where an interaction came from and how to answer it. Every answer goes through here, so
/// the interaction is answered once: directly while it is fresh, or, once it has been
/// deferred (see `guard.rs`), by editing the deferred response or by a follow-up.
pub(super) struct Origin<'a> {
    http: &'a Http,
    id: InteractionId,
    token: &'a str,
    channel: ChannelId,
    /// How to defer if the answer is late.
    deferral: Deferral,
    /// The language of the interaction's locale, for the error text after a panic.
    lang: Lang,
    stage: tokio::sync::Mutex<Stage>,
}

/// How far the answer to an interaction has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Open,
    Deferred(Deferral),
    Answered,
}

/// The deferred response sent when the answer is late.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Deferral {
    /// DEFERRED_UPDATE_MESSAGE (6), for a button: the pressed message is edited later.
    Update,
    /// DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (5), for a slash command; ephemeral when its
    /// answer will be.
    Message { ephemeral: bool },
}

/// How sending an interaction response went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sent {
    Ok,
    /// Discord no longer knows the interaction (10062): nothing was taken.
    Expired,
    /// "Already acknowledged" (40060): an earlier try whose reply was lost was taken.
    Taken,
    Failed,
}

/// Pauses before each further try at a public answer (a board, a challenge) that failed
/// even after the REST gate's own retries. Such an answer shows something already stored;
/// without it nobody would see the game. Past Discord's 3 s another try of the response
/// is refused as "Unknown interaction" or "already acknowledged", which says what to do.
const PUBLIC_RETRY_PAUSES: [Duration; 4] = [
    Duration::from_millis(500),
    Duration::from_secs(1),
    Duration::from_secs(2),
    Duration::from_secs(4),
];

/// Runs `attempt` once and then once after each pause while it returns `None`.
async fn patiently<T, F, Fut>(what: &str, mut attempt: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    if let Some(done) = attempt().await {
        return Some(done);
    }
    for pause in PUBLIC_RETRY_PAUSES {
        tracing::info!(
            what,
            after_ms = pause.as_millis() as u64,
            "Discord: will try again"
        );
        tokio::time::sleep(pause).await;
        if let Some(done) = attempt().await {
            return Some(done);
        }
    }
    tracing::warn!(what, "Discord: gave up; /board shows the game");
    None
}

/// Discord's JSON error code of a refused request.
fn error_code(error: &serenity::Error) -> Option<isize> {
    use serenity::all::HttpError;
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => {
            Some(response.error.code)
        }
        _ => None,
    }
}

const UNKNOWN_INTERACTION: isize = 10062;
const ALREADY_ACKNOWLEDGED: isize = 40060;

/// What an answer is.
enum Answer {
    /// A message only the user who asked sees (a refusal, a lookup, a file for them).
    Ephemeral(Outgoing),
    /// The pressed message, redrawn.
    Update(Outgoing),
    /// A new public message.
    Post(Outgoing),
}

impl<'a> Origin<'a> {
    pub(super) fn new(
        http: &'a Http,
        id: InteractionId,
        token: &'a str,
        channel: ChannelId,
        deferral: Deferral,
        lang: Lang,
    ) -> Origin<'a> {
        Origin {
            http,
            id,
            token,
            channel,
            deferral,
            lang,
            stage: tokio::sync::Mutex::new(Stage::Open),
        }
    }

    async fn send(&self, response: CreateInteractionResponse) -> Sent {
        match response.execute(self.http, (self.id, self.token)).await {
            Ok(()) => Sent::Ok,
            Err(error) => {
                tracing::warn!(%error, "Discord: interaction answer failed");
                match error_code(&error) {
                    Some(UNKNOWN_INTERACTION) => Sent::Expired,
                    Some(ALREADY_ACKNOWLEDGED) => Sent::Taken,
                    _ => Sent::Failed,
                }
            }
        }
    }

    /// A new public message posted in the channel instead of an answer Discord refused as
    /// too late: the game or challenge exists (it was stored first), and without this
    /// nobody would see it. Only after "Unknown interaction" (10062), which says no answer
    /// was taken, so it does not double an answer; a post tried again after a 5xx that
    /// Discord had in fact carried out would appear twice, the lesser harm than none.
    async fn post_in_channel(&self, out: Outgoing) -> Option<Option<u64>> {
        patiently("the late answer in the channel", || async {
            match self
                .channel
                .send_message(self.http, out.clone().into_message())
                .await
            {
                Ok(message) => {
                    tracing::info!(channel = %self.channel, "Discord: late answer posted in the channel");
                    Some(Some(message.id.get()))
                }
                Err(error) => {
                    tracing::warn!(%error, "Discord: cannot post the late answer in the channel");
                    None
                }
            }
        })
        .await
    }

    /// The id of the message a public answer made. Asked again while the request fails:
    /// without the id the game's later moves would not reach the message.
    async fn read_back(&self) -> Option<Option<u64>> {
        let found = patiently("the answer's message id", || async {
            match self
                .http
                .get_original_interaction_response(self.token)
                .await
            {
                Ok(message) => Some(message.id.get()),
                Err(error) => {
                    tracing::warn!(%error, "Discord: cannot read back the answer's message id");
                    None
                }
            }
        })
        .await;
        // The answer is out even when its id stays unknown.
        Some(found)
    }

    pub(super) fn channel(&self) -> ChannelId {
        self.channel
    }
}

impl Guarded for Origin<'_> {
    /// Sends the deferred response unless the interaction is answered already.
    async fn defer(&self) {
        let mut stage = self.stage.lock().await;
        if *stage != Stage::Open {
            return;
        }
        let response = match self.deferral {
            Deferral::Update => CreateInteractionResponse::Acknowledge,
            Deferral::Message { ephemeral } => CreateInteractionResponse::Defer(
                CreateInteractionResponseMessage::new().ephemeral(ephemeral),
            ),
        };
        tracing::info!(deferral = ?self.deferral, "Discord: the answer is late; deferred");
        if matches!(self.send(response).await, Sent::Ok | Sent::Taken) {
            *stage = Stage::Deferred(self.deferral);
        }
    }

    /// After a panic: tells the user, unless they have their answer.
    async fn fail(&self) {
        if *self.stage.lock().await != Stage::Answered {
            self.ephemeral(t!(self.lang, "discord-internal-error"))
                .await;
        }
    }
}

impl Origin<'_> {
    /// Answers; `None` when that failed, else the id of a new message if there is one.
    async fn answer(&self, answer: Answer) -> Option<Option<u64>> {
        let mut stage = self.stage.lock().await;
        let result = match *stage {
            Stage::Open => self.answer_fresh(answer).await,
            Stage::Deferred(deferral) => self.answer_deferred(deferral, answer).await,
            // A second answer (after a panic, say) can only be a follow-up.
            Stage::Answered => self.followup_answer(answer).await,
        };
        if result.is_some() {
            *stage = Stage::Answered;
        }
        result
    }

    /// The answer as the interaction's response. `Some(id)` when it went out (`id` for a
    /// new message).
    async fn answer_fresh(&self, answer: Answer) -> Option<Option<u64>> {
        let (response, post) = match answer {
            Answer::Ephemeral(out) => (
                CreateInteractionResponse::Message(out.into_response(true)),
                None,
            ),
            Answer::Update(out) => (
                CreateInteractionResponse::UpdateMessage(out.into_response(false)),
                None,
            ),
            Answer::Post(out) => (
                CreateInteractionResponse::Message(out.clone().into_response(false)),
                Some(out),
            ),
        };
        let Some(post) = post else {
            let sent = self.send(response).await;
            return matches!(sent, Sent::Ok | Sent::Taken).then_some(None);
        };
        // A public answer is tried until Discord says where it stands: taken (now or by
        // an earlier try) or too late.
        let expired = patiently("the answer", || async {
            match self.send(response.clone()).await {
                Sent::Failed => None,
                sent => Some(sent == Sent::Expired),
            }
        })
        .await?;
        if expired {
            self.post_in_channel(post).await
        } else {
            self.read_back().await
        }
    }

    /// The answer after a deferral: the deferred response edited into it where it has the
    /// right form, else a follow-up (a public "thinking" message that is to become an
    /// ephemeral refusal is deleted first: Discord cannot make it ephemeral).
    async fn answer_deferred(&self, deferral: Deferral, answer: Answer) -> Option<Option<u64>> {
        match (deferral, answer) {
            (Deferral::Update, Answer::Update(out)) => {
                self.edit_original(out.into_edit_response()).await
            }
            // The deferred "thinking" message is the only place this post can appear.
            (Deferral::Message { ephemeral: false }, Answer::Post(out)) => {
                patiently("the deferred answer", || {
                    self.edit_original(out.clone().into_edit_response())
                })
                .await
            }
            (Deferral::Message { ephemeral: true }, Answer::Ephemeral(out)) => {
                self.edit_original(out.into_edit_response()).await
            }
            (Deferral::Message { ephemeral: false }, answer @ Answer::Ephemeral(_)) => {
                if let Err(error) = self
                    .http
                    .delete_original_interaction_response(self.token)
                    .await
                {
                    tracing::warn!(%error, "Discord: cannot delete the deferred answer");
                }
                self.followup_answer(answer).await
            }
            (_, answer) => self.followup_answer(answer).await,
        }
    }

    async fn edit_original(&self, edit: EditInteractionResponse) -> Option<Option<u64>> {
        match edit.execute(self.http, self.token).await {
            Ok(message) => Some(Some(message.id.get())),
            Err(error) => {
                tracing::warn!(%error, "Discord: cannot edit the deferred answer");
                None
            }
        }
    }

    async fn followup_answer(&self, answer: Answer) -> Option<Option<u64>> {
        let followup = match answer {
            Answer::Ephemeral(out) => out.into_full_followup().ephemeral(true),
            Answer::Update(out) | Answer::Post(out) => out.into_full_followup(),
        };
        match followup.execute(self.http, (None, self.token)).await {
            Ok(message) => Some(Some(message.id.get())),
            Err(error) => {
                tracing::warn!(%error, "Discord: follow-up failed");
                None
            }
        }
    }

    /// Answers with LAUNCH_ACTIVITY (12): Discord opens the application's Activity for the
    /// user. Only a fresh interaction can be answered so: false once it was deferred, or
    /// when Discord refused.
    pub(super) async fn launch_activity(&self) -> bool {
        let mut stage = self.stage.lock().await;
        if *stage != Stage::Open {
            return false;
        }
        let sent = self.send(CreateInteractionResponse::LaunchActivity).await;
        let launched = matches!(sent, Sent::Ok | Sent::Taken);
        if launched {
            *stage = Stage::Answered;
        }
        launched
    }

    pub(super) async fn ephemeral(&self, text: String) {
        self.answer(Answer::Ephemeral(messages::text(text))).await;
    }

    /// Answers with a whole message (files, buttons) only the user who asked sees.
    pub(super) async fn private(&self, out: Outgoing) {
        self.answer(Answer::Ephemeral(out)).await;
    }

    /// Redraws the pressed message (after a deferral, by editing it); false when that failed.
    pub(super) async fn update(&self, out: Outgoing) -> bool {
        self.answer(Answer::Update(out)).await.is_some()
    }

    /// Posts a new public message as the answer and returns its id.
    pub(super) async fn post(&self, out: Outgoing) -> Option<u64> {
        self.answer(Answer::Post(out)).await.flatten()
    }

    /// A message after the answer (the turn ping).
    pub(super) async fn followup(&self, out: Outgoing) {
        if let Err(error) = out
            .into_followup()
            .execute(self.http, (None, self.token))
            .await
        {
            tracing::warn!(%error, "Discord: follow-up failed");
        }
    }
}
