//! Signing in on the web (issue 50): one-time sign-in links and the sessions they (or a
//! platform's own proof, the Telegram Mini App's initData or Discord's OAuth2) open.
//!
//! Both live in the store, so every process sharing it knows them and a restart forgets
//! none. Neither is stored as given out: a link is kept under the SHA-256 of its token and a
//! session under its user's key and the SHA-256 of its random part, so a copy of the store
//! signs nobody in. A link is used once: redeeming it deletes it compare-and-set in the same
//! batch that stores the session, so of two processes redeeming it at once one wins.
//! `end_web_sessions` (`/web logout`) ends every session of a user at once: a session's key
//! starts with its user's key, so they are one range of the tree.

use super::*;
use crate::secret::Secret;
use crate::store::{Batch, Expect, KeyRange, StoreError};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How long a sign-in link may wait to be opened.
pub const LOGIN_LINK_TTL_SECS: u64 = 10 * 60;

/// How long a session lasts.
pub const SESSION_TTL_SECS: u64 = 30 * 24 * 3600;

/// The most sessions one user's logout reads in one batch; more are ended by the next.
const ENDED_AT_ONCE: usize = 500;

/// How a session was opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SignIn {
    /// A one-time link from `/web login`.
    Link,
    /// A Telegram Mini App's initData, checked with the bot's token.
    TelegramMiniApp,
    /// A Discord Activity's OAuth2 code, traded with Discord for the user.
    DiscordActivity,
}

/// A one-time sign-in link.
#[derive(Clone, Debug)]
pub struct LoginLink {
    /// `<site>/login/<token>`: a secret until it is used.
    pub url: Secret,
    /// When it stops working (unix seconds).
    pub expires_at: u64,
}

/// A signed-in visitor of the pages.
#[derive(Clone, Debug)]
pub struct WebSession {
    /// What the visitor's browser sends back (cookie or bearer token).
    pub token: Secret,
    /// What every state-changing request must carry besides (`X-Toguz-Csrf`).
    pub csrf: String,
    pub user: UserRef,
    pub via: SignIn,
    pub expires_at: u64,
}

/// A sign-in link as stored.
#[derive(Serialize, Deserialize)]
struct StoredLink {
    user: UserRef,
    expires_at: u64,
}

/// A session as stored.
#[derive(Serialize, Deserialize)]
struct StoredSession {
    user: UserRef,
    csrf: String,
    via: SignIn,
    expires_at: u64,
}

impl Manager {
    /// A new one-time sign-in link for `user`: valid `LOGIN_LINK_TTL_SECS`, used once.
    /// `WebNotServed` when the pages are not served.
    pub async fn web_login_link(&self, user: &UserRef) -> Result<LoginLink, ActionError> {
        let site = self.site_url().ok_or(ActionError::WebNotServed)?.to_owned();
        let token = random_hex(32);
        let expires_at = self.now() + LOGIN_LINK_TTL_SECS;
        let key = digest(&token);
        let stored = StoredLink {
            user: user.clone(),
            expires_at,
        };
        let mut batch = Batch::new();
        batch.put_checked(Tree::WebLogins, &key, &stored, Expect::Absent)?;
        batch.expire_at(Tree::WebLogins, &key, expires_at);
        self.inner.store.write(batch).await?;
        Ok(LoginLink {
            url: Secret::new(format!("{site}/login/{token}")),
            expires_at,
        })
    }

    /// Opens a session with the link `token` (the last part of its address) and uses the
    /// link up. Unknown, used or expired: `SignInRefused`.
    pub async fn redeem_web_login(&self, token: &str) -> Result<WebSession, ActionError> {
        if !is_hex(token, 64) {
            return Err(ActionError::SignInRefused);
        }
        let key = digest(token);
        let store = &self.inner.store;
        let found = store
            .get_versioned::<StoredLink>(Tree::WebLogins, &key)
            .await?
            .ok_or(ActionError::SignInRefused)?;
        if found.value.expires_at <= self.now() {
            return Err(ActionError::SignInRefused);
        }
        let mut batch = Batch::new();
        batch.delete_checked(Tree::WebLogins, &key, Expect::Revision(found.revision));
        let session = self.session_into(&mut batch, &found.value.user, SignIn::Link)?;
        match store.write(batch).await {
            Ok(_) => Ok(session),
            // Another request used the link first.
            Err(StoreError::Conflict { .. }) => Err(ActionError::SignInRefused),
            Err(error) => Err(error.into()),
        }
    }

