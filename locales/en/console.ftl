# The terminal game (`toguz play`).
console-welcome = Toguzqumalak against the bot. Type a pit number 1–9 to move, or help for the commands.
console-puzzle-welcome = Puzzles from played games. Type a pit number 1–9 to make your move, or help for the commands.
console-new-game = New game { $id }: you play { $side ->
    [white] White
   *[black] Black
} against the bot ({ $level }).
console-you = You
console-resumed = Resuming your unfinished game { $id }.
console-bot-played = { $name } played { $move }.
console-help =
    Commands:
      1 … 9    sow from your pit with that number
      board    show the board again
      record   the moves so far, in standard notation
      resign   give up this game
      draw     offer the bot a draw
      hint     the bot's suggested move for you (three hints per game)
      review   once the game is over: the bot's review, each side's accuracy and largest mistakes
      new      start a new game once this one is over
      games    your ongoing games, those where it is your move first
      history  your finished games (history NAME: someone else's)
      stats    your rating and results (stats NAME: someone else's)
      puzzle   a puzzle from a real game (puzzle daily: today's; puzzle stats; puzzle top)
      help     this list
      quit     leave; the game is saved and waits for you
console-puzzle-help =
    Commands:
      1 … 9          your move in the puzzle: sow from your pit with that number
      board          show the puzzle again
      puzzle         the next puzzle
      puzzle daily   today's puzzle
      puzzle stats   your puzzle rating and results
      puzzle top     the best solvers
      help           this list
      quit           leave; a puzzle you have not finished waits for you
console-unknown = I do not know the command “{ $command }”. Type help for the list.
console-finish-first = This game is still going on. Finish it or resign before starting a new one.
console-no-game = There is no game yet: type new to start one.
console-no-moves = No moves yet.
console-game-over = The game is over. Type review for the bot's review of it, new for another game, or quit to leave.
console-reviewing = The bot is going through the game…
console-saved = Game saved. Goodbye!
console-puzzle-saved = Your puzzles are saved. Goodbye!
# The shared results name players in the third person; the local player reads these instead.
console-you-win = You win.
console-you-resigned = You resigned.
console-you-timed-out = You ran out of time.
console-you-missed-deadline = You did not move in time.
console-you-offer-draw = You offer a draw.
console-new-local-game = New game { $id }: { $white } plays White, { $black } plays Black. The game is rated.
