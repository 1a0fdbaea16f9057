# The game manager: captions, results, challenges, buttons and refusals, shared by every platform.
manager-bot-name = Bot ({ $level })
manager-game-title = Game { $id }
manager-turn = { $side ->
    [white] White
   *[black] Black
} to move: { $name }
manager-score = Kazans: { $white } : { $black }
manager-last-move = Last move: { $name }, { $move }
manager-last-move-capture = Last move: { $name }, { $move }, took { $balls }
manager-previous-move = Before that: { $name }, { $move }
manager-previous-move-capture = Before that: { $name }, { $move }, took { $balls }
manager-draw-offered = { $name } offers a draw.
manager-deadline = Move within { $hours ->
    [one] { $hours } hour
   *[other] { $hours } hours
} or lose on time.
manager-result-win = { $side ->
    [white] White
   *[black] Black
} wins: { $name }.
manager-result-draw = The game is drawn.
manager-result-aborted = The game was aborted.
manager-reason-kazan = The kazan holds more than half the balls.
manager-reason-equal-kazans = Both kazans hold { $balls }.
manager-reason-atsyrau = Atsyrau: the player to move had no balls left.
manager-reason-resigned = { $name } resigned.
manager-reason-agreed = Drawn by agreement.
manager-reason-timeout = { $name } did not move in time.
manager-variant-standard = standard game
manager-variant-balls = { $count } per pit
manager-variant-no-tuzdek = no tuzdeks
manager-variant-ninth-tuzdek = tuzdek allowed on pit 9
manager-challenge-open = { $challenger } is looking for an opponent: { $variant }.
manager-challenge-to = { $challenger } challenges { $opponent }: { $variant }.
manager-challenge-rematch = { $challenger } wants a rematch with { $opponent }.
manager-challenge-accepted = Challenge accepted: game { $id } has begun.
manager-challenge-declined = { $opponent } declined the challenge.
manager-challenge-expired = Nobody answered in time: the challenge has expired.
manager-challenge-cancelled = { $challenger } withdrew the challenge.
manager-challenge-expires = Open for { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
}.
manager-button-resign = Resign
manager-button-offer-draw = Offer a draw
manager-button-accept-draw = Accept draw
manager-button-decline-draw = Decline draw
manager-button-abort = Abort
manager-button-rematch = Rematch
manager-button-review = Review
manager-button-accept = Accept
manager-button-decline = Decline
manager-button-cancel = Withdraw
manager-games-none = You have no ongoing games.
manager-games-header = Your ongoing games:
manager-games-line = { $id }: { $white } vs { $black }, move { $number }
manager-games-your-move = your move
manager-games-left = { $span } left
manager-alert-left = { $span } left
manager-alert-control-left = { $control }: { $remaining }
manager-alert-your-move = Your move against { $opponent } ({ $status }).
manager-alert-your-moves = Your move in { $count } games:
manager-alert-line = • { $opponent } ({ $status })
manager-alert-more = …and { $count } more
manager-alert-warning = Time is running out against { $opponent }: { $remaining }.
manager-alert-digest = Your daily summary: { $count ->
    [one] it is your move in one game
   *[other] it is your move in { $count } games
}:
manager-alert-button = Board: { $opponent }
manager-notify-each = Private messages about your correspondence games: each time it is your move, and a warning when a move's time is running out.
manager-notify-digest = Private messages about your correspondence games: a daily summary at { $hour } (UTC{ $offset }), and a warning when a move's time is running out.
manager-notify-off = Private messages about your correspondence games are off. The chat where a game is played still tells you of your move.
manager-notify-quiet = Quiet hours: { $from }–{ $to } (UTC{ $offset }); a message due then waits until they end.
manager-notify-no-quiet = No quiet hours.
manager-notify-saved = Saved.
manager-notify-no-hours = Give the hour: a number from 0 to 23 (for quiet hours, two of them, such as 23-08).
manager-notify-bad-hours = “{ $given }” is not an hour: give a number from 0 to 23, or for quiet hours two of them, such as 23-08.
manager-notify-bad-offset = “{ $given }” is not an offset from UTC: write it as +05, -03:30 or utc.
manager-notify-bad-word = “{ $given }” is not a setting of /notify.
manager-notify-extra = “{ $given }” is one word too many.
manager-error-not-your-turn = It is not your turn.
manager-error-not-your-game = You are not playing in this game.
manager-error-not-for-you = This challenge is not addressed to you.
manager-error-stale = This board is out of date: the game has moved on. Look at the latest board.
manager-error-no-such-pit = There is no pit { $pit }: pits are numbered 1 to 9.
manager-error-empty-pit = Pit { $pit } is empty.
manager-error-tuzdek-pit = Pit { $pit } is a tuzdek: its balls belong to your opponent.
manager-error-game-over = This game is already over.
manager-error-no-such-game = There is no such game.
manager-error-no-such-challenge = There is no such challenge.
manager-error-challenge-closed = This challenge is no longer open.
manager-error-not-your-challenge = Only the player who made the challenge can change its time control.
manager-error-challenge-self = You cannot play against yourself.
manager-error-challenge-bot = To play the bot, start a game against it instead of challenging it.
manager-error-limit-user-challenges = You already have { $count } open challenges. Wait for an answer or withdraw one.
manager-error-limit-chat-challenges = This chat already has { $count } open challenges. Try again later.
manager-error-limit-user-games = You already play { $count } games at once. Finish one first.
manager-error-limit-chat-games = This chat already has { $count } games going on. Try again later.
manager-error-limit-user-tournaments = { $count ->
    [one] You already have a tournament that has not ended. Wait until it is over, or cancel it.
   *[other] You already have { $count } tournaments that have not ended. Wait until one is over, or cancel one.
}
manager-error-limit-chat-tournaments = { $count ->
    [one] This chat already has a tournament that has not ended. Try again once it is over.
   *[other] This chat already has { $count } tournaments that have not ended. Try again once one is over.
}
manager-error-game-not-over = The game is still going on.
manager-error-no-game-here = You have no game going on here.
manager-error-ambiguous = You have several games here: say which one.
manager-error-too-late-to-abort = Too late to abort: both sides have moved. You can resign or offer a draw.
manager-error-no-berserk-here = Berserk is only for the players of a timed arena game.
manager-error-too-late-to-berserk = Too late for berserk: go berserk before your first move.
manager-button-berserk = Berserk
manager-error-draw-already-offered = You have already offered a draw.
manager-error-no-draw-offer = Nobody has offered you a draw.
manager-error-bot-declines-draw = The bot declines the draw: play on.
manager-error-rematch-exists = A rematch of this game has already been arranged.
manager-error-nothing-to-review = No move was played in this game: there is nothing to review.
manager-error-no-finished-game-here = No game has ended here since I last started. Give the id of the game, as shown on its board.
manager-error-reviews-busy = The bot is reviewing many games right now. Please ask again in a minute.
manager-error-review-pending = Your previous review is still being worked out. Ask for the next one once it is posted.
manager-error-hints-only-against-bot = Hints are only given in casual games against the bot.
manager-error-no-hints-left = You have used all your hints in this game ({ $count } per game).
manager-error-hints-busy = The bot is busy working out hints right now. Please try again in a moment.
manager-error-premoves-not-here = Premoves are only for correspondence games between two people.
manager-error-premoves-on-their-turn = It is your move: premoves are entered while your opponent is to move.
manager-error-too-many-premoves = That is too many premoves: at most { $lines } lines of { $moves } moves each.
manager-error-premove-illegal = Line { $line }: move { $step } (pit { $pit }) cannot be played there.
manager-error-premoves-disagree = Line { $line } answers the same move differently from a line above it. Each of your opponent's moves gets one reply.
manager-error-premove-line-unfinished = A line ends with your reply: add the pit you will answer with.
manager-error-explorer-moves = Move { $step } ({ $pit }) cannot be played there. List the pits played from the starting position in order (1–9, counted from the mover's side), for example: 7 7 2
manager-error-explorer-too-deep = That line is too long: the explorer covers at most { $max } moves.
premoves-button = Premoves
premoves-title = Your premoves (opponent: { $opponent })
premoves-legend = Each pair is their move → your reply.
premoves-none = No lines yet.
premoves-draft = New line: { $moves }
premoves-next-theirs = Press the pit your opponent may play.
premoves-next-mine = Press the pit you will answer with.
premoves-explain = When your opponent plays the first move of a line, your reply is played at once. A move off every line clears them all. Only you see them.
premoves-closed = It is your move: premoves are entered while your opponent is to move.
premoves-ended = The game is over.
premoves-add = Add line
premoves-undo = Undo
premoves-clear = Clear all
premoves-done = Done
premoves-opened-private = Your premoves are open in our private chat.
premoves-start-bot = Start a private chat with me ({ $link }): your premoves will open there.
manager-error-sign-in-refused = This sign-in link does not work: it is unknown, already used or expired. Ask the bot for a new one with /web login (in Discord: /web signin:login).
manager-error-web-not-served = This bot has no website set up, so there is nowhere to sign in.
manager-error-storage = Something went wrong on our side and nothing was changed. Please try again.
manager-error-store-away = The game database is not answering right now, so nothing was changed. Please try again in a moment.
manager-error-outcome-unknown = The database did not confirm in time whether this was saved. We are checking: as soon as it answers, the board will show what was saved.
manager-bot-busy = The bot is busy with other games{ $ahead ->
    [0] {""}
    [one] {""} (one is ahead of yours)
   *[other] {""} ({ $ahead } are ahead of yours)
}; it will move shortly.
manager-ratings = Ratings: { $changes }
manager-challenge-unrated = An unrated game: ratings will not change.
manager-clock = Clock { $control }: { $white } : { $black }
manager-clock-runs-out = { $side ->
    [white] White's
   *[black] Black's
} time runs out at { $time } UTC.
manager-clock-runs-out-live = { $side ->
    [white] White's
   *[black] Black's
} time runs out { $when }.
manager-first-move-by = { $name }: make your first move by { $time } UTC, or the game will be aborted.
manager-first-move-by-live = { $name }: make your first move, or the game will be aborted { $when }.
manager-reason-flag = { $name } ran out of time.
manager-reason-first-move = { $name } did not make a first move in time.
manager-time-blitz = blitz { $control }
manager-time-rapid = rapid { $control }
manager-time-days = { $days ->
    [one] { $days } day
   *[other] { $days } days
} per move
manager-days-left = { $control }: { $span } left (until { $when }).
manager-span-days = { $days ->
    [one] { $days } day
   *[other] { $days } days
}
manager-span-hours = { $hours } h
manager-span-minutes = { $minutes } min
manager-time-error-format = “{ $text }” is not a time control. Give the minutes per player and the seconds added per move, such as 3+2, 5+0, 10+5 or 0.5+2, or the days per move, such as “2 days”, or write “correspondence”.
manager-time-error-too-short = { $text }: that is too little time. The shortest is 0.1 minutes (6 seconds), such as 0.1+0 or 0.5+2.
manager-time-error-too-long = { $text }: that is too long. At most 180 minutes per player, such as 60+30; for a longer game give the days per move, such as “2 days”, or write “correspondence”.
manager-time-error-increment = { $text }: at most 60 seconds may be added per move, such as 3+2 or 10+5.
manager-time-error-days = { $text }: the days per move may be 1, 2, 3, 5, 7 or 14, such as “2 days”.
manager-reason-no-result = The game ended before both sides had moved: it has no result, and no rating changes.
manager-reason-forfeited = { $name } gave up before both sides had moved: a loss by forfeit in the tournament, and no rating changes.
manager-error-terms-changed = The challenge was changed after you saw it. Now: { $terms }. Press Accept again if that suits you.
manager-terms-rated = rated
manager-terms-unrated = unrated
tournament-error-no-such = There is no such tournament.
tournament-error-already-in = You are already in this tournament.
tournament-error-not-in = You are not in this tournament.
tournament-error-started = The tournament has started and takes no new players.
tournament-error-closed = This tournament is over or was cancelled.
tournament-error-full = The tournament is full.
tournament-error-not-allowed = Only the tournament's creator or an admin can do that.
tournament-error-round-paired = That round has already been paired.
tournament-error-unknown-game = This game is not part of the tournament.
tournament-error-too-few = Fewer than two players joined, so the tournament was cancelled.
tournament-error-pairing = The round could not be paired. It will be tried again in a moment.
tournament-error-bye-swiss-only = Half-point byes are only for Swiss tournaments.
tournament-error-bye-round = There are no half-point byes in the last round (round { $round }).
tournament-error-too-many-byes = You can take at most { $count } half-point byes in one tournament.
tournament-error-no-such-round = This tournament has only { $rounds ->
    [one] { $rounds } round
   *[other] { $rounds } rounds
}.
