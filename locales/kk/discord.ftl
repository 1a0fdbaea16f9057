# Discord адаптері: слэш-командалар (атаулары мен сипаттамалары), анықтама және қысқа хабарлар.
# Discord-та қазақ тілі жоқ: командалар тек en-US, en-GB және ru үшін аударылады, ал қазақша
# мәтін хабарламаларда көрінеді.
discord-cmd-challenge = шақыру
discord-cmd-challenge-desc = Сервердегі біреуді тоғызқұмалақ ойнауға шақыру
discord-cmd-play = ойнау
discord-cmd-play-desc = Ботпен ойнау
discord-cmd-board = тақта
discord-cmd-board-desc = Осындағы ойыныңыздың тақтасын қайта көрсету
discord-cmd-activity = белсенділік
discord-cmd-activity-desc = Осы арнада нағыз тақтада ойнау (белсенділікті ашады)
discord-activity-off = Бұл ботта Discord белсенділігі бапталмаған.
discord-activity-button = 🎮 Тақтада ойнау
discord-cmd-games = ойындар
discord-cmd-games-desc = Жүріп жатқан ойындарыңыздың тізімі
discord-cmd-resign = берілу
discord-cmd-resign-desc = Ойында берілу
discord-cmd-draw = тең
discord-cmd-draw-desc = Тең ойын ұсыну немесе қарсыласыңыздың ұсынысын қабылдау
discord-cmd-rematch = реванш
discord-cmd-rematch-desc = Біткен ойыннан кейін қайта ойнауды ұсыну
discord-cmd-review = талдау
discord-cmd-review-desc = Аяқталған ойынды талдау: бағалау графигі, ең ірі қателер, дәлдік
discord-cmd-help = анықтама
discord-cmd-help-desc = Ойын тәртібі және боттың сізбен сөйлесетін тілі
discord-opt-user = қарсылас
discord-opt-user-desc = Сіз шақыратын адам
discord-opt-balls = құмалақ
discord-opt-balls-desc = Басында әр отаудағы құмалақ саны (9 — әдеттегі ойын)
discord-opt-tuzdek = тұздық
discord-opt-tuzdek-desc = Тұздық ережесі
discord-choice-tuzdek-standard = әдеттегі (тоғызыншы отаудан тұздық алынбайды)
discord-choice-tuzdek-off = тұздықсыз
discord-choice-tuzdek-ninth = тоғызыншы отаудан да тұздық алуға болады
discord-opt-level = деңгей
discord-opt-level-desc = Бот қаншалықты күшті ойнайды
discord-opt-time = уақыт
discord-opt-time-desc = Уақыт бақылауы: 3+2 (ойыншыға минут + әр жүрістен кейін секунд), «2 күн» (бір жүріске) не «сырттай»
discord-opt-game = ойын
discord-opt-game-desc = Тақтада көрсетілген ойын нөмірі (мысалы, ab12cd)
discord-opt-language = тіл
discord-opt-language-desc = Бот сізбен сөйлесетін тіл
discord-help =
    Бұл — **тоғызқұмалақ**, тоғыз отаулы қазақтың ұлттық ойыны. Әр ойыншының тоғыз отауы (әрқайсысында тоғыз құмалақтан) және бір қазаны бар. Өз кезегіңізде отауларыңыздың біріндегі құмалақтың бәрін алып, сол отаудан бастап оңға қарай бір-бірден салып шығасыз. Соңғы құмалақ қарсыластың отауына түсіп, ондағы құмалақ саны жұп болса, олар сіздің қазаныңызға түседі. Қазанына 81-ден көп құмалақ жинаған ойыншы жеңеді.
    `/challenge opponent:@адам` — осындағы біреуді ойынға шақыру; оған «Қабылдау» мен «Бас тарту» батырмалары келеді.
    `/play level:` — ботпен ойнау (менімен жеке хатта да).
    Сағатпен ойнау үшін екеуінің біріне `time:3+2` қосыңыз: әр ойыншыға 3 минут, әр жүрістен кейін 2 секунд қосылады.
    Жүру үшін отау батырмасын басыңыз (`7 · 12`: 7-отау, 12 құмалақ).
    `/board` — ойынды қайта көрсету, `/games` — ойындарыңыз, `/resign` — берілу, `/draw` — тең ойын, `/rematch game:` — қайта ойнау.
    `/review` (не тақта астындағы «Талдау» батырмасы) — бот ойынды талдайды: график, қателер, дәлдік.
    `/history player:` — аяқталған ойындарыңыз (не басқа адамның). `/record game:` — ойын жазбасы файл түрінде. `/stats player:` және `/leaderboard` рейтингті әр санат бойынша көрсетеді (блиц, рапид, сырттай); `/leaderboard category:` — бір санаттың толық кестесі.
    `/tournament new` — осында арена не швейцар жүйесі бойынша турнир жариялау, ойыншылар оның астындағы батырмамен қосылады; `/tournament standings` — турнир кестесі.
    `/puzzle play` — есеп, `/puzzle daily` — күн есебі, `/opening` — дебюттер.
    `/web public:on` — сервер ойындарын сайтта көрсету (әкімшілер).
    `/help language:` — сізбен сөйлесетін тілімді ауыстыру (English, Русский, Қазақша).
    Discord команда атауларын мұнда таңдалған тілде емес, қосымшаңыздың тілінде көрсетеді (Discord-та қазақ тілі жоқ); орысша интерфейсте олар: `/вызов`, `/играть`, `/доска`, `/партии`, `/сдаться`, `/ничья`, `/реванш`, `/разбор`, `/история`, `/запись`, `/статистика`, `/лучшие`, `/турнир`, `/задача`, `/дебют`, `/сайт`, `/помощь`.
