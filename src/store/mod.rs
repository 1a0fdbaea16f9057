//! Durable storage of games, challenges and players in sled (issue 4).
