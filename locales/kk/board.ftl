# Тақтадағы жазулар: мәтіндік тақта мен сурет.
board-store = Қазан
board-tuzdek = Тұздық
board-tuzdek-legend = X = тұздық
board-to-move-white = Ақтардың жүрісі
board-to-move-black = Қаралардың жүрісі
board-turn-chip = кезегі
board-winner-chip = жеңімпаз
board-white-wins = Ақтар жеңді, { $white }:{ $black }
board-black-wins = Қаралар жеңді, { $white }:{ $black }
board-draw = Тең ойын, { $white }:{ $black }
board-atsyrau = атсырау
board-last-move = Соңғы жүріс: { $notation }
board-captured = { $count } құмалақ алынды
board-tuzdek-made = тұздық алынды
board-legend-played = жүріс жасалған отау
board-legend-landed = соңғы құмалақ
board-legend-mistake = жасалған жүріс
board-legend-better = жақсырақ жүріс
board-legend-hint = кеңес
