# Надписи на доске — текстовой и на картинке.
board-store = Казан
board-tuzdek = Туздык
board-tuzdek-legend = X = туздык
board-to-move-white = Ход белых
board-to-move-black = Ход чёрных
board-turn-chip = ходит
board-winner-chip = победитель
board-white-wins = Белые победили, { $white }:{ $black }
board-black-wins = Чёрные победили, { $white }:{ $black }
board-draw = Ничья, { $white }:{ $black }
board-atsyrau = атсырау
board-last-move = Последний ход: { $notation }
board-captured = взято { $count }
board-tuzdek-made = взят туздык
board-legend-played = ход из лунки
board-legend-landed = последний шар
board-legend-mistake = сыгранный ход
board-legend-better = лучший ход
board-legend-hint = подсказка
