# History, stats, leaderboards and records (/history, /stats, /leaderboard, /record).
history-none = { $name } has no finished games yet.
history-title = Games of { $name }, page { $page }:
history-won = won
history-drawn = drawn
history-lost = lost
history-aborted = aborted
stats-provisional = A rating marked ? is provisional until more rated games in its category are played.
stats-casual = Unrated games: { $count } (wins/draws/losses: { $results })
stats-bot = Against the bot ({ $level }): { $results }
stats-streak = Longest winning streak: { $count }
leaderboard-global = Leaderboard: everyone on { $platform }
leaderboard-chat = Leaderboard of this chat
leaderboard-server = Leaderboard of this server
leaderboard-columns = Rating · wins/draws/losses
leaderboard-empty = Nobody here has played a rated game in the last 90 days.
leaderboard-pending = Not listed yet while their ratings are provisional (marked ?): { $count } { $count ->
    [one] player
   *[other] players
}. A rating is listed after about { $games } rated games.
leaderboard-you = Your place: { $place }
leaderboard-you-absent = You are not on this leaderboard yet: play a rated game here.
leaderboard-you-provisional = Your rating is still provisional (marked ?): you join the leaderboard after a few more rated games.
record-title = Record of game { $game }
record-no-moves = No moves yet.
history-none-you = You have no finished games yet.
history-title-you = Your games, page { $page }:
record-button = Record
record-moves-cut = … (every move is in the file)
category-blitz = Blitz
category-rapid = Rapid
category-correspondence = Correspondence
stats-title = Results of { $name }:
stats-title-you = Your results:
stats-category = { $category }: rating { $rating }, deviation { $deviation }; rated games: { $count } (wins/draws/losses: { $results })
stats-no-rated = No rated games yet.
leaderboard-more = One category in full: { $command }
