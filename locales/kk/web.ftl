# Ойындардың веб-беттері (src/platform/present/web.rs).
web-title = { $white } — { $black } · Тоғызқұмалақ
web-rating = рейтингі { $rating }
web-store = Қазан
web-tuzdek = Тұздық
web-start = Ойын басына
web-back = Бір жүріс артқа
web-forward = Бір жүріс алға
web-end = Соңғы жүріске
web-copy = Позицияны көшіру
web-copied = Көшірілді
web-record = Ойын жазбасы (PGN)
web-moves = Жүрістер
web-live = Ойын жалғасуда
web-ply = Жүріс
web-language = Тіл
web-not-found-title = Бет табылмады
web-not-found = Бұл мекенжай бойынша ойын жоқ. Сізге жіберілген сілтемені тексеріңіз.
web-not-found-player = Бұл мекенжай бойынша ойыншы беті жоқ. Сізге жіберілген сілтемені тексеріңіз.
web-not-found-tournament = Бұл мекенжай бойынша турнир жоқ. Сізге жіберілген сілтемені тексеріңіз.
web-not-found-page = Бұл мекенжай бойынша ештеңе жоқ. Сізге жіберілген сілтемені тексеріңіз.
web-unavailable-title = Сәл кейінірек көріңіз
web-unavailable = Сайт қазір деректерді оқи алмай тұр. Сәл кейінірек қайталап көріңіз.
web-index-title = Тоғызқұмалақ ойындары
web-index-about = Бот арқылы ойналған әр ойынның жеке беті бар: оны ашу үшін Discord немесе Telegram-дағы ойын тақтасының астындағы сілтемені басыңыз.
web-review = Ойынды талдау
# Бетте ойнау (issue 50): кірген ойыншының батырмалары, /me және кіру сілтемесі.
web-play-your-move = Кезек сізде: отауды таңдаңыз.
web-play-their-move = Қарсыласыңыздың жүрісі күтілуде.
web-play-pit = { $pit }-отаудан жүру ({ $balls })
web-play-resign-confirm = Бұл ойында берілесіз бе?
web-play-resign-yes = Иә, берілемін
web-play-cancel = Болдырмау
web-play-hint-button = Кеңес
web-play-hint = Кеңес: { $pit }-отаудан жүріңіз ({ $move }).
web-play-failed = Сайт жауап бермеді. Байланысты тексеріп, қайталап көріңіз.
web-play-forged = Сұрау қабылданбады. Бетті жаңартып, қайталап көріңіз.
web-play-limited = Бір минутта тым көп әрекет жасалды. Сәл күтіп, қайталап көріңіз.
web-play-rematch-in-chat = Қайта ойнауды чаттағы ойын тақтасының астындағы батырмамен ұсыныңыз.
web-play-bad-request = Бет орындауға болмайтын әрекетті сұрады. Бетті жаңартып, қайталап көріңіз.
web-me-title = Сіздің ойындарыңыз
web-me-signed-in = Сіз { $name } ретінде кірдіңіз.
web-me-signed-out = Мұнда ойнау үшін кіріңіз: ботқа /web login (Discord-та /web signin:login) жіберіп, жауаптағы сілтемені ашыңыз.
web-me-none = Сізде қазір жүріп жатқан ойын жоқ.
web-me-your-turn = кезек сізде
web-me-logout = Шығу
web-signin-confirm-title = Сайтқа кіру
web-signin-confirm = Осы бір реттік сілтеме арқылы сайтқа осы құрылғыдан кіріп, ойындарыңызды осында ойнай аласыз. Егер сілтемені боттан сұрамаған болсаңыз, бұл бетті жабыңыз.
web-signin-button = Кіру
web-signin-refused-title = Бұл кіру сілтемесі жарамайды
web-signin-refused = Сілтеме бұрын қолданылған, мерзімі өткен немесе қате. Ботқа /web login (Discord-та /web signin:login) жіберіп, жаңасын сұраңыз.
# Тақтаның астындағы, жазбадағы және талдаудағы ойын бетінің сілтемесі.
web-page-button = 🌐 Ойын беті
web-page-link = 🌐 Ойын беті: { $url }
# /web login және /web logout (issue 50): сайтқа кіру сілтемесі, тек жеке чатта.
web-login-link = Сайтқа кіруге арналған сілтемеңіз осы. Ол алдағы { $minutes } минут ішінде бір рет қана жарамды және сізді өз атыңыздан кіргізеді: оны ешкімге бермеңіз.
web-login-button = 🔑 Сайтқа кіру
web-login-private-only = Кіру сілтемелерін тек жеке чатта жіберемін. Маған сол жерде /web login деп жазыңыз.
web-logout-done = { $count ->
    [0] Сіз сайтқа ешбір құрылғыдан кірмеген едіңіз.
   *[other] Сайттан шықтыңыз: { $count } сессия аяқталды.
}
# Telegram шағын қолданбасы (/tg) және ол арқылы кіру.
web-tg-title = Тоғызқұмалақ Telegram-да
web-tg-signing-in = Telegram арқылы кіру орындалуда…
web-tg-outside = Бұл бет Telegram ішінде ашылады: ботпен чаттағы ойын тақтасының астындағы «🌐 Ойын беті» батырмасын басыңыз.
web-tg-refused = Telegram сіздің кім екеніңізді растамады, сондықтан кіру орындалмады. Ойынды жауып, Telegram-нан қайта ашыңыз.
web-tg-stale = Ойын Telegram-нан ашылғанына көп уақыт өтті. Оны жауып, Telegram-нан қайта ашыңыз.
web-tg-off = Бұл сайтта Telegram арқылы кіру бапталмаған.
web-tg-failed = Сайтқа қосылу мүмкін болмады. Байланысты тексеріп, ойынды жауып, қайта ашыңыз.
web-tg-bad-request = Кіру сұрауын оқу мүмкін болмады.
web-tg-too-many = Бір минутта тым көп кіру әрекеті болды. Сәл күтіп, қайталап көріңіз.
web-tg-unavailable = Қазір кіру мүмкін емес. Сәлден соң қайталап көріңіз.
# The Discord Activity's page (src/platform/web/activity.rs, web/activity/activity.js).
web-activity-title = Тоғызқұмалақ
web-activity-signing-in = Discord арқылы кіру орындалуда…
web-activity-refused = Discord сіздің кім екеніңізді растамады, сондықтан мұнда ойнауға болмайды. Белсенділікті жауып, қайта іске қосыңыз.
web-activity-unavailable = Discord немесе ойын сервері қазір жауап бермей тұр. Белсенділікті жауып, сәлден соң қайталап көріңіз.
web-activity-outside = Бұл бет Discord ішінде ашылады: оны арнада /activity командасымен іске қосыңыз.
web-activity-not-configured = Бұл ботта Discord белсенділігі бапталмаған.
web-activity-choose = Ойындарыңыз: қайсысын ойнайтыныңызды таңдаңыз.
web-activity-no-games = Сізде жүріп жатқан ойын жоқ. Арнада /challenge немесе /play командасымен ойын бастап, белсенділікті қайта ашыңыз.
web-activity-your-turn = кезек сізде
web-index-listed = Мұнда әкімшілері рұқсат еткен чаттардың ойындары (Telegram-да /web public on, Discord-та /web public:on) және терминалда ойналған ойындар көрсетілген.
web-index-live = Қазір жүріп жатқан ойындар
web-index-recent = Жақында аяқталған ойындар
web-index-no-live = Қазір мұнда ешбір ойын жүріп жатқан жоқ.
web-index-no-recent = Мұнда жақында аяқталған ойын жоқ.
web-index-players = { $white } — { $black }
web-leaderboards = Ойыншылар рейтингі
web-leaderboard-player = Ойыншы
web-leaderboard-rating = Рейтинг
web-leaderboard-games = Ойын саны
web-all-games = Барлық ойындар
# Чаттағы /web: чат ойындары сайттың басты бетінде көріне ме.
web-public-on = Енді бұл чаттың ойындары сайттың басты бетінде көрсетіледі, оларды кез келген адам көре алады.
web-public-off = Бұл чаттың ойындары енді сайттың басты бетінде көрсетілмейді. Олардың сілтемелері бұрынғыдай ашыла береді.
web-public-state-on = Бұл чаттың ойындары сайттың басты бетінде көрсетіледі. Әкімшілер мұны { $command } командасымен өзгерте алады.
web-public-state-off = Бұл чаттың ойындары сайттың басты бетінде көрсетілмейді. Әкімшілер оларды { $command } командасымен басты бетке шығара алады.
web-public-admins = Чат ойындарын сайтта көрсету-көрсетпеуді тек чат әкімшілері шеше алады.
web-profile-on = Енді сайттағы бетіңізде барлық ойындарыңыз, жабық чаттардағылары да көрсетіледі, іздеу жүйелері де оны көрсете алады.
web-profile-off = Енді сайттағы бетіңізде тек ойындары басты бетте көрсетілетін чаттардағы ойындарыңыз көрінеді, ал іздеу жүйелерінен оны көрсетпеу сұралады.
web-profile-state-on = Сайттағы бетіңізде барлық ойындарыңыз, жабық чаттардағылары да көрсетіледі. Тек басты беттегі чаттардың ойындарын қалдыру үшін: { $command }
web-profile-state-off = Сайттағы бетіңізде тек ойындары басты бетте көрсетілетін чаттардағы ойындарыңыз көрінеді. Барлығын көрсету үшін: { $command }
# Ойыншылардың беттері
web-player-title = { $name } · Тоғызқұмалақ
web-player-platform = { $platform } арқылы ойнайды
web-player-console = Терминалда ойнайды
web-player-ratings = Рейтингтер
web-player-category = Санат
web-player-results = Жеңіс / тең / жеңіліс
web-player-no-ratings = Әзірге рейтингтік ойын жоқ.
web-player-graph = Рейтинг тарихы
web-player-graph-about = Әр рейтингтік ойыннан кейінгі рейтинг, ең ертелері сол жақта. Ойынды ашу үшін нүктені басыңыз.
web-player-point = { $date } · { $category } · { $rating }
web-player-recent = Соңғы ойындар
web-player-no-recent = Әзірге аяқталған ойын жоқ.
web-player-against = қарсыласы: { $opponent }
# Турнир беттері (src/platform/present/web_tournament.rs): турнир кестесі мен ойындары.
web-tournament-standings = Турнир кестесі
web-tournament-players = { $count } қатысушы
web-tournament-round = { $round }-тур
web-tournament-bye = Бұл турда қарсыласы жоқ: { $name }
web-tournament-playing = жүріп жатыр
web-tournament-no-games = Жұптар әлі құрылған жоқ.
web-tournament-button = 🏆 Турнир беті
web-index-tournaments = Турнирлер
web-index-no-tournaments = Қазір мұнда тіркеуі ашық, жүріп жатқан немесе жақында аяқталған турнир жоқ.
