//! Secrets an adapter keeps across restarts, such as the key that signs Telegram's inline
//! buttons (a key that changed on every start would break the buttons already sent).

use super::*;

impl Manager {
    /// A random 32-byte secret named `name` for `platform`: made the first time it is asked
    /// for, stored durably, and the same ever after.
    pub async fn durable_secret(
        &self,
        platform: Platform,
        name: &str,
    ) -> Result<[u8; 32], ActionError> {
        self.durable_secret_named(&format!("secret:{}:{name}", platform.name()))
            .await
    }

    /// The random 32-byte secret stored under `key` in `Tree::Meta`, made the first time.
    pub(super) async fn durable_secret_named(&self, key: &str) -> Result<[u8; 32], ActionError> {
        let fresh: [u8; 32] = rand::random();
        if self
            .inner
            .store
            .put_new(Tree::Meta, key, &fresh, None)
            .await?
        {
            self.inner.store.commit().await?;
            return Ok(fresh);
        }
        self.inner
            .store
            .get::<[u8; 32]>(Tree::Meta, key)
            .await?
            .ok_or_else(|| ActionError::Storage(format!("secret {key} not readable")))
    }

    /// The secret stored under `key`, for a manager that only reads (`start_read_only`):
    /// never written. When the store has none yet, nobody was given a link made with it, so
    /// one made up for this process alone does: its links last until it stops.
    pub(super) async fn stored_secret_named(&self, key: &str) -> Result<[u8; 32], ActionError> {
        match self.inner.store.get::<[u8; 32]>(Tree::Meta, key).await? {
            Some(secret) => Ok(secret),
            None => {
                tracing::warn!(
                    key,
                    "no such secret stored yet: this read-only process makes up its own"
                );
                Ok(rand::random())
            }
        }
    }

    /// The secret `key`: read (`stored_secret_named`) by a manager that only reads, else made
    /// the first time (`durable_secret_named`).
    pub(super) async fn secret_named(&self, key: &str) -> Result<[u8; 32], ActionError> {
        if self.inner.read_only {
            self.stored_secret_named(key).await
        } else {
            self.durable_secret_named(key).await
        }
    }
}
