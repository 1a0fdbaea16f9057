//! Discord's autocomplete: suggestions while a player types an option (only `time:` has
//! them), answered at once and acting on nothing.

use super::commands;
use crate::i18n::Lang;
use serenity::all::{
    AutocompleteChoice, CommandInteraction, CreateAutocompleteResponse, CreateInteractionResponse,
    Http,
};

/// Suggestions while a player types an option with autocomplete (only `time:`), in their
/// client's language: answered at once, as Discord wants within 3 s; nothing is acted on.
pub(super) async fn suggest(http: &Http, typing: &CommandInteraction) {
    let Some(focused) = typing.data.autocomplete().filter(|o| o.name == "time") else {
        return;
    };
    let lang = Lang::from_locale(Some(typing.locale.as_str()));
    let choices = commands::time_suggestions(focused.value, lang)
        .into_iter()
        .map(|(name, value)| AutocompleteChoice::new(name, value))
        .collect();
    let response = CreateInteractionResponse::Autocomplete(
        CreateAutocompleteResponse::new().set_choices(choices),
    );
    if let Err(error) = typing.create_response(http, response).await {
        tracing::warn!(%error, "Discord: time suggestions not sent");
    }
}