discord-lang-set = Енді сізбен қазақша сөйлесемін.
discord-cooldown = Қайта шақырмас бұрын { $seconds } секунд күтіңіз.
discord-bad-button = Бұл батырма мен білетін ешбір ойынға жатпайды. Қазіргі тақтаңызды /board командасы көрсетеді.
discord-your-move = { $mention }, { $id } ойынында кезек сізде.
discord-game-over = { $mentions }: { $id } ойыны аяқталды. { $result }
discord-resigned = Сіз { $id } ойынында берілдіңіз.
discord-draw-offered = Сіз { $id } ойынында тең ойын ұсындыңыз.
discord-challenge-in-dm = Шақыру серверлерге арналған. Мұнда, жеке хатта, менімен /play арқылы ойнай аласыз.
discord-unknown-user = Бұл адамды таба алмадым. Оны Discord көрсететін тізімнен таңдаңыз.
discord-game-over-mention = { $mentions }, ойын аяқталды.
discord-bad-option = Параметрдің мұндай мәнін білмеймін. Оны Discord көрсететін тізімнен таңдаңыз.
discord-subcommand-missing = /{ $command } командасынан кейін оның ішкі командаларының бірін таңдаңыз: { $subcommands }. Discord-ыңыз менің командаларымның ескі тізімін көрсетіп тұрған болуы мүмкін: оны қайта іске қосыңыз немесе команданы тізімнен қайта таңдаңыз.
discord-challenge-other-bot = { $name } — бот, ол ойнай алмайды. Адамды шақырыңыз немесе менімен /play арқылы ойнаңыз.
discord-internal-error = Менде бір ақау шықты. Сәлден соң қайталап көріңіз, ал ойыныңыздың қазіргі күйін /board командасы көрсетеді.
# Рейтинг және үздіктер кестесі (issue 16).
discord-opt-rated = рейтингтік
discord-opt-rated-desc = Ойын рейтингке есептеле ме (әдепкіде иә)
discord-cmd-stats = статистика
discord-cmd-stats-desc = Ойыншының рейтингі мен нәтижелері
discord-opt-player = ойыншы
discord-opt-player-desc = Кімнің рейтингін көрсету керек (бос қалса — сіздікі)
discord-cmd-leaderboard = үздіктер
discord-cmd-leaderboard-desc = Осы сервердің немесе бүкіл Discord-тың үздік ойыншылары
discord-opt-scope = аумақ
discord-opt-scope-desc = Осы сервердің ойыншылары немесе Discord-тағы барлық ойыншы
discord-choice-scope-server = Осы сервер
discord-choice-scope-global = Бүкіл Discord
discord-opt-category = санат
discord-opt-category-desc = Бір санаттың толық кестесі (бос қалса — әр санаттың үздіктері)
discord-leaderboard-more = /leaderboard category:
# Ойындар тарихы және ойын жазбалары (issue 16).
discord-cmd-history = тарих
discord-cmd-history-desc = Ойыншының аяқталған ойындары, ең соңғысынан бастап, әрқайсысының тақтасы мен жазбасымен
discord-opt-history-player-desc = Кімнің ойындарын көрсету керек (бос қалса — сіздікі)
discord-cmd-record = жазба
discord-cmd-record-desc = Ойын жазбасы файл түрінде, жүрістерімен бірге
discord-opt-record-game-desc = Ойын нөмірі (бос қалса — осында ең соңғы аяқталған ойын)
discord-history-page-gone = Тарихтың бұл бетінде ештеңе жоқ. Тарихты /history командасымен қайта ашыңыз.
discord-slow-down = Сұраулар тым жиі келіп жатыр. Бір минут күтіп, қайта сұраңыз.
# Турнирлер (issue 33).
discord-cmd-tournament = турнир
discord-cmd-tournament-desc = Осы сервердегі арена және швейцар жүйесі бойынша турнирлер
discord-sub-new = жаңа
discord-sub-new-desc = Осында турнир жариялау; ойыншылар хабарландырудың астындағы батырмамен қосылады
discord-sub-standings = кесте
discord-sub-standings-desc = Турнир кестесі — мәтін және сурет түрінде
discord-sub-join = қосылу
discord-sub-join-desc = Турнирге қосылу (хабарландырудың астындағы батырма да осыны істейді)
discord-sub-leave = шығу
discord-sub-leave-desc = Турнирден шығу
discord-sub-cancel = болдырмау
discord-sub-cancel-desc = Турнирді болдырмау (ұйымдастырушы не серверді басқаратын адам)
discord-sub-bot = бот
discord-sub-bot-desc = Ботты таңдалған деңгеймен турнирге қосу (ұйымдастырушы не серверді басқаратын адам)
discord-sub-bye = өткізу
discord-sub-bye-desc = Швейцар жүйесі бойынша турнирде турды өткізіп жіберіп, жарты ұпай алу (көрсетілмесе — келесі тур)
discord-opt-bye-round = тур
discord-opt-bye-round-desc = Өткізіп жіберетін тур (көрсетілмесе — келесісі)
discord-opt-tournament-id = нөмір
discord-opt-tournament-id-desc = Хабарландырудың астында көрсетілген турнир нөмірі (көрсетілмесе — осындағы ең соңғысы)
discord-opt-format = формат
discord-opt-format-desc = Арена (белгіленген уақыт бойы ойналады) не швейцар жүйесі (турлар саны белгіленеді)
discord-choice-format-arena = Арена
discord-choice-format-swiss = Швейцар жүйесі
discord-opt-minutes = минут
discord-opt-minutes-desc = Арена неше минутқа созылады (көрсетілмесе — 30)
discord-opt-rounds = тур
discord-opt-rounds-desc = Швейцар жүйесі бойынша турнирде неше тур болады (көрсетілмесе — 5)
discord-opt-starts-in = басталуы
discord-opt-starts-in-desc = Неше минуттан кейін басталады (көрсетілмесе — 5 минуттан кейін)
discord-opt-tournament-rated-desc = Турнир ойындары рейтингке есептеле ме (әдепкіде иә)
discord-tournament-footer = Турнир { $id } · /tournament standings
discord-tournament-in-dm = Турнирлер серверлерде өтеді: сервер арнасында /tournament new командасымен турнир жариялаңыз.
discord-tournament-cancel-done = Сіз турнирді болдырмадыңыз. { $title }
discord-tournament-bot-joined = { $name } турнирге қосылды. { $title }
discord-cmd-puzzle = есеп
discord-cmd-puzzle-desc = Шынайы ойындардан алынған есептер: күніне біреуі бәріне ортақ, қалғаны деңгейіңізге сай
discord-sub-puzzle-play = шешу
discord-sub-puzzle-play-desc = Есеп шешу рейтингіңізге сай есеп (не бастаған есебіңіз)
discord-sub-puzzle-daily = күн
discord-sub-puzzle-daily-desc = Күн есебі, бәріне бірдей
discord-sub-puzzle-stats = статистика
discord-sub-puzzle-stats-desc = Есеп шешу рейтингіңіз, нәтижелеріңіз және күн есебі тізбегі
discord-sub-puzzle-top = үздіктер
discord-sub-puzzle-top-desc = Осы сервердің есеп шешудегі үздіктері
discord-opt-puzzle-global = жалпы
discord-opt-puzzle-global-desc = Осы сервер емес, Discord-тағы барлық ойыншылар
discord-sub-puzzle-post = жариялау
discord-sub-puzzle-post-desc = Күн есебін осы арнада күн сайын жариялау (сервер әкімшілері)
discord-opt-puzzle-hour = сағат
discord-opt-puzzle-hour-desc = Сағат (UTC, 0–23); көрсетілмесе, жариялау тоқтайды
discord-cmd-opening = opening
discord-cmd-opening-desc = Дебют анықтамалығы: берілген позицияда шеберлер мен клуб ойыншылары не ойнайды
discord-opt-opening-moves = moves
discord-opt-opening-moves-desc = Ойын басынан бергі жүрістер (отау нөмірлері), мысалы, 7 7 2 (бос қалса — бастапқы позиция)
discord-opt-opening-source = source
discord-opt-opening-source-desc = Кімнің ойындары: барлығы, шеберлер, клуб, чат не ойыншы:АТЫ
discord-opening-source-how = Мұндай дереккөзді білмеймін. Былай жазыңыз: барлығы, шеберлер, клуб, чат не ойыншы:АТЫ (мысалы, ойыншы:Айгерим).
# /notify: сырттай ойындар туралы жеке хабарлар (issue 51).
discord-cmd-notify = хабарламалар
discord-cmd-notify-desc = Сырттай ойындарыңыз туралы жеке хабарламалар: қашан жіберу және тыныш сағаттар
discord-opt-notify-mode = режим
discord-opt-notify-mode-desc = Кезек сізге келген сайын хабарлама, күніне бір шолу немесе ештеңе
discord-choice-notify-on = әр жүріс сайын
discord-choice-notify-digest = күндік шолу
discord-choice-notify-off = өшіру
discord-opt-notify-hour = сағат
discord-opt-notify-hour-desc = Күндік шолудың сағаты (0–23, өз уақытыңыз бойынша)
discord-opt-notify-quiet = тыныш-сағаттар
discord-opt-notify-quiet-desc = Хабарлама жіберілмейтін сағаттар (өз уақытыңыз бойынша), мысалы, 23-08; оларсыз: «off»
discord-opt-notify-utc = utc
discord-opt-notify-utc-desc = Уақыт белдеуіңіз: UTC-ден ығысу, мысалы, +05 немесе -03:30
discord-notify-usage = Өзгерту үшін: `/notify mode:` (шолу үшін `hour:` параметрін де қосыңыз); `/notify quiet:23-08 utc:+05` — тыныш сағаттар, `quiet:off` — тыныш сағаттарсыз.
# /web: сервер ойындары сайтта көріне ме (issue 35).
discord-cmd-web = сайт
discord-cmd-web-desc = Осы сервердің ойындары сайттың басты бетінде көріне ме
discord-opt-web-public = ашық
discord-opt-web-public-desc = Сервер ойындарын сайтта көрсету (серверді басқаратындар)
discord-opt-web-profile = профиль
discord-opt-web-profile-desc = Сайттағы бетіңізде барлық ойындарыңыз көріне ме, әлде тек басты беттегі чаттардікі ме
discord-choice-web-on = қосу
discord-opt-web-signin = кіру
discord-opt-web-signin-desc = Сайтқа кіруге арналған бір реттік сілтеме алу немесе барлық құрылғыдан шығу
discord-choice-web-login = кіру
discord-choice-web-logout = шығу
discord-choice-web-off = өшіру
