# telegram messages (the Telegram adapter; shared game words are in manager.ftl)
tg-start = Hello! I host games of toguzqumalak, the Kazakh game of nine pits.
    /play: a game against me (levels: random, beginner, easy, medium, hard, max).
    In a group: /challenge as a reply to someone's message, /challenge @username, or just /challenge for anyone to accept.
    Press a pit button to sow its balls. /help lists every command.
tg-help = Commands:
tg-help-play = /play level: play against the bot; add a time control such as 5+3 (minutes per player + seconds added per move) to play on the clock
tg-help-challenge = /challenge: challenge a person (reply to their message, or name them with @; alone: open to anyone); add a time control such as 3+2 to play on the clock
tg-help-board = /board: post the board of your current game again
tg-help-games = /games: your ongoing games
tg-help-resign = /resign: resign your game in this chat
tg-help-draw = /draw: offer a draw
tg-help-rematch = /rematch: play again after a game (reply to its board)
tg-help-lang = /lang en, ru or kk: the language I speak to you
tg-help-inline = In any chat, type my name with @ to send a challenge there.
tg-unknown-command = I don't know the command /{ $command }. My commands: { $commands }; /help explains them.
tg-unknown-lang = I don't speak “{ $given }”. Choose one: /lang en, /lang ru or /lang kk.
tg-challenge-how = “{ $given }” is not someone I can challenge. Reply to their message with /challenge, write /challenge @username, or send /challenge alone for anyone to accept.
tg-cmd-play = Play against the bot
tg-cmd-challenge = Challenge someone in this group
tg-cmd-board = Show the board of your game again
tg-cmd-games = Your ongoing games
tg-cmd-resign = Resign the game
tg-cmd-draw = Offer a draw
tg-cmd-rematch = Play again after a game
tg-cmd-lang = Choose the language: en, ru, kk
tg-cmd-help = How to play and all commands
tg-choose-level = Choose the bot's level. For a game on the clock, first pick a time control in the bottom row.
tg-time-correspondence = Correspondence
tg-time-chosen = Time control: { $control }. Now choose the level.
tg-time-chosen-correspondence = No clock: a correspondence game. Now choose the level.
tg-unknown-level = I don't know the level “{ $level }”. Levels: { $levels }.
tg-challenge-in-group = Challenges are made in groups: add me to a group, or type my name with @ in any chat to send a challenge there. Here you can play against me: /play.
tg-unknown-user = I haven't seen { $username } yet. Reply to one of their messages with /challenge instead.
tg-rematch-how = Reply with /rematch to the board of a finished game, or press the rematch button under it.
tg-lang-usage = Language: { $current }. Change it with /lang en, /lang ru or /lang kk.
tg-lang-set = I'll speak English with you.
tg-bad-button = This button is not valid (an old or damaged message). Use /board for a fresh board.
tg-your-turn = { $name }, your move (game { $game }).
tg-inline-title = Challenge to toguzqumalak
tg-inline-description = Send a challenge anyone in this chat can accept
tg-inline-text = { $name } challenges you to a game of toguzqumalak!
tg-inline-accept = Accept
tg-inline-own = This is your own challenge: wait for someone to accept it.
tg-anonymous = I can't tell who sent this: you are writing anonymously or as a channel. Turn that off (or write to me in private) to play.
tg-opponent-bot = Only people can be challenged, not bots, channels or anonymous admins. To play against me, send me /play in a private chat.
tg-slow-down = Too many commands at once. I'll answer you again in a minute.
tg-error-internal = Something went wrong on my side. Please try again; if it keeps happening, /board brings a fresh board.
