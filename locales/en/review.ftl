# Game review: the summary, the evaluation graph and the review's buttons.
review-title = Game review: { $white } – { $black }. { $result }
review-accuracy = { $side }, { $name }: accuracy { $accuracy }%
review-accuracy-side = { $side }: accuracy { $accuracy }%
review-mistake = { $mark }) { $moveno } { $move } lost { $cost }; { $best } was better
review-no-mistakes = no mistake cost a ball or more
review-result-white = White won
review-result-black = Black won
review-result-draw = Draw
review-result-unknown = Result unknown
review-graph-title = Evaluation from White's side, in balls
review-graph-white-better = White is better
review-graph-black-better = Black is better
review-graph-move = move
review-button-mistake = Mistake { $mark }
review-board-caption = Before mistake { $mark }: { $moveno } { $played } was played, { $best } (marked) was better.
# The game's line in the opening explorer (issue 52): in the review and on its page.
review-book-move = move { $moveno } (pit { $pit })
review-book-novelty = { $plies ->
    [0] A novelty from the very first move: no game in the explorer opens with { $novelty }.
    [one] The game followed the explorer's games for 1 half-move; the novelty was { $novelty }.
   *[other] The game followed the explorer's games for { $plies } half-moves; the novelty was { $novelty }.
}
review-book-known = { $plies ->
    [one] The game's only half-move is already in the explorer's games.
   *[other] All { $plies } half-moves of the game are already in the explorer's games.
}
review-book-deeper = The game followed the explorer's games for all { $plies } half-moves it covers: no novelty in the opening.
# Hints in a casual game against the bot.
hint-button = Hint ({ $left } left)
hint-caption = Hint: play pit { $pit } ({ $move }); it is marked on the board.
hint-left = { $left ->
    [0] That was your last hint in this game.
    [one] You have one hint left in this game.
   *[other] You have { $left } hints left in this game.
}
