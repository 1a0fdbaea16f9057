//! The Discord Activity's sign-in (issue 50, docs/security.md): the code the Embedded App
//! SDK's `authorize` gave the page is traded at Discord's `POST /api/v10/oauth2/token`
//! (form-encoded, with the application's id and secret, `grant_type=authorization_code`)
//! for an access token, and `GET /api/v10/users/@me` with that token names the user. Only a
//! user Discord names this way is signed in; the access token goes back to the page for the
//! SDK's `authenticate`, and is kept nowhere.
//!
//! Every call has a deadline; errors say what failed and never show the client secret, the
//! code or a token.

use crate::model::{Platform, UserRef};
use crate::secret::Secret;
use std::time::Duration;

/// How the server reaches Discord for the Activity: checked settings (`[discord]`'s
/// `application_id`, `client_secret`, `proxy_url`, `request_timeout_secs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscordSignIn {
    /// The application's id, Discord's OAuth2 client id.
    pub client_id: u64,
    pub client_secret: Secret,
    /// `https://discord.com`, or the API proxy that replaces it (tests: the fake Discord);
    /// without a trailing slash.
    pub api_base: String,
    /// How long each call to Discord may take.
    pub timeout: Duration,
}

/// The longest code taken from a page (Discord's are about 30 characters).
const MAX_CODE: usize = 256;
/// The most of Discord's answer read (a token or a user is far smaller).
const MAX_ANSWER: usize = 64 * 1024;