    /// A new session for `user`, whom the platform proved (`via`).
    pub async fn open_web_session(
        &self,
        user: &UserRef,
        via: SignIn,
    ) -> Result<WebSession, ActionError> {
        let mut batch = Batch::new();
        let session = self.session_into(&mut batch, user, via)?;
        self.inner.store.write(batch).await?;
        Ok(session)
    }

    /// The session `token` names. Unknown, expired or ended: `SignInRefused`.
    pub async fn web_session(&self, token: &str) -> Result<WebSession, ActionError> {
        let (user_key, random) = split_token(token).ok_or(ActionError::SignInRefused)?;
        let key = session_key(&user_key, random);
        let stored = self
            .inner
            .store
            .get::<StoredSession>(Tree::WebSessions, &key)
            .await?
            .ok_or(ActionError::SignInRefused)?;
        // The key's prefix is the user's key; a record under it names that user, so a token
        // cannot be made to name another.
        if stored.expires_at <= self.now() || stored.user.key() != user_key {
            return Err(ActionError::SignInRefused);
        }
        Ok(WebSession {
            token: Secret::new(token),
            csrf: stored.csrf,
            user: stored.user,
            via: stored.via,
            expires_at: stored.expires_at,
        })
    }

    /// Ends every session of `user` (`/web logout`); how many there were.
    pub async fn end_web_sessions(&self, user: &UserRef) -> Result<usize, ActionError> {
        let prefix = format!("{}|", user.key());
        let mut ended = 0;
        loop {
            let found = self
                .inner
                .store
                .scan::<serde::de::IgnoredAny>(
                    Tree::WebSessions,
                    KeyRange::prefix(&prefix),
                    ENDED_AT_ONCE,
                )
                .await?;
            if found.is_empty() {
                return Ok(ended);
            }
            let mut batch = Batch::new();
            for (key, _) in &found {
                batch.delete(Tree::WebSessions, key);
            }
            self.inner.store.write(batch).await?;
            ended += found.len();
        }
    }

    /// Adds a new session of `user` to `batch` and answers it.
    fn session_into(
        &self,
        batch: &mut Batch,
        user: &UserRef,
        via: SignIn,
    ) -> Result<WebSession, ActionError> {
        let random = random_hex(32);
        let user_key = user.key();
        let key = session_key(&user_key, &random);
        let expires_at = self.now() + SESSION_TTL_SECS;
        let stored = StoredSession {
            user: user.clone(),
            csrf: random_hex(16),
            via,
            expires_at,
        };
        batch.put_checked(Tree::WebSessions, &key, &stored, Expect::Absent)?;
        batch.expire_at(Tree::WebSessions, &key, expires_at);
        Ok(WebSession {
            token: Secret::new(format!("{}.{random}", hex(user_key.as_bytes()))),
            csrf: stored.csrf,
            user: user.clone(),
            via,
            expires_at,
        })
    }
}

/// A session token's user key and random part (`<hex of the user key>.<64 hex digits>`):
/// only characters a cookie and a bearer token take.
fn split_token(token: &str) -> Option<(String, &str)> {
    let (user, random) = token.split_once('.')?;
    if !is_hex(random, 64) || user.is_empty() || user.len() > 256 || user.len() % 2 == 1 {
        return None;
    }
    let bytes = (0..user.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(user.get(i..i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    Some((String::from_utf8(bytes).ok()?, random))
}

/// Where a session is stored: its user's key, then the digest of its random part.
fn session_key(user_key: &str, random: &str) -> String {
    format!("{user_key}|{}", digest(random))
}

fn digest(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// `bytes` random bytes in hex, from the operating system's generator (through rand's
/// thread generator, which it seeds).
fn random_hex(bytes: usize) -> String {
    use rand::RngCore;
    let mut buf = vec![0u8; bytes];
    rand::thread_rng().fill_bytes(&mut buf);
    hex(&buf)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn is_hex(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_names_its_user_and_nothing_else_parses() {
        let random = "ab".repeat(32);
        let token = format!("{}.{random}", hex(b"telegram:42"));
        assert_eq!(
            split_token(&token),
            Some(("telegram:42".to_string(), random.as_str()))
        );
        for bad in [
            String::new(),
            random.clone(),
            format!(".{random}"),
            format!("{}.{random}", "7"),
            format!("{}.{}", hex(b"telegram:42"), "ab".repeat(31)),
            format!("{}.{}", hex(b"telegram:42"), "zz".repeat(32)),
            format!("{}.{random}", "é".repeat(2)),
            format!("{}.{random}", hex(&[0xff, 0xfe])),
        ] {
            assert_eq!(split_token(&bad), None, "{bad:?}");
        }
    }
}
