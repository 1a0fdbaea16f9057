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
# Hints in a casual game against the bot.
hint-button = Hint ({ $left } left)
hint-caption = Hint: play pit { $pit } ({ $move }); it is marked on the board.
hint-left = { $left ->
    [0] That was your last hint in this game.
    [one] You have one hint left in this game.
   *[other] You have { $left } hints left in this game.
}
