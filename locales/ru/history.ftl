# История, статистика, рейтинги и записи партий (/history, /stats, /leaderboard, /record).
history-none = У игрока { $name } пока нет завершённых партий.
history-title = Партии игрока { $name }, страница { $page }:
history-won = победа
history-drawn = ничья
history-lost = поражение
history-aborted = прервана
stats-provisional = Рейтинг со знаком «?» пока предварительный: в этой категории сыграно ещё мало рейтинговых партий.
stats-casual = Партии без рейтинга: { $count } (победы/ничьи/поражения: { $results })
stats-bot = Партии с ботом ({ $level }): { $results }
stats-streak = Самая длинная серия побед: { $count }
leaderboard-global = Рейтинг всех игроков в { $platform }
leaderboard-chat = Рейтинг игроков этого чата
leaderboard-server = Рейтинг игроков этого сервера
leaderboard-columns = Рейтинг · победы/ничьи/поражения
leaderboard-empty = За последние 90 дней здесь никто не играл рейтинговых партий.
leaderboard-pending = Ещё не попали в таблицу, потому что их рейтинг пока предварительный (со знаком «?»): { $count } { $count ->
    [one] игрок
    [few] игрока
   *[many] игроков
}. Рейтинг попадает в таблицу примерно после { $games } { $games ->
    [one] рейтинговой партии
   *[other] рейтинговых партий
}.
leaderboard-you = Ваше место: { $place }
leaderboard-you-absent = Вас пока нет в этом рейтинге: сыграйте здесь рейтинговую партию.
leaderboard-you-provisional = Ваш рейтинг пока предварительный (со знаком «?»): в общий список вы попадёте после ещё нескольких рейтинговых партий.
record-title = Запись партии { $game }
record-no-moves = Ходов ещё не было.
history-none-you = У вас пока нет завершённых партий.
history-title-you = Ваши партии, страница { $page }:
record-button = Запись
record-moves-cut = … (все ходы — в файле)
category-blitz = Блиц
category-rapid = Рапид
category-correspondence = Заочные
stats-title = Результаты игрока { $name }:
stats-title-you = Ваши результаты:
stats-category = { $category }: рейтинг { $rating }, отклонение { $deviation }; рейтинговые партии: { $count } (победы/ничьи/поражения: { $results })
stats-no-rated = Рейтинговых партий пока нет.
leaderboard-more = Полная таблица одной категории: { $command }
