# Дебют анықтамалығы (52-тапсырма): чат пен веб-бетке ортақ мәтіндер.

explorer-line-start = Бастапқы позиция
explorer-line = { $moves } жүрістерінен кейін
explorer-source-all = Барлық ойындар
explorer-source-masters = Шеберлер
explorer-source-club = Клуб
explorer-source-chat = Осы чат
explorer-source-player = { $name } ойындары
explorer-source-one-player = Бір ойыншының ойындары
explorer-band-unrated = Рейтингсіз
explorer-band-below-1200 = 1200-ден төмен
explorer-last-game = { $white } – { $black }, { $result } ({ $pit }-отаудан)
explorer-no-games = Бұл позицияға бірде-бір ойын жетпеген.
