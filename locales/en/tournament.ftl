# Tournaments in a chat: the announcement, standings, pairings and the podium.
tournament-title = 🏆 Tournament: { $terms }
tournament-arena = { $minutes }-minute arena
tournament-swiss = { $rounds ->
    [one] Swiss, { $rounds } round
   *[other] Swiss, { $rounds } rounds
}
tournament-rated = rated
tournament-unrated = unrated
tournament-created-by = Organised by { $name }
tournament-starts = Starts { $when }
tournament-arena-ends = Under way, ends { $when }
tournament-round = Round { $round } of { $rounds }
tournament-finished = The tournament is over.
tournament-cancelled = The tournament was cancelled.
tournament-no-players = Nobody has joined yet.
tournament-players = { $count ->
    [one] { $count } player: { $names }
   *[other] { $count } players: { $names }
}
tournament-and-more = and { $count } more
tournament-button-join = Join
tournament-button-leave = Leave
tournament-standings = Standings:
tournament-tiebreaks = Buchholz { $buchholz }, SB { $sb }
tournament-column-rank = #
tournament-column-player = Player
tournament-column-rating = Rating
tournament-column-score = Points
tournament-column-games = Games
tournament-column-tiebreaks = Tie-breaks
tournament-pairing-swiss = Round { $round }, board { $board }: { $white } (White) vs { $black } (Black)
tournament-pairing-arena = Arena game: { $white } (White) vs { $black } (Black)
tournament-pairings-private = Each player gets their board in a private message from the bot.
tournament-game-title-swiss = Game { $id } · round { $round }, board { $board }
tournament-game-title-arena = Game { $id } · arena
tournament-podium = { $title } is over!
tournament-podium-place = { $medal } { $name }: { $score }
tournament-cancelled-news = { $title } was cancelled.
tournament-joined = You have joined. { $title }
tournament-left = You have left. { $title }
tournament-bye-granted = You will sit out round { $round } with half a point. { $title }
