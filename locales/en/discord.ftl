# The Discord adapter: slash commands (names and descriptions), help and short notices.
# Discord has no Kazakh locale: commands are localized for en-US, en-GB and ru only, and
# Kazakh speakers read Kazakh in the messages (after /help language:Қазақша).
discord-cmd-challenge = challenge
discord-cmd-challenge-desc = Challenge a member of this server to a game of toguzqumalak
discord-cmd-play = play
discord-cmd-play-desc = Play a game against the bot
discord-cmd-board = board
discord-cmd-board-desc = Show the board of your game here again
discord-cmd-activity = activity
discord-cmd-activity-desc = Play on a real board in this channel (opens the Activity)
discord-activity-off = The Discord Activity is not set up on this bot.
discord-activity-button = 🎮 Play on the board
discord-cmd-games = games
discord-cmd-games-desc = List your ongoing games
discord-cmd-resign = resign
discord-cmd-resign-desc = Resign your game
discord-cmd-draw = draw
discord-cmd-draw-desc = Offer a draw, or accept your opponent's offer
discord-cmd-rematch = rematch
discord-cmd-rematch-desc = Ask for a rematch of a finished game
discord-cmd-review = review
discord-cmd-review-desc = The bot's review of a finished game: graph, largest mistakes, accuracy
discord-cmd-help = help
discord-cmd-help-desc = How to play, and the language the bot speaks to you
discord-opt-user = opponent
discord-opt-user-desc = The member you challenge
discord-opt-balls = balls
discord-opt-balls-desc = Balls in each pit at the start (9 is the standard game)
discord-opt-tuzdek = tuzdek
discord-opt-tuzdek-desc = The tuzdek rule
discord-choice-tuzdek-standard = standard (no tuzdek on pit 9)
discord-choice-tuzdek-off = no tuzdeks
discord-choice-tuzdek-ninth = tuzdek allowed on pit 9
discord-opt-level = level
discord-opt-level-desc = How strong the bot plays
discord-opt-time = time
discord-opt-time-desc = Time control: 3+2 (minutes each + seconds added per move), 2 days (per move) or correspondence
discord-opt-game = game
discord-opt-game-desc = The game id, as shown on the board (e.g. ab12cd)
discord-opt-language = language
discord-opt-language-desc = The language the bot speaks to you
discord-help =
    Welcome to **toguzqumalak**, the Kazakh game of nine pits. Each player owns a row of nine pits with nine balls in each and a kazan (store). On your turn take all the balls from one of your pits and sow them one by one to the right, starting with that pit. If the last ball lands in an opponent's pit and makes the count there even, you win those balls. The first to gather more than 81 balls in the kazan wins.
    `/challenge opponent:@member` challenge someone here; they get Accept and Decline buttons.
    `/play level:` play the bot (also in a DM with me).
    Add `time:3+2` to either for a game on the clock: 3 minutes each, 2 seconds added per move.
    Press a pit button 1–9 to move; the label shows the pit and its balls (`7 · 12`).
    `/board` shows your game again, `/games` lists your games, `/resign`, `/draw`, `/rematch game:`.
    `/review` (or the Review button under a finished board): the bot's review of the game: a graph, mistakes, accuracy.
    `/history player:` your finished games (or a member's), newest first. `/record game:` sends a game's record as a file (so does the Record button under a finished board). `/stats player:` and `/leaderboard` show ratings, one per time category (blitz, rapid, correspondence); `/leaderboard category:` shows one category in full.
    `/tournament new` announces an arena or a Swiss tournament here; players join with the button under it, and `/tournament standings` shows the table.
    `/puzzle play` or `daily`: a puzzle from a real game, or today's. `/opening`: opening explorer.
    `/web public:on` lists this server's games on the website (server managers).
    `/help language:` changes the language I use with you (English, Русский, Қазақша).
    Discord names the commands in your app's language, not the one chosen here: in Russian they are `/вызов`, `/играть`, `/доска`, `/партии`, `/сдаться`, `/ничья`, `/реванш`, `/разбор`, `/история`, `/запись`, `/статистика`, `/лучшие`, `/турнир`, `/задача`, `/дебют`, `/сайт`, `/помощь`.
discord-lang-set = From now on I will speak English with you.
discord-cooldown = Wait { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
} before you challenge again.
discord-bad-button = This button does not belong to any game I know. Use /board to see your current board.
discord-your-move = { $mention }, your move in game { $id }.
discord-game-over = { $mentions }: game { $id } is over. { $result }
discord-resigned = You resigned game { $id }.
discord-draw-offered = You offered a draw in game { $id }.
discord-challenge-in-dm = Challenges are for servers. Here in a DM you can play me with /play.
discord-unknown-user = I could not find that member. Pick them from the list that Discord shows.
discord-game-over-mention = { $mentions }, the game is over.
discord-bad-option = That option value is not one I know. Pick one from the list that Discord shows.
discord-subcommand-missing = /{ $command } needs one of its subcommands: { $subcommands }. Your Discord may show an old list of my commands: restart it or pick again from the list.
discord-challenge-other-bot = { $name } is a bot and cannot play. Challenge a person, or play me with /play.
discord-internal-error = Something went wrong on my side. Please try again in a moment; /board shows your game as it stands.
# Ratings and leaderboards (issue 16).
discord-opt-rated = rated
discord-opt-rated-desc = Whether the game changes your ratings (yes unless you say otherwise)
discord-cmd-stats = stats
discord-cmd-stats-desc = A player's rating and results
discord-opt-player = player
discord-opt-player-desc = Whose rating to show (yours if left empty)
discord-cmd-leaderboard = leaderboard
discord-cmd-leaderboard-desc = The best players of this server, or of all Discord
discord-opt-scope = scope
discord-opt-scope-desc = This server's players or everyone on Discord
discord-choice-scope-server = This server
discord-choice-scope-global = Everyone on Discord
discord-opt-category = category
discord-opt-category-desc = One time category in full (without it, the top of each)
discord-leaderboard-more = /leaderboard category:
# History and records (issue 16).
discord-cmd-history = history
discord-cmd-history-desc = A player's finished games, newest first, with each game's board and record
discord-opt-history-player-desc = Whose games to show (yours if left empty)
discord-cmd-record = record
discord-cmd-record-desc = A game's record as a file, with its moves
discord-opt-record-game-desc = The game id (without it, the last game that ended here)
discord-history-page-gone = That page of the history is empty. Use /history to start again.
discord-slow-down = Too many requests at once. Please wait a minute, then ask again.
# Tournaments (issue 33).
discord-cmd-tournament = tournament
discord-cmd-tournament-desc = Arenas and Swiss tournaments in this server
discord-sub-new = new
discord-sub-new-desc = Announce a tournament here; players join with the button under it
discord-sub-standings = standings
discord-sub-standings-desc = A tournament's standings, as text and as a table
discord-sub-join = join
discord-sub-join-desc = Join a tournament (the Join button under it does the same)
discord-sub-leave = leave
discord-sub-leave-desc = Leave a tournament
discord-sub-cancel = cancel
discord-sub-cancel-desc = Cancel a tournament (its organiser, or a member who can manage the server)
discord-sub-bot = bot
discord-sub-bot-desc = Enter the bot at a level (its organiser, or a member who can manage the server)
discord-sub-bye = bye
discord-sub-bye-desc = Sit out a Swiss round for half a point (the next round unless you name one)
discord-opt-bye-round = round
discord-opt-bye-round-desc = The round to sit out (the next one if left empty)
discord-opt-tournament-id = id
discord-opt-tournament-id-desc = The tournament's id, as under its announcement (the newest one here if left empty)
discord-opt-format = format
discord-opt-format-desc = Arena (games for a set time) or Swiss (a set number of rounds)
discord-choice-format-arena = Arena
discord-choice-format-swiss = Swiss
discord-opt-minutes = minutes
discord-opt-minutes-desc = How long an arena lasts, in minutes (30 if left empty)
discord-opt-rounds = rounds
discord-opt-rounds-desc = How many rounds a Swiss tournament has (5 if left empty)
discord-opt-starts-in = starts_in
discord-opt-starts-in-desc = Minutes until it starts (5 if left empty)
discord-opt-tournament-rated-desc = Whether its games change ratings (yes unless you say otherwise)
discord-tournament-footer = Tournament { $id } · /tournament standings
discord-tournament-in-dm = Tournaments are for servers: announce one in a server channel with /tournament new.
discord-tournament-cancel-done = You have cancelled the tournament. { $title }
discord-tournament-bot-joined = { $name } has joined. { $title }
discord-cmd-puzzle = puzzle
discord-cmd-puzzle-desc = Puzzles from real games: one a day for everyone, and more at your level
discord-sub-puzzle-play = play
discord-sub-puzzle-play-desc = A puzzle near your puzzle rating (the one you are on, if any)
discord-sub-puzzle-daily = daily
discord-sub-puzzle-daily-desc = Today's puzzle, the same for everyone
discord-sub-puzzle-stats = stats
discord-sub-puzzle-stats-desc = Your puzzle rating, results and daily streak
discord-sub-puzzle-top = top
discord-sub-puzzle-top-desc = The best puzzle solvers of this server
discord-opt-puzzle-global = global
discord-opt-puzzle-global-desc = Everyone on Discord instead of this server
discord-sub-puzzle-post = post
discord-sub-puzzle-post-desc = Post the daily puzzle in this channel every day (server admins)
discord-opt-puzzle-hour = hour
discord-opt-puzzle-hour-desc = The hour (UTC, 0-23); leave it out to stop posting
discord-cmd-opening = opening
discord-cmd-opening-desc = Opening explorer: what masters and club players play in a position
discord-opt-opening-moves = moves
discord-opt-opening-moves-desc = Pits played from the start, e.g. 7 7 2 (leave empty for the starting position)
discord-opt-opening-source = source
discord-opt-opening-source-desc = Whose games: all, masters, club, chat, or player:NAME
discord-opening-source-how = I don't know that source. Write all, masters, club, chat or player:NAME (for example, player:Aigerim).
# /notify: private messages about correspondence games (issue 51).
discord-cmd-notify = notify
discord-cmd-notify-desc = Direct messages about your correspondence games: when, and quiet hours
discord-opt-notify-mode = mode
discord-opt-notify-mode-desc = A message each time it is your move, one summary a day, or nothing
discord-choice-notify-on = each move
discord-choice-notify-digest = daily summary
discord-choice-notify-off = off
discord-opt-notify-hour = hour
discord-opt-notify-hour-desc = The hour of the daily summary (0-23, your time)
discord-opt-notify-quiet = quiet
discord-opt-notify-quiet-desc = Hours with no messages, your time, such as 23-08; “off” for none
discord-opt-notify-utc = utc
discord-opt-notify-utc-desc = Your offset from UTC, such as +05 or -03:30
discord-notify-usage = To change: `/notify mode:`, with `hour:` for a daily summary; `/notify quiet:23-08 utc:+05` for quiet hours, `quiet:off` for none.
# /web: whether the server's games are listed on the website (issue 35).
discord-cmd-web = web
discord-cmd-web-desc = Whether this server's games are listed on the website's front page
discord-opt-web-public = public
discord-opt-web-public-desc = List this server's games on the website (server managers)
discord-opt-web-profile = profile
discord-opt-web-profile-desc = Whether your page on the website lists all your games, or only those of listed chats
discord-choice-web-on = on
discord-opt-web-signin = signin
discord-opt-web-signin-desc = Get a one-time link that signs you in on the website, or sign out everywhere
discord-choice-web-login = login
discord-choice-web-logout = logout
discord-choice-web-off = off
