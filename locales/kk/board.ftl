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
# Чаттағы дебют анықтамалығы (issue 52): суреттегі кесте, батырмалар, жазу.
explorer-chat-games = { $games } · { $share }%
explorer-chat-move = { $pit } · { $share }%
explorer-chat-back = ◀ Артқа
explorer-chat-any-time = Уақыт: бәрі
explorer-chat-any-rating = Рейтинг: бәрі
explorer-chat-column-move = Отау
explorer-chat-column-games = Ойындар
explorer-chat-column-results = Ақ жеңді / тең / Қара жеңді
explorer-chat-column-rating = Орт. рейтинг
explorer-chat-last-games = Осы позиция кездескен соңғы ойындар:
explorer-chat-opening-button = Дебют
explorer-chat-not-yours = Бұл анықтамалықты басқа ойыншы ашқан. Өзіңіздікін ашу үшін /opening командасын жіберіңіз.
board-legend-played = жүріс жасалған отау
board-legend-landed = соңғы құмалақ
board-legend-mistake = жасалған жүріс
board-legend-better = жақсырақ жүріс
board-legend-hint = кеңес
