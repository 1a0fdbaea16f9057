# Board messages: labels on the text and PNG boards.
board-store = Store
board-tuzdek = Tuzdek
board-tuzdek-legend = X = tuzdek
board-to-move-white = White to move
board-to-move-black = Black to move
board-turn-chip = to move
board-winner-chip = winner
board-white-wins = White wins, { $white }:{ $black }
board-black-wins = Black wins, { $white }:{ $black }
board-draw = Draw, { $white }:{ $black }
board-atsyrau = atsyrau
board-last-move = Last move: { $notation }
board-captured = captured { $count }
board-tuzdek-made = tuzdek made
# The opening explorer in chat (issue 52): its picture's table, its buttons, its caption.
explorer-chat-games = { $games } · { $share }%
explorer-chat-move = { $pit } · { $share }%
explorer-chat-back = ◀ Back
explorer-chat-any-time = Any speed
explorer-chat-any-rating = Any rating
explorer-chat-column-move = Pit
explorer-chat-column-games = Games
explorer-chat-column-results = White wins / draws / Black wins
explorer-chat-column-rating = Avg. rating
explorer-chat-last-games = Latest games that reached this position:
explorer-chat-opening-button = Opening
explorer-chat-not-yours = This explorer was opened by someone else. Send /opening to open your own.
board-legend-played = played
board-legend-landed = last ball
board-legend-mistake = played
board-legend-better = better move
board-legend-hint = hint
