# Турниры в чате: объявление, таблица, пары и призёры.
tournament-title = 🏆 Турнир: { $terms }
tournament-arena = арена на { $minutes ->
    [one] { $minutes } минуту
    [few] { $minutes } минуты
   *[many] { $minutes } минут
}
tournament-swiss = { $rounds ->
    [one] швейцарская система, { $rounds } тур
    [few] швейцарская система, { $rounds } тура
   *[many] швейцарская система, { $rounds } туров
}
tournament-rated = на рейтинг
tournament-unrated = без рейтинга
tournament-created-by = Организатор: { $name }
tournament-starts = Начало: { $when }
tournament-arena-ends = Турнир идёт, окончание: { $when }
tournament-round = Тур { $round } из { $rounds }
tournament-finished = Турнир завершён.
tournament-cancelled = Турнир отменён.
tournament-no-players = Пока никто не записался.
tournament-players = { $count ->
    [one] { $count } участник: { $names }
    [few] { $count } участника: { $names }
   *[many] { $count } участников: { $names }
}
tournament-and-more = и ещё { $count }
tournament-button-join = Записаться
tournament-button-leave = Выйти
tournament-standings = Турнирная таблица:
tournament-tiebreaks = Бухгольц { $buchholz }, Бергер { $sb }
tournament-column-rank = №
tournament-column-player = Игрок
tournament-column-rating = Рейтинг
tournament-column-score = Очки
tournament-column-games = Партии
tournament-column-tiebreaks = Доп. показатели
tournament-pairing-swiss = Тур { $round }, доска { $board }: { $white } (белые) — { $black } (чёрные)
tournament-pairing-arena = Партия на арене: { $white } (белые) — { $black } (чёрные)
tournament-pairings-private = Каждый игрок получает свою доску в личных сообщениях от бота.
tournament-game-title-swiss = Партия { $id } · тур { $round }, доска { $board }
tournament-game-title-arena = Партия { $id } · арена
tournament-podium = { $title } — завершён!
tournament-podium-place = { $medal } { $name }: { $score }
tournament-cancelled-news = { $title } — отменён.
tournament-joined = Вы записались на турнир. { $title }
tournament-left = Вы вышли из турнира. { $title }
tournament-bye-granted = Вы пропускаете тур { $round } и получаете за него пол-очка. { $title }
