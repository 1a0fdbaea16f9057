# Справочник дебютов (задача 52): общее для чата и веб-страницы.

explorer-line-start = Начальная позиция
explorer-line = После ходов { $moves }
explorer-source-all = Все партии
explorer-source-masters = Мастера
explorer-source-club = Клуб
explorer-source-chat = Этот чат
explorer-source-player = Партии игрока { $name }
explorer-source-one-player = Партии одного игрока
explorer-band-unrated = Без рейтинга
explorer-band-below-1200 = Ниже 1200
explorer-last-game = { $white } – { $black }, { $result } (из лунки { $pit })
explorer-no-games = Ни одна партия не дошла до этой позиции.
