# Страницы партий в вебе (src/platform/present/web.rs).
web-title = { $white } — { $black } · Тогызкумалак
web-rating = рейтинг { $rating }
web-store = Казан
web-tuzdek = Туздык
web-start = В начало
web-back = Ход назад
web-forward = Ход вперёд
web-end = К последнему ходу
web-copy = Копировать позицию
web-copied = Скопировано
web-record = Запись партии (PGN)
web-moves = Ходы
web-live = Идёт сейчас
web-ply = Ход
web-language = Язык
web-not-found-title = Страница не найдена
web-not-found = По этому адресу партии нет. Проверьте ссылку, которую вам прислали.
web-not-found-player = По этому адресу страницы игрока нет. Проверьте ссылку, которую вам прислали.
web-not-found-tournament = По этому адресу турнира нет. Проверьте ссылку, которую вам прислали.
web-not-found-page = По этому адресу ничего нет. Проверьте ссылку, которую вам прислали.
web-unavailable-title = Попробуйте чуть позже
web-unavailable = Сайт сейчас не может прочитать данные. Попробуйте ещё раз чуть позже.
web-index-title = Партии в тогызкумалак
web-index-about = У каждой партии, сыгранной через бота, есть своя страница: откройте её по ссылке под доской в Discord или Telegram.
web-review = Разбор партии
# Страница справочника дебютов (задача 52, src/platform/present/web_explorer.rs) и ссылки
# на неё со страниц партий.
web-explorer-title = Справочник дебютов
web-explorer-link = Справочник дебютов
web-explorer-book-link = Открыть справочник там, где партия сошла с известных путей
web-explorer-move = Ход
web-explorer-games = Партии
web-explorer-results = Белые / ничья / чёрные
web-explorer-rating = Ср. рейтинг
web-explorer-total = Все ходы
web-explorer-white-wins = Победа белых
web-explorer-draws = Ничья
web-explorer-black-wins = Победа чёрных
web-explorer-source = Партии
web-explorer-category = Контроль времени
web-explorer-band = Рейтинг
web-explorer-any = Любой
web-explorer-last = Последние партии с этой позицией
web-explorer-last-unfiltered = Последние партии показываются только без фильтров по контролю времени и рейтингу: чтобы их увидеть, выберите «Любой» в обоих.
web-explorer-over = В этой позиции партия окончена.
web-explorer-play-pit = Ход из лунки { $pit }
web-explorer-game-moves = Дебютные ходы, учтённые справочником
web-explorer-bad-choice = В справочнике нет такого источника, контроля времени, рейтинга или варианта игры. Выберите нужное по ссылкам на странице справочника.
# Игра на странице (issue 50): кнопки вошедшего игрока, /me и ссылка для входа.
web-play-your-move = Ваш ход: выберите лунку.
web-play-their-move = Ждём хода соперника.
web-play-pit = Ход из лунки { $pit } ({ $balls })
web-play-resign-confirm = Сдаться в этой партии?
web-play-resign-yes = Да, сдаюсь
web-play-cancel = Отмена
web-play-hint-button = Подсказка
web-play-hint = Подсказка: сделайте ход из лунки { $pit } ({ $move }).
web-play-premoves-help = Один вариант в строке: по очереди лунки хода соперника и вашего ответа, например 3 7 5 2 (если соперник пойдёт из лунки 3, вы ответите из лунки 7; если затем он пойдёт из 5 — из 2).
web-play-premoves-save = Сохранить условные ходы
web-play-premoves-board = Задать на доске
web-play-premoves-back = Вернуться к партии
web-play-premoves-preview = На доске — позиция, к которой ведёт ваш вариант.
web-play-premove-theirs = Ход соперника из лунки { $pit } ({ $balls })
web-play-premove-mine = Ваш ответ из лунки { $pit } ({ $balls })
web-play-failed = Сайт не ответил. Проверьте подключение и попробуйте ещё раз.
web-play-forged = Запрос отклонён. Обновите страницу и попробуйте ещё раз.
web-play-limited = Слишком много действий за минуту. Подождите немного и попробуйте снова.
web-play-rematch-in-chat = Реванш можно предложить кнопкой под доской партии в чате.
web-play-bad-request = Страница запросила то, что сделать нельзя. Обновите её и попробуйте ещё раз.
web-me-title = Ваши партии
web-me-signed-in = Вы вошли как { $name }.
web-me-signed-out = Чтобы играть здесь, войдите: отправьте боту /web login (в Discord: /сайт вход:войти) и откройте ссылку из ответа.
web-me-none = У вас нет текущих партий.
web-me-your-turn = ваш ход
web-me-logout = Выйти
web-signin-confirm-title = Вход на сайт
web-signin-confirm = По этой одноразовой ссылке вы войдёте на сайт с этого устройства и сможете играть здесь свои партии. Если вы не запрашивали её у бота, просто закройте страницу.
web-signin-button = Войти
web-signin-refused-title = Эта ссылка для входа не работает
web-signin-refused = Ссылка уже использована, устарела или неверна. Попросите у бота новую командой /web login (в Discord: /сайт вход:войти).
# Ссылка на страницу партии под доской, в записи и в разборе.
web-page-button = 🌐 Страница партии
web-page-link = 🌐 Страница партии: { $url }
# /web login и /web logout (issue 50): ссылка для входа на сайт, только в личном чате.
web-login-link = Вот ваша ссылка для входа на сайт. Она сработает один раз в течение { $minutes ->
    [one] { $minutes } минуты
   *[other] { $minutes } минут
} и выполнит вход под вашим именем, поэтому никому её не пересылайте.
web-login-button = 🔑 Войти на сайт
web-login-private-only = Ссылки для входа я отправляю только в личном чате. Напишите мне там /web login.
web-logout-done = { $count ->
    [0] Вы не были авторизованы на сайте ни на одном устройстве.
    [one] Выход выполнен: завершена { $count } сессия на сайте.
    [few] Выход выполнен: завершены { $count } сессии на сайте.
   *[many] Выход выполнен: завершено { $count } сессий на сайте.
}
# Мини-приложение Telegram (/tg) и вход через него.
web-tg-title = Тогызкумалак в Telegram
web-tg-signing-in = Входим через Telegram…
web-tg-outside = Эта страница открывается внутри Telegram: нажмите «🌐 Страница партии» под доской партии в чате с ботом.
web-tg-refused = Telegram не подтвердил, кто вы, поэтому вход не выполнен. Закройте игру и откройте её снова из Telegram.
web-tg-stale = Игра открыта из Telegram слишком давно. Закройте её и откройте снова из Telegram.
web-tg-off = Вход через Telegram на этом сайте не настроен.
web-tg-failed = Не удалось связаться с сайтом. Проверьте подключение, затем закройте игру и откройте её снова.
web-tg-bad-request = Не удалось прочитать запрос на вход.
web-tg-too-many = Слишком много попыток входа за минуту. Подождите немного и попробуйте снова.
web-tg-unavailable = Сейчас войти не получается. Попробуйте чуть позже.
# The Discord Activity's page (src/platform/web/activity.rs, web/activity/activity.js).
web-activity-title = Тогызкумалак
web-activity-signing-in = Входим через Discord…
web-activity-refused = Discord не подтвердил, кто вы, поэтому играть здесь нельзя. Закройте активность и запустите её снова.
web-activity-unavailable = Discord или игровой сервер сейчас не отвечает. Закройте активность и попробуйте ещё раз чуть позже.
web-activity-outside = Эта страница открывается внутри Discord: запустите её командой /активность в канале.
web-activity-not-configured = У этого бота активность Discord не настроена.
web-activity-choose = Ваши партии: выберите партию, чтобы играть.
web-activity-no-games = У вас нет текущих партий. Начните партию в канале командой /вызов или /играть и снова откройте активность.
web-activity-your-turn = ваш ход
web-index-listed = Здесь показаны партии чатов, администраторы которых это разрешили (/web public on в Telegram, /web public:on в Discord), а также партии, сыгранные в терминале.
web-index-live = Идут сейчас
web-index-recent = Недавно завершились
web-index-no-live = Сейчас здесь не идёт ни одна партия.
web-index-no-recent = Здесь нет недавно завершённых партий.
web-index-players = { $white } — { $black }
web-leaderboards = Рейтинги игроков
web-leaderboard-player = Игрок
web-leaderboard-rating = Рейтинг
web-leaderboard-games = Партий
web-all-games = Все партии
# /web в чате: видны ли партии чата на главной странице сайта.
web-public-on = Теперь партии этого чата видны на главной странице сайта — смотреть их может кто угодно.
web-public-off = Партии этого чата больше не видны на главной странице сайта. Ссылки на них по-прежнему работают.
web-public-state-on = Партии этого чата видны на главной странице сайта. Администраторы могут это изменить командой { $command }.
web-public-state-off = Партии этого чата не видны на главной странице сайта. Администраторы могут показать их там командой { $command }.
web-public-admins = Показывать ли партии чата на сайте, решают только администраторы чата.
web-profile-on = Теперь на вашей странице сайта видны все ваши партии, в том числе из закрытых чатов, и поисковые системы могут её показывать.
web-profile-off = Теперь на вашей странице сайта видны только ваши партии из чатов, партии которых показаны на главной странице, а поисковые системы мы просим её не показывать.
web-profile-state-on = На вашей странице сайта видны все ваши партии, в том числе из закрытых чатов. Оставить только партии из чатов с главной страницы: { $command }
web-profile-state-off = На вашей странице сайта видны только ваши партии из чатов, партии которых показаны на главной странице. Показать все: { $command }
# Страницы игроков
web-player-title = { $name } · Тогызкумалак
web-player-platform = Играет через { $platform }
web-player-console = Играет в терминале
web-player-ratings = Рейтинги
web-player-category = Категория
web-player-results = Победы / ничьи / поражения
web-player-no-ratings = Рейтинговых партий пока нет.
web-player-graph = История рейтинга
web-player-graph-about = Рейтинг после каждой рейтинговой партии, самые ранние — слева. Нажмите на точку, чтобы открыть партию.
web-player-point = { $date } · { $category } · { $rating }
web-player-recent = Последние партии
web-player-no-recent = Завершённых партий пока нет.
web-player-against = соперник: { $opponent }
# Страницы турниров (src/platform/present/web_tournament.rs): таблица и партии турнира.
web-tournament-standings = Турнирная таблица
web-tournament-players = { $count ->
    [one] { $count } участник
    [few] { $count } участника
   *[many] { $count } участников
}
web-tournament-round = Тур { $round }
web-tournament-bye = Без соперника в этом туре: { $name }
web-tournament-playing = идёт
web-tournament-no-games = Пары ещё не составлены.
web-tournament-button = 🏆 Страница турнира
web-index-tournaments = Турниры
web-index-no-tournaments = Сейчас здесь нет ни турниров с открытой записью, ни идущих, ни недавно завершённых.
