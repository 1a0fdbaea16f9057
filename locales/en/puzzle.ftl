# Puzzles: a position from a real game where one move is clearly best.
puzzle-title = 🧩 Puzzle for { $name }
puzzle-daily-title = 🧩 Daily puzzle, { $date }
puzzle-your-move = Your move ({ $side }): find the best one.
puzzle-reply = { $side } replied with pit { $pit }.
puzzle-solved = ✅ Solved!
puzzle-failed = ❌ Not pit { $played }: the move was pit { $pit }.
puzzle-gain-captures = { $count ->
    [one] It captures { $count } ball.
   *[other] It captures { $count } balls.
}
puzzle-gain-tuzdek = It makes a tuzdek.
puzzle-gain-gap = { $count ->
    [one] Any other move loses at least { $count } ball.
   *[other] Any other move loses at least { $count } balls.
}
puzzle-about = Puzzle rating { $rating } · themes: { $themes }
puzzle-your-rating = Your puzzle rating: { $rating }
puzzle-streak = { $count ->
    [one] Daily streak: { $count } day
   *[other] Daily streak: { $count } days
}
puzzle-opponent = Opponent
puzzle-button-next = Next puzzle
puzzle-button-daily = Daily puzzle
puzzle-theme-capture = capture
puzzle-theme-tuzdek = tuzdek
puzzle-theme-atsyrau = atsyrau
puzzle-theme-defence = defence
puzzle-theme-endgame = endgame
puzzle-theme-race = race to 82
puzzle-theme-none = a quiet move
puzzle-stats-title = 🧩 Puzzles: { $name }
puzzle-stats-rating = Puzzle rating: { $rating }
puzzle-stats-counts = Solved { $solved }, missed { $failed }
puzzle-stats-streak = Daily streak: { $count } (best { $best })
puzzle-stats-daily-solved = Today's puzzle: solved ✅
puzzle-stats-daily-failed = Today's puzzle: missed ❌
puzzle-stats-daily-open = Today's puzzle: not tried yet
puzzle-stats-recent = Recent puzzles: { $marks }
puzzle-stats-seen = Puzzles seen: { $seen } of { $total }
puzzle-board-platform = 🧩 Best puzzle solvers
puzzle-board-chat = 🧩 Best puzzle solvers in this chat
puzzle-board-empty = Nobody has solved a puzzle here yet.
puzzle-board-row = { $place }. { $name } { $rating } ({ $solved } of { $tried })
puzzle-board-you = You: { $row }
puzzle-board-provisional = You are not on the leaderboard while your puzzle rating is provisional.
puzzle-daily-white = White to move: find the best move.
puzzle-daily-black = Black to move: find the best move.
puzzle-daily-count = Solved here today: { $solved } of { $tried }
puzzle-daily-names = Solved by: { $names }
puzzle-daily-not-member = You are not in the group this link comes from, so your attempt at today's puzzle counts here, not in that group's count.
puzzle-error-not-yours = This is someone else's puzzle. Ask for your own with /puzzle.
puzzle-error-over = This puzzle is over. Ask for the next one with /puzzle.
puzzle-error-stale = This board is out of date: play on the newest one.
puzzle-error-daily-solved = You have already solved today's puzzle. The next one comes at 00:00 UTC.
puzzle-error-daily-failed = You have already tried today's puzzle. The next one comes at 00:00 UTC.
puzzle-error-empty = There are no puzzles yet.
puzzle-you = You
puzzle-button-solve = Solve
puzzle-post-set = The daily puzzle will be posted here every day at { $hour } UTC.
puzzle-post-off = The daily puzzle will no longer be posted here.
puzzle-post-admins = Only the chat's admins can choose when the daily puzzle is posted.
