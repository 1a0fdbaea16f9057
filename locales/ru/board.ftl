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
# Дебютный справочник в чате (issue 52): таблица на картинке, кнопки, подпись.
explorer-chat-games = { $games } · { $share }%
explorer-chat-move = { $pit } · { $share }%
explorer-chat-back = ◀ Назад
explorer-chat-any-time = Любой контроль
explorer-chat-any-rating = Любой рейтинг
explorer-chat-column-move = Лунка
explorer-chat-column-games = Партии
explorer-chat-column-results = Победы белых / ничьи / победы чёрных
explorer-chat-column-rating = Ср. рейтинг
explorer-chat-last-games = Последние партии с этой позицией:
explorer-chat-opening-button = Дебют
explorer-chat-not-yours = Этот справочник открыл другой игрок. Отправьте /opening, чтобы открыть свой.
board-legend-played = ход из лунки
board-legend-landed = последний шар
board-legend-mistake = сыгранный ход
board-legend-better = лучший ход
board-legend-hint = подсказка
