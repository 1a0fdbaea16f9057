//! Signing in to the pages from a platform that proves who the user is (issue 50).

pub mod discord;
