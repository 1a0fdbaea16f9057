# Game pages on the web (src/platform/present/web.rs).
web-title = { $white } vs { $black } · Toguzqumalak
web-rating = rating { $rating }
web-store = Store
web-tuzdek = Tuzdek
web-start = To the start
web-back = Back one move
web-forward = Forward one move
web-end = To the last move
web-copy = Copy position
web-copied = Copied
web-record = Record (PGN)
web-moves = Moves
web-live = Live
web-ply = Move
web-language = Language
web-not-found-title = Page not found
web-not-found = There is no game at this address. Check the link you were given.
web-index-title = Toguzqumalak games
web-index-about = Every game played with the bot has its own page: open it with the link under the game's board in Discord or Telegram.
web-review = Review
# The link to a game's page under its board, and in records and reviews.
web-page-button = 🌐 Game page
web-page-link = 🌐 Game page: { $url }
