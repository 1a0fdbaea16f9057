# Адаптер Discord: слэш-команды (названия и описания), справка и короткие сообщения.
discord-cmd-challenge = вызов
discord-cmd-challenge-desc = Вызвать участника сервера на партию в тогызкумалак
discord-cmd-play = играть
discord-cmd-play-desc = Сыграть партию с ботом
discord-cmd-board = доска
discord-cmd-board-desc = Ещё раз показать доску вашей партии здесь
discord-cmd-activity = активность
discord-cmd-activity-desc = Играть на настоящей доске прямо в этом канале (открывает активность)
discord-activity-off = У этого бота активность Discord не настроена.
discord-activity-button = 🎮 Играть на доске
discord-cmd-games = партии
discord-cmd-games-desc = Список ваших текущих партий
discord-cmd-resign = сдаться
discord-cmd-resign-desc = Сдаться в партии
discord-cmd-draw = ничья
discord-cmd-draw-desc = Предложить ничью или принять предложение соперника
discord-cmd-rematch = реванш
discord-cmd-rematch-desc = Предложить реванш после окончания партии
discord-cmd-review = разбор
discord-cmd-review-desc = Разбор завершённой партии ботом: график, крупные ошибки, точность
discord-cmd-help = помощь
discord-cmd-help-desc = Как играть и на каком языке бот говорит с вами
discord-opt-user = соперник
discord-opt-user-desc = Участник, которого вы вызываете
discord-opt-balls = шары
discord-opt-balls-desc = Сколько шаров в каждой лунке в начале (9 — обычная партия)
discord-opt-tuzdek = туздык
discord-opt-tuzdek-desc = Правило туздыка
discord-choice-tuzdek-standard = по обычным правилам (не в девятой лунке)
discord-choice-tuzdek-off = без туздыков
discord-choice-tuzdek-ninth = туздык можно взять и в девятой лунке
discord-opt-level = уровень
discord-opt-level-desc = Насколько сильно играет бот
discord-opt-time = время
discord-opt-time-desc = Контроль времени: 3+2 (минуты на игрока + секунды за ход), «2 дня» (на ход) или «заочная»
discord-opt-game = партия
discord-opt-game-desc = Номер партии, как на доске (например, ab12cd)
discord-opt-language = язык
discord-opt-language-desc = Язык, на котором бот говорит с вами
discord-help =
    Это **тогызкумалак** — казахская игра с девятью лунками. У каждого игрока ряд из девяти лунок по девять шаров и казан. В свой ход возьмите все шары из одной своей лунки и разложите их по одному вправо, начиная с этой же лунки. Если последний шар попал в лунку соперника и шаров там стало чётное число, они ваши. Побеждает тот, кто первым соберёт в казане больше 81 шара.
    `/вызов соперник:@участник` — вызвать кого-то здесь; ему придут кнопки «Принять» и «Отклонить».
    `/играть уровень:` — партия с ботом (и в личных сообщениях со мной).
    Для партии на часах добавьте к любой из них `время:3+2`: по 3 минуты каждому, плюс 2 секунды после каждого хода.
    Ход — кнопка лунки 1–9; на ней номер лунки и число шаров (`7 · 12`).
    `/доска` — снова показать партию, `/партии` — ваши партии, `/сдаться`, `/ничья`, `/реванш партия:`.
    `/разбор` (или кнопка «Разбор» под доской завершённой партии) — разбор партии ботом: график, ошибки и точность.
    `/история игрок:` — ваши сыгранные партии (или партии участника), сначала новые. `/запись партия:` — запись партии файлом. `/статистика игрок:` и `/лучшие` показывают рейтинги — отдельно по каждой категории (блиц, рапид, заочные); `/лучшие категория:` — полная таблица одной категории.
    `/турнир новый` — объявить здесь арену или турнир по швейцарской системе; участники записываются кнопкой под объявлением; `/турнир таблица` — турнирная таблица.
    `/задача решить` — задача из настоящей партии; `/задача дня` — задача дня. `/дебют` — справочник дебютов.
    `/сайт публично:вкл` — показывать партии сервера на сайте (управляющие сервером).
    `/помощь язык:` — сменить язык, на котором я с вами говорю (English, Русский, Қазақша).
    Названия команд Discord показывает на языке вашего приложения, а не на выбранном здесь: в английском интерфейсе это `/challenge`, `/play`, `/board`, `/games`, `/resign`, `/draw`, `/rematch`, `/review`, `/history`, `/record`, `/stats`, `/leaderboard`, `/tournament`, `/puzzle`, `/opening`, `/web`, `/help`.
