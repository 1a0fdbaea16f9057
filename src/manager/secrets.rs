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
}