/// Why a sign-in failed. No variant holds the secret, the code or a token.
#[derive(Debug, thiserror::Error)]
pub enum DiscordSignInError {
    /// The page sent no code, or not one Discord could have made.
    #[error("the page sent no valid code")]
    BadCode,
    /// Discord refused the code (unknown, used, expired, or for another application):
    /// OAuth2's error name, such as `invalid_grant`.
    #[error("Discord refused the code ({status}: {error})")]
    Refused { status: u16, error: String },
    /// Discord refused our client id and secret: the configuration is wrong.
    #[error("Discord refused the application's credentials (invalid_client): check discord.application_id and discord.client_secret")]
    Client,
    /// Discord refused the access token it had just given (`users/@me`).
    #[error("Discord refused the access token at users/@me ({0})")]
    Token(u16),
    /// Discord answered with a server error or a limit.
    #[error("Discord answered {status} to {call}")]
    Upstream { status: u16, call: &'static str },
    #[error("Discord did not answer {0} in time")]
    Timeout(&'static str),
    #[error("Discord could not be reached for {call}: {reason}")]
    Unreachable { call: &'static str, reason: String },
    #[error("Discord's answer to {0} could not be read")]
    Malformed(&'static str),
}

impl DiscordSignInError {
    /// Whether the player was refused (a code Discord would not take): a 401 to the page.
    /// Anything else is Discord or our configuration failing: a 503.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            DiscordSignInError::BadCode
                | DiscordSignInError::Refused { .. }
                | DiscordSignInError::Token(_)
        )
    }
}

/// A user Discord named, with the access token for the SDK's `authenticate`.
#[derive(Debug)]
pub struct SignedIn {
    pub user: UserRef,
    pub access_token: Secret,
}

/// The sign-in's HTTP client, made once.
pub struct DiscordExchange {
    settings: DiscordSignIn,
    client: reqwest::Client,
}

impl DiscordExchange {
    pub fn new(settings: DiscordSignIn) -> Result<DiscordExchange, reqwest::Error> {
        let client = reqwest::Client::builder()
            .timeout(settings.timeout)
            .connect_timeout(settings.timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        Ok(DiscordExchange { settings, client })
    }

    pub fn client_id(&self) -> u64 {
        self.settings.client_id
    }

    /// Trades `code` for the user it was given to.
    pub async fn sign_in(&self, code: &str) -> Result<SignedIn, DiscordSignInError> {
        let code = code.trim();
        let plausible = !code.is_empty()
            && code.len() <= MAX_CODE
            && code
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.~".contains(&b));
        if !plausible {
            return Err(DiscordSignInError::BadCode);
        }
        let access_token = self.trade(code).await?;
        let user = self.user(&access_token).await?;
        Ok(SignedIn { user, access_token })
    }

    /// `POST /oauth2/token`: the access token `code` buys.
    async fn trade(&self, code: &str) -> Result<Secret, DiscordSignInError> {
        const CALL: &str = "the token exchange";
        let form = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("client_id", &self.settings.client_id.to_string())
            .append_pair("client_secret", self.settings.client_secret.expose())
            .append_pair("grant_type", "authorization_code")
            .append_pair("code", code)
            .finish();
        let request = self
            .client
            .post(format!("{}/api/v10/oauth2/token", self.settings.api_base))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "application/json")
            .body(form);
        let (status, body) = send(request, CALL).await?;
        if status == 401 {
            return Err(DiscordSignInError::Client);
        }
        if status == 400 {
            let error = serde_json::from_slice::<OAuthError>(&body)
                .map(|e| e.error)
                .unwrap_or_else(|_| "unreadable".into());
            if error == "invalid_client" {
                return Err(DiscordSignInError::Client);
            }
            return Err(DiscordSignInError::Refused { status, error });
        }
        if !(200..300).contains(&status) {
            return Err(DiscordSignInError::Upstream { status, call: CALL });
        }
        let token: TokenAnswer =
            serde_json::from_slice(&body).map_err(|_| DiscordSignInError::Malformed(CALL))?;
        if !token.token_type.eq_ignore_ascii_case("bearer") || token.access_token.is_empty() {
            return Err(DiscordSignInError::Malformed(CALL));
        }
        Ok(Secret::new(token.access_token))
    }

    /// `GET /users/@me`: who the token is for.
    async fn user(&self, token: &Secret) -> Result<UserRef, DiscordSignInError> {
        const CALL: &str = "users/@me";
        let request = self
            .client
            .get(format!("{}/api/v10/users/@me", self.settings.api_base))
            .header("authorization", format!("Bearer {}", token.expose()))
            .header("accept", "application/json");
        let (status, body) = send(request, CALL).await?;
        if status == 401 || status == 403 {
            return Err(DiscordSignInError::Token(status));
        }
        if !(200..300).contains(&status) {
            return Err(DiscordSignInError::Upstream { status, call: CALL });
        }
        let user: UserAnswer =
            serde_json::from_slice(&body).map_err(|_| DiscordSignInError::Malformed(CALL))?;
        let valid_id = !user.id.is_empty()
            && user.id.len() <= 20
            && user.id.bytes().all(|b| b.is_ascii_digit());
        if !valid_id || user.bot {
            return Err(DiscordSignInError::Malformed(CALL));
        }
        // As the adapter names a user: the global display name, else the username.
        let name = user
            .global_name
            .filter(|n| !n.trim().is_empty())
            .unwrap_or(user.username);
        Ok(UserRef::new(Platform::Discord, user.id, name))
    }
}

/// Sends `request`, reading at most [`MAX_ANSWER`] bytes of the answer. Errors name the
/// call only: reqwest's would carry the address (no secret in it, but no need either).
async fn send(
    request: reqwest::RequestBuilder,
    call: &'static str,
) -> Result<(u16, Vec<u8>), DiscordSignInError> {
    let failed = |e: reqwest::Error| {
        if e.is_timeout() {
            DiscordSignInError::Timeout(call)
        } else {
            DiscordSignInError::Unreachable {
                call,
                reason: if e.is_connect() {
                    "no connection".into()
                } else {
                    "the request failed".into()
                },
            }
        }
    };
    let mut response = request.send().await.map_err(failed)?;
    let status = response.status().as_u16();
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(failed)? {
        if body.len() + chunk.len() > MAX_ANSWER {
            return Err(DiscordSignInError::Malformed(call));
        }
        body.extend_from_slice(&chunk);
    }
    Ok((status, body))
}

#[derive(serde::Deserialize)]
struct OAuthError {
    error: String,
}

#[derive(serde::Deserialize)]
struct TokenAnswer {
    access_token: String,
    token_type: String,
}

#[derive(serde::Deserialize)]
struct UserAnswer {
    id: String,
    username: String,
    #[serde(default)]
    global_name: Option<String>,
    #[serde(default)]
    bot: bool,
}