discord-lang-set = Теперь я буду говорить с вами по-русски.
discord-cooldown = Подождите { $seconds ->
    [one] { $seconds } секунду
    [few] { $seconds } секунды
   *[other] { $seconds } секунд
}, прежде чем снова кого-то вызвать.
discord-bad-button = Эта кнопка не относится ни к одной известной мне партии. Команда /доска покажет вашу текущую доску.
discord-your-move = { $mention }, ваш ход в партии { $id }.
discord-game-over = { $mentions }: партия { $id } окончена. { $result }
discord-resigned = Вы сдались в партии { $id }.
discord-draw-offered = Вы предложили ничью в партии { $id }.
discord-challenge-in-dm = Вызовы — для серверов. Здесь, в личных сообщениях, можно сыграть со мной: /играть.
discord-unknown-user = Не удалось найти этого участника. Выберите его из списка, который показывает Discord.
discord-game-over-mention = { $mentions }, партия окончена.
discord-bad-option = Такого значения параметра я не знаю. Выберите его из списка, который показывает Discord.
discord-subcommand-missing = После /{ $command } выберите одну из подкоманд: { $subcommands }. Возможно, ваш Discord показывает устаревший список моих команд: перезапустите его или выберите команду из списка заново.
discord-challenge-other-bot = { $name } — бот, с ним сыграть не получится. Вызовите человека или сыграйте со мной: /играть.
discord-internal-error = У меня что-то пошло не так. Попробуйте ещё раз чуть позже. Команда /доска покажет, как сейчас выглядит ваша партия.
# Рейтинги и таблицы лучших (issue 16).
discord-opt-rated = рейтинговая
discord-opt-rated-desc = Идёт ли партия в рейтинг (по умолчанию да)
discord-cmd-stats = статистика
discord-cmd-stats-desc = Рейтинг и результаты игрока
discord-opt-player = игрок
discord-opt-player-desc = Чей рейтинг показать (если не указать — ваш)
discord-cmd-leaderboard = лучшие
discord-cmd-leaderboard-desc = Лучшие игроки этого сервера или всего Discord
discord-opt-scope = где
discord-opt-scope-desc = Игроки этого сервера или все игроки Discord
discord-choice-scope-server = Этот сервер
discord-choice-scope-global = Весь Discord
discord-opt-category = категория
discord-opt-category-desc = Полная таблица одной категории (если не указать — лучшие в каждой)
discord-leaderboard-more = /лучшие категория:
# История и записи партий (issue 16).
discord-cmd-history = история
discord-cmd-history-desc = Сыгранные партии игрока, сначала новые, с итоговой доской и записью каждой
discord-opt-history-player-desc = Чьи партии показать (если не указать — ваши)
discord-cmd-record = запись
discord-cmd-record-desc = Запись партии файлом и её ходы
discord-opt-record-game-desc = Номер партии (если не указать — последняя партия, закончившаяся здесь)
discord-history-page-gone = На этой странице истории ничего нет. Откройте историю заново командой /история.
discord-slow-down = Слишком много запросов подряд. Подождите минуту и попробуйте снова.
# Турниры (issue 33).
discord-cmd-tournament = турнир
discord-cmd-tournament-desc = Арены и турниры по швейцарской системе на этом сервере
discord-sub-new = новый
discord-sub-new-desc = Объявить турнир здесь; игроки записываются кнопкой под объявлением
discord-sub-standings = таблица
discord-sub-standings-desc = Турнирная таблица — текстом и картинкой
discord-sub-join = записаться
discord-sub-join-desc = Записаться на турнир (то же делает кнопка под объявлением)
discord-sub-leave = выйти
discord-sub-leave-desc = Выйти из турнира
discord-sub-cancel = отменить
discord-sub-cancel-desc = Отменить турнир (может организатор или тот, кто управляет сервером)
discord-sub-bot = бот
discord-sub-bot-desc = Записать бота на турнир с выбранным уровнем (организатор или управляющий сервером)
discord-sub-bye = пропуск
discord-sub-bye-desc = Пропустить тур швейцарки за пол-очка (если не указать номер — следующий)
discord-opt-bye-round = тур
discord-opt-bye-round-desc = Какой тур пропустить (если не указать — следующий)
discord-opt-tournament-id = номер
discord-opt-tournament-id-desc = Номер турнира, указанный под объявлением (если не указать — последний турнир здесь)
discord-opt-format = формат
discord-opt-format-desc = Арена (партии в течение заданного времени) или швейцарка (заданное число туров)
discord-choice-format-arena = Арена
discord-choice-format-swiss = Швейцарская система
discord-opt-minutes = минуты
discord-opt-minutes-desc = Сколько минут длится арена (если не указать — 30)
discord-opt-rounds = туры
discord-opt-rounds-desc = Сколько туров в швейцарке (если не указать — 5)
discord-opt-starts-in = начало_через
discord-opt-starts-in-desc = Через сколько минут начало (если не указать — через 5)
discord-opt-tournament-rated-desc = Идут ли партии турнира в рейтинг (по умолчанию да)
discord-tournament-footer = Турнир { $id } · /турнир таблица
discord-tournament-in-dm = Турниры проводятся на серверах: объявите турнир в канале сервера командой /турнир новый.
discord-tournament-cancel-done = Вы отменили турнир. { $title }
discord-tournament-bot-joined = { $name } записан на турнир. { $title }
discord-cmd-puzzle = задача
discord-cmd-puzzle-desc = Задачи из настоящих партий: одна в день для всех и ещё — под ваш уровень
discord-sub-puzzle-play = решить
discord-sub-puzzle-play-desc = Задача под ваш рейтинг в задачах (или та, что уже начата)
discord-sub-puzzle-daily = дня
discord-sub-puzzle-daily-desc = Задача дня, одна для всех
discord-sub-puzzle-stats = статистика
discord-sub-puzzle-stats-desc = Ваш рейтинг в задачах, результаты и серия задач дня
discord-sub-puzzle-top = лучшие
discord-sub-puzzle-top-desc = Лучшие в решении задач на этом сервере
discord-opt-puzzle-global = все
discord-opt-puzzle-global-desc = Все игроки Discord, а не только этого сервера
discord-sub-puzzle-post = публиковать
discord-sub-puzzle-post-desc = Публиковать задачу дня в этом канале каждый день (администраторы сервера)
discord-opt-puzzle-hour = час
discord-opt-puzzle-hour-desc = Час (UTC, 0–23); без него публикация прекращается
discord-cmd-opening = дебют
discord-cmd-opening-desc = Справочник дебютов: что играют мастера и игроки клуба в данной позиции
discord-opt-opening-moves = ходы
discord-opt-opening-moves-desc = Номера лунок, из которых ходили с начала партии, например 7 7 2 (без них — начальная позиция)
discord-opt-opening-source = источник
discord-opt-opening-source-desc = Чьи партии: все, мастера, клуб, чат или игрок:ИМЯ
discord-opening-source-how = Не знаю такого источника. Напишите: все, мастера, клуб, чат или игрок:ИМЯ (например, игрок:Айгерим).
# /notify: личные сообщения о заочных партиях (issue 51).
discord-cmd-notify = уведомления
discord-cmd-notify-desc = Личные сообщения о заочных партиях: когда присылать и тихие часы
discord-opt-notify-mode = режим
discord-opt-notify-mode-desc = Сообщение каждый раз, когда наступает ваш ход, сводка раз в день или ничего
discord-choice-notify-on = каждый ход
discord-choice-notify-digest = сводка раз в день
discord-choice-notify-off = не присылать
discord-opt-notify-hour = час
discord-opt-notify-hour-desc = Час ежедневной сводки (0–23, по вашему времени)
discord-opt-notify-quiet = тихие-часы
discord-opt-notify-quiet-desc = Часы без сообщений по вашему времени, например 23-08; «off» — без тихих часов
discord-opt-notify-utc = utc
discord-opt-notify-utc-desc = Ваш часовой пояс: смещение от UTC, например +05 или -03:30
discord-notify-usage = Изменить: `/уведомления режим:` (для сводки ещё `час:`); `/уведомления тихие-часы:23-08 utc:+05` — тихие часы, `тихие-часы:off` — без них. В английском интерфейсе Discord: `/notify mode: hour: quiet: utc:`.
# /web: видны ли партии сервера на сайте (issue 35).
discord-cmd-web = сайт
discord-cmd-web-desc = Видны ли партии этого сервера на главной странице сайта
discord-opt-web-public = публично
discord-opt-web-public-desc = Показывать партии сервера на сайте (управляющие сервером)
discord-opt-web-profile = профиль
discord-opt-web-profile-desc = Все ли ваши партии видны на вашей странице сайта или только партии из чатов с главной страницы
discord-choice-web-on = вкл
discord-opt-web-signin = вход
discord-opt-web-signin-desc = Получить одноразовую ссылку для входа на сайт или выйти на всех устройствах
discord-choice-web-login = войти
discord-choice-web-logout = выйти
discord-choice-web-off = выкл
