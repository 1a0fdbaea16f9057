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
board-legend-played = played
board-legend-landed = last ball
board-legend-mistake = played
board-legend-better = better move
board-legend-hint = hint
