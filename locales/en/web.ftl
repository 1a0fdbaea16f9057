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
web-not-found-player = There is no player's page at this address. Check the link you were given.
web-not-found-tournament = There is no tournament at this address. Check the link you were given.
web-not-found-page = There is nothing at this address. Check the link you were given.
web-unavailable-title = Try again in a moment
web-unavailable = The site cannot read its games right now. Try again in a moment.
web-index-title = Toguzqumalak games
web-index-about = Every game played with the bot has its own page: open it with the link under the game's board in Discord or Telegram.
web-review = Review
# The opening explorer's page (issue 52, src/platform/present/web_explorer.rs) and its
# links from game pages.
web-explorer-title = Opening explorer
web-explorer-link = Opening explorer
web-explorer-book-link = Open the explorer where the game left known play
web-explorer-move = Move
web-explorer-games = Games
web-explorer-results = White / draw / Black
web-explorer-rating = Avg. rating
web-explorer-total = All moves
web-explorer-white-wins = White won
web-explorer-draws = Draw
web-explorer-black-wins = Black won
web-explorer-source = Games
web-explorer-category = Time control
web-explorer-band = Rating
web-explorer-any = Any
web-explorer-last = Latest games that reached this position
web-explorer-last-unfiltered = Latest games are listed only without a time control or rating filter: choose “Any” for both to see them.
web-explorer-over = The game is over in this position.
web-explorer-play-pit = Play pit { $pit }
web-explorer-game-moves = Opening moves counted by the explorer
web-explorer-bad-choice = The explorer has no such source, time control, rating band or variant. Choose one with the links on its page.
# Playing on the page (issue 50): a signed-in player's controls, /me and the sign-in link.
web-play-your-move = Your move: choose a pit.
web-play-their-move = Waiting for your opponent's move.
web-play-pit = Play pit { $pit } ({ $balls })
web-play-resign-confirm = Resign this game?
web-play-resign-yes = Yes, resign
web-play-cancel = Cancel
web-play-hint-button = Hint
web-play-hint = Hint: play pit { $pit } ({ $move }).
web-play-premoves-help = One line per row: the pits of your opponent's move and of your reply in turn, such as 3 7 5 2 (if they play 3, you play 7; then if 5, you play 2).
web-play-premoves-save = Save premoves
web-play-premoves-board = Premoves on the board
web-play-premoves-back = Back to the game
web-play-premoves-preview = The board shows where your line leads.
web-play-premove-theirs = Their move from pit { $pit } ({ $balls })
web-play-premove-mine = Your reply from pit { $pit } ({ $balls })
web-play-failed = The site did not answer. Check your connection and try again.
web-play-forged = This request was refused. Reload the page and try again.
web-play-limited = Too many actions in a minute. Wait a moment and try again.
web-play-rematch-in-chat = Ask for a rematch with the button under the game's board in the chat.
web-play-bad-request = The page asked for something that cannot be done. Reload it and try again.
web-me-title = Your games
web-me-signed-in = Signed in as { $name }.
web-me-signed-out = To play here, sign in: send /web login to the bot (in Discord: /web signin:login) and open the link it gives you.
web-me-none = You have no ongoing games.
web-me-your-turn = your move
web-me-logout = Sign out
web-signin-confirm-title = Sign in on the website
web-signin-confirm = This one-time link signs you in on this device, so that you can play your games on the website. If you did not ask the bot for it, close this page.
web-signin-button = Sign in
web-signin-refused-title = This sign-in link does not work
web-signin-refused = The link has already been used, has expired or is wrong. Ask the bot for a new one with /web login (in Discord: /web signin:login).
# The link to a game's page under its board, and in records and reviews.
web-page-button = 🌐 Game page
web-page-link = 🌐 Game page: { $url }
# /web login and /web logout (issue 50): the sign-in link to the website, in a private chat only.
web-login-link = Here is your sign-in link for the website. It works once, within the next { $minutes } minutes, and signs you in as you: do not pass it on.
web-login-button = 🔑 Sign in on the website
web-login-private-only = I send sign-in links only in our private chat. Write /web login to me there.
web-logout-done = { $count ->
    [0] You were not signed in on the website anywhere.
    [one] Signed out: your session on the website has ended.
   *[other] Signed out: all { $count } of your sessions on the website have ended.
}
# The Telegram Mini App (/tg) and signing in through it.
web-tg-title = Toguzqumalak in Telegram
web-tg-signing-in = Signing you in through Telegram…
web-tg-outside = This page opens inside Telegram: press “🌐 Game page” under a game's board in a chat with the bot.
web-tg-refused = Telegram did not confirm who you are, so you are not signed in. Close the game and open it again from Telegram.
web-tg-stale = This game was opened from Telegram too long ago. Close it and open it again from Telegram.
web-tg-off = Signing in through Telegram is not set up on this site.
web-tg-failed = The site could not be reached. Check your connection, then close the game and open it again.
web-tg-bad-request = The sign-in request could not be read.
web-tg-too-many = Too many sign-ins in a minute. Wait a moment and try again.
web-tg-unavailable = Signing in is not possible right now. Try again in a moment.
# The Discord Activity's page (src/platform/web/activity.rs, web/activity/activity.js).
web-activity-title = Toguzqumalak
web-activity-signing-in = Signing in with Discord…
web-activity-refused = Discord did not confirm who you are, so nothing can be played here. Close the Activity and start it again.
web-activity-unavailable = Discord or the game server is not answering right now. Close the Activity and try again in a moment.
web-activity-outside = This page opens inside Discord: start it with /activity in a channel.
web-activity-not-configured = This bot has no Discord Activity set up.
web-activity-choose = Your games: choose one to play.
web-activity-no-games = You have no ongoing games. Start one in the channel with /challenge or /play, then open the Activity again.
web-activity-your-turn = your move
web-index-listed = Listed here are the games of chats whose admins chose to show them (/web public on in Telegram, /web public:on in Discord), and games played at the terminal.
web-index-live = Playing now
web-index-recent = Recently finished
web-index-no-live = No listed game is being played right now.
web-index-no-recent = No listed game has finished lately.
web-index-players = { $white } – { $black }
web-leaderboards = Leaderboards
web-leaderboard-player = Player
web-leaderboard-rating = Rating
web-leaderboard-games = Games
web-all-games = All games
# /web in a chat: whether the chat's games are listed on the site's front page.
web-public-on = This chat's games are now listed on the website's front page, for anyone to watch.
web-public-off = This chat's games are no longer listed on the website's front page. Links to them still work.
web-public-state-on = This chat's games are listed on the website's front page. Admins can change that with { $command }.
web-public-state-off = This chat's games are not listed on the website's front page. Admins can list them with { $command }.
web-public-admins = Only the chat's admins can choose whether its games are listed on the website.
web-profile-on = Your page on the website now lists all your games, those of private chats included, and search engines may show it.
web-profile-off = Your page on the website now lists only your games in chats whose games are on the front page, and search engines are asked not to show it.
web-profile-state-on = Your page on the website lists all your games, those of private chats included. To list only those of chats on the front page: { $command }
web-profile-state-off = Your page on the website lists only your games in chats whose games are on the front page. To list all of them: { $command }
# Player pages
web-player-title = { $name } · Toguzqumalak
web-player-platform = Plays on { $platform }
web-player-console = Plays at the terminal
web-player-ratings = Ratings
web-player-category = Category
web-player-results = Won / drawn / lost
web-player-no-ratings = No rated games yet.
web-player-graph = Rating history
web-player-graph-about = The rating after each rated game, the earliest on the left. Click a point to open its game.
web-player-point = { $date } · { $category } · { $rating }
web-player-recent = Recent games
web-player-no-recent = No finished games yet.
web-player-against = vs { $opponent }
# Tournament pages (src/platform/present/web_tournament.rs): a tournament's standings and games.
web-tournament-standings = Standings
web-tournament-players = { $count ->
    [one] { $count } player
   *[other] { $count } players
}
web-tournament-round = Round { $round }
web-tournament-bye = Bye this round: { $name }
web-tournament-playing = being played
web-tournament-no-games = No games have been paired yet.
web-tournament-button = 🏆 Tournament page
web-index-tournaments = Tournaments
web-index-no-tournaments = No listed tournament is taking players, under way or finished lately.
