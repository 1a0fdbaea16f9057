# Задачи: позиция из настоящей партии, где один ход явно лучше всех.
puzzle-title = 🧩 Задача для игрока { $name }
puzzle-daily-title = 🧩 Задача дня, { $date }
puzzle-your-move = Ваш ход ({ $side }): найдите лучший.
puzzle-reply = { $side } отвечают ходом из лунки { $pit }.
puzzle-solved = ✅ Решено!
puzzle-failed = ❌ Неверно: нужен был ход из лунки { $pit }, а не из лунки { $played }.
puzzle-gain-captures = { $count ->
    [one] Этим ходом можно было взять { $count } шар.
    [few] Этим ходом можно было взять { $count } шара.
   *[many] Этим ходом можно было взять { $count } шаров.
}
puzzle-gain-tuzdek = Этим ходом можно было взять туздык.
puzzle-gain-gap = { $count ->
    [one] Любой другой ход теряет не меньше { $count } шара.
    [few] Любой другой ход теряет не меньше { $count } шаров.
   *[many] Любой другой ход теряет не меньше { $count } шаров.
}
puzzle-about = Рейтинг задачи { $rating } · темы: { $themes }
puzzle-your-rating = Ваш рейтинг в задачах: { $rating }
puzzle-streak = { $count ->
    [one] Серия задач дня: { $count } день
    [few] Серия задач дня: { $count } дня
   *[many] Серия задач дня: { $count } дней
}
puzzle-opponent = Соперник
puzzle-button-next = Ещё задача
puzzle-button-daily = Задача дня
puzzle-theme-capture = взятие
puzzle-theme-tuzdek = туздык
puzzle-theme-atsyrau = атсырау
puzzle-theme-defence = защита
puzzle-theme-endgame = эндшпиль
puzzle-theme-race = гонка до 82
puzzle-theme-none = тихий ход
puzzle-stats-title = 🧩 Задачи: { $name }
puzzle-stats-rating = Рейтинг в задачах: { $rating }
puzzle-stats-counts = Решено: { $solved }, не решено: { $failed }
puzzle-stats-streak = Серия задач дня: { $count } (лучшая: { $best })
puzzle-stats-daily-solved = Задача дня: решена ✅
puzzle-stats-daily-failed = Задача дня: не решена ❌
puzzle-stats-daily-open = Задача дня: ещё не решали
puzzle-stats-recent = Последние задачи: { $marks }
puzzle-stats-seen = Пройдено задач: { $seen } из { $total }
puzzle-board-platform = 🧩 Лучшие в решении задач
puzzle-board-chat = 🧩 Лучшие в решении задач в этом чате
puzzle-board-empty = Здесь ещё никто не решил ни одной задачи.
puzzle-board-row = { $place }. { $name } { $rating } ({ $solved } из { $tried })
puzzle-board-you = Вы: { $row }
puzzle-board-provisional = Пока ваш рейтинг в задачах предварительный, вас нет в таблице.
puzzle-daily-white = Ход белых: найдите лучший ход.
puzzle-daily-black = Ход чёрных: найдите лучший ход.
puzzle-daily-count = Решили здесь сегодня: { $solved } из { $tried }
puzzle-daily-names = Решили: { $names }
puzzle-daily-not-member = Вы не состоите в группе, откуда эта ссылка, поэтому ваша попытка решить задачу дня учитывается здесь, а не в той группе.
puzzle-error-not-yours = Это чужая задача. Свою можно получить командой /puzzle.
puzzle-error-over = Эта задача уже завершена. Следующую можно получить командой /puzzle.
puzzle-error-stale = Эта доска устарела: ходите на самой новой.
puzzle-error-daily-solved = Вы уже решили задачу дня. Новая появится в 00:00 UTC.
puzzle-error-daily-failed = Вы уже пытались решить задачу дня. Новая появится в 00:00 UTC.
puzzle-error-empty = Задач пока нет.
puzzle-you = Вы
puzzle-button-solve = Решить
puzzle-post-set = Задача дня будет появляться здесь каждый день в { $hour } UTC.
puzzle-post-off = Задача дня больше не будет появляться здесь.
puzzle-post-admins = Выбрать время задачи дня могут только администраторы чата.
