# Ойын менеджері: барлық платформаға ортақ жазулар, нәтижелер, шақырулар, батырмалар мен бас тартулар.
manager-bot-name = Бот ({ $level })
manager-game-title = { $id } ойыны
manager-turn = { $side ->
    [white] Ақтардың
   *[black] Қаралардың
} жүрісі: { $name }
manager-score = Қазандар: { $white } : { $black }
manager-last-move = Соңғы жүріс: { $name }, { $move }
manager-last-move-capture = Соңғы жүріс: { $name }, { $move }, { $balls } алды
manager-previous-move = Алдыңғы жүріс: { $name }, { $move }
manager-previous-move-capture = Алдыңғы жүріс: { $name }, { $move }, { $balls } алды
manager-draw-offered = { $name } тең ойын ұсынады.
manager-deadline = { $hours } сағат ішінде жүріңіз, әйтпесе уақыт бойынша жеңілген болып саналасыз.
manager-result-win = { $side ->
    [white] Ақтар
   *[black] Қаралар
} жеңді: { $name }.
manager-result-draw = Ойын тең аяқталды.
manager-result-aborted = Ойын тоқтатылды.
manager-reason-kazan = Жеңімпаздың қазанында құмалақтардың жартысынан көбі жиналды.
manager-reason-equal-kazans = Екі қазанда да { $balls } бар.
manager-reason-atsyrau = Атсырау: жүруге тиіс ойыншының отауларында құмалақ қалмады.
manager-reason-resigned = { $name } берілді.
manager-reason-agreed = Келісім бойынша тең ойын.
manager-reason-timeout = { $name }: жүріс уақыты бітті.
manager-variant-standard = әдеттегі ойын
manager-variant-balls = әр отауда { $count } құмалақтан
manager-variant-no-tuzdek = тұздықсыз
manager-variant-ninth-tuzdek = тоғызыншы отаудан да тұздық алуға болады
manager-challenge-open = { $challenger } қарсылас іздеп жүр: { $variant }.
manager-challenge-to = { $opponent }, сізді { $challenger } ойынға шақырады: { $variant }.
manager-challenge-rematch = { $opponent }, { $challenger } сізбен қайта ойнағысы келеді.
manager-challenge-accepted = Шақыру қабылданды: { $id } ойыны басталды.
manager-challenge-declined = { $opponent } шақырудан бас тартты.
manager-challenge-expired = Ешкім уақытында жауап бермеді: шақырудың мерзімі өтті.
manager-challenge-cancelled = { $challenger } шақыруын қайтарып алды.
manager-challenge-expires = Шақыру { $minutes } минут бойы күшінде.
manager-button-resign = Берілу
manager-button-offer-draw = Тең ойын ұсыну
manager-button-accept-draw = Келісу
manager-button-decline-draw = Бас тарту
manager-button-abort = Тоқтату
manager-button-rematch = Қайта ойнау
manager-button-review = Талдау
manager-button-accept = Қабылдау
manager-button-decline = Бас тарту
manager-button-cancel = Қайтарып алу
manager-games-none = Сізде қазір жүріп жатқан ойын жоқ.
manager-games-header = Сіздің жүріп жатқан ойындарыңыз:
manager-games-line = { $id }: { $white } — { $black }, { $number }-жүріс
manager-games-your-move = кезек сізде
manager-games-left = { $span } қалды
manager-alert-left = { $span } қалды
manager-alert-control-left = { $control }, { $remaining }
manager-alert-your-move = Кезек сізде. Қарсыласыңыз: { $opponent } ({ $status }).
manager-alert-your-moves = { $count } ойында кезек сізде:
manager-alert-line = • { $opponent } ({ $status })
manager-alert-more = …тағы { $count } ойын
manager-alert-warning = Жүріс уақыты бітуге жақын. Қарсыласыңыз: { $opponent } ({ $remaining }).
manager-alert-digest = Күндік шолу: { $count } ойында кезек сізде:
manager-alert-button = Тақта: { $opponent }
manager-notify-each = Сырттай ойындарыңыз туралы жеке хабарламалар: кезек сізге келген сайын хабарлама, ал жүріске берілген уақыт бітуге жақындағанда ескерту.
manager-notify-digest = Сырттай ойындарыңыз туралы жеке хабарламалар: күн сайын сағат { $hour }-де (UTC{ $offset }) бір шолу, ал жүріске берілген уақыт бітуге жақындағанда ескерту.
manager-notify-off = Сырттай ойындарыңыз туралы жеке хабарламалар өшірулі. Кезек сізге келгенін ойын жүріп жатқан чат бұрынғыдай хабарлайды.
manager-notify-quiet = Тыныш сағаттар: { $from }–{ $to } (UTC{ $offset }); осы уақытқа тура келген хабарлама тыныш сағаттар біткен соң жіберіледі.
manager-notify-no-quiet = Тыныш сағаттар жоқ.
manager-notify-saved = Сақталды.
manager-notify-no-hours = Сағатты жазыңыз: 0-ден 23-ке дейінгі сан (тыныш сағаттар үшін екі сан, мысалы, 23-08).
manager-notify-bad-hours = «{ $given }» сағат емес: 0-ден 23-ке дейінгі санды, ал тыныш сағаттар үшін екі санды жазыңыз, мысалы, 23-08.
manager-notify-bad-offset = «{ $given }» UTC-ден ығысу емес: мысалы, +05, -03:30 немесе utc деп жазыңыз.
manager-notify-bad-word = /notify командасында «{ $given }» деген баптау жоқ.
manager-notify-extra = «{ $given }» — артық сөз.
manager-error-not-your-turn = Қазір кезек сізде емес.
manager-error-not-your-game = Сіз бұл ойынға қатыспайсыз.
manager-error-not-for-you = Бұл шақыру сізге арналмаған.
manager-error-stale = Бұл тақта ескірді: ойында жаңа жүрістер жасалды. Соңғы тақтаны қараңыз.
manager-error-no-such-pit = { $pit }-отау жоқ: отаулар 1-ден 9-ға дейін нөмірленген.
manager-error-empty-pit = { $pit }-отау бос.
manager-error-tuzdek-pit = { $pit }-отау — тұздық: оның құмалақтары қарсыласыңызға тиесілі.
manager-error-game-over = Бұл ойын аяқталып қойған.
manager-error-no-such-game = Мұндай ойын жоқ.
manager-error-no-such-challenge = Мұндай шақыру жоқ.
manager-error-challenge-closed = Бұл шақыру енді күшінде емес.
manager-error-not-your-challenge = Уақыт бақылауын тек шақыру жіберген ойыншы ғана өзгерте алады.
manager-error-challenge-self = Өзіңізбен өзіңіз ойнай алмайсыз.
manager-error-challenge-bot = Ботпен ойнау үшін оны шақырмай-ақ, онымен жаңа ойын бастаңыз.
manager-error-limit-user-challenges = Сізде { $count } ашық шақыру бар. Жауап күтіңіз немесе біреуін қайтарып алыңыз.
manager-error-limit-chat-challenges = Бұл чатта { $count } ашық шақыру бар. Кейінірек қайталап көріңіз.
manager-error-limit-user-games = Сіз бір мезгілде { $count } ойын ойнап жатырсыз. Алдымен біреуін аяқтаңыз.
manager-error-limit-chat-games = Бұл чатта { $count } ойын жүріп жатыр. Кейінірек қайталап көріңіз.
manager-error-limit-user-tournaments = { $count ->
    [1] Сізде әлі аяқталмаған турнир бар. Ол аяқталғанша күтіңіз немесе оны болдырмаңыз.
   *[other] Сізде әлі аяқталмаған { $count } турнир бар. Біреуі аяқталғанша күтіңіз немесе біреуін болдырмаңыз.
}
manager-error-limit-chat-tournaments = { $count ->
    [1] Бұл чатта әлі аяқталмаған турнир бар. Ол аяқталған соң қайталап көріңіз.
   *[other] Бұл чатта әлі аяқталмаған { $count } турнир бар. Біреуі аяқталған соң қайталап көріңіз.
}
manager-error-game-not-over = Ойын әлі жүріп жатыр.
manager-error-no-game-here = Мұнда сіздің жүріп жатқан ойыныңыз жоқ.
manager-error-ambiguous = Мұнда сізде бірнеше ойын бар: қайсысы екенін көрсетіңіз.
manager-error-too-late-to-abort = Енді тоқтатуға болмайды: екі жақ та жүріп қойды. Берілуге не тең ойын ұсынуға болады.
manager-error-no-berserk-here = Берсеркті тек аренадағы уақыт бақылауы бар өз ойыныңызда ғана қосуға болады.
manager-error-too-late-to-berserk = Берсеркті қосуға енді кеш: оны тек алғашқы жүрісіңізге дейін қосуға болады.
manager-button-berserk = Берсерк
manager-error-draw-already-offered = Сіз тең ойын ұсынып қойғансыз.
manager-error-no-draw-offer = Сізге ешкім тең ойын ұсынған жоқ.
manager-error-bot-declines-draw = Бот тең ойыннан бас тартады: ойын жалғасады.
manager-error-rematch-exists = Бұл ойыннан кейін қайта ойнау ұсынылып қойған.
manager-error-nothing-to-review = Бұл ойында бірде-бір жүріс жасалмаған, талдайтын ештеңе жоқ.
manager-error-no-finished-game-here = Мен соңғы рет іске қосылғалы бері мұнда бірде-бір ойын аяқталған жоқ. Ойынның нөмірін жазыңыз — ол ойын тақтасында көрсетілген.
manager-error-reviews-busy = Бот қазір басқа ойындарды талдап жатыр. Бір минуттан соң қайталап көріңіз.
manager-error-review-pending = Алдыңғы талдауыңыз әлі дайындалып жатыр. Ол жарияланған соң келесісін сұраңыз.
manager-error-hints-only-against-bot = Кеңес тек ботпен ойнағанда беріледі.
manager-error-no-hints-left = Бұл ойындағы кеңестің бәрін пайдаланып қойдыңыз (бір ойынға { $count } кеңес).
manager-error-hints-busy = Бот қазір кеңес дайындап жатыр. Сәлден соң қайталап көріңіз.
manager-error-premoves-not-here = Шартты жүрістер тек екі адам арасындағы сырттай ойындарда болады.
manager-error-premoves-on-their-turn = Қазір кезек сізде: шартты жүрістерді кезек қарсыласта тұрғанда ғана енгізуге болады.
manager-error-too-many-premoves = Шартты жүрістер тым көп: ең көбі { $lines } нұсқа, әрқайсысында ең көбі { $moves } жүріс.
manager-error-premove-illegal = { $line }-нұсқа: { $step }-жүрісті ({ $pit }-отаудан) бұл позицияда жасауға болмайды.
manager-error-premoves-disagree = { $line }-нұсқа қарсыластың дәл сол жүрісіне жоғарыдағы нұсқалардың бірінен басқаша жауап береді. Қарсыластың әр жүрісіне бір ғана жауап болады.
manager-error-premove-line-unfinished = Нұсқа сіздің жауабыңызбен аяқталуы керек: жауап жүрісіңіздің отауын қосыңыз.
manager-error-explorer-moves = { $step }-жүрісті ({ $pit }) бұл позицияда жасауға болмайды. Бастапқы позициядан бері жүрілген отауларды ретімен жазыңыз (1-ден 9-ға дейін, жүрген ойыншының жағынан), мысалы: 7 7 2
manager-error-explorer-too-deep = Нұсқа тым ұзын: дебют анықтамалығы ең көбі { $max } жүрісті қамтиды.
premoves-button = Шартты жүріс
premoves-title = Шартты жүрістеріңіз (қарсылас: { $opponent })
premoves-legend = Әр жұпта: қарсыластың жүрісі → сіздің жауабыңыз.
premoves-none = Әзірге нұсқа жоқ.
premoves-draft = Жаңа нұсқа: { $moves }
premoves-next-theirs = Қарсылас жүруі мүмкін отауды басыңыз.
premoves-next-mine = Жауап жүрісіңіздің отауын басыңыз.
premoves-explain = Қарсылас нұсқаның алғашқы жүрісін жасаса, жауап жүрісіңіз бірден жасалады. Ешбір нұсқада жоқ жүріс барлық нұсқаны өшіреді. Нұсқаларды тек сіз көресіз.
premoves-closed = Қазір кезек сізде: шартты жүрістерді кезек қарсыласта тұрғанда ғана енгізуге болады.
premoves-ended = Ойын аяқталды.
premoves-add = Нұсқаны қосу
premoves-undo = Болдырмау
premoves-clear = Бәрін өшіру
premoves-done = Дайын
premoves-opened-private = Шартты жүрістер жеке чатымызда ашылды.
premoves-start-bot = Менімен жеке чат бастаңыз ({ $link }) — шартты жүрістер сонда ашылады.
manager-error-sign-in-refused = Бұл кіру сілтемесі жарамсыз: ол қате, бұрын қолданылған немесе мерзімі өткен. Жаңасын /web login (Discord-та /web signin:login) командасымен алыңыз.
manager-error-web-not-served = Бұл боттың сайты бапталмаған, сондықтан кіретін жер жоқ.
manager-error-storage = Бізде ақау шықты, ештеңе өзгермеді. Қайталап көріңіз.
manager-error-store-away = Дерекқор қазір жауап бермей тұр, сондықтан ештеңе өзгерген жоқ. Сәлден соң қайталап көріңіз.
manager-error-outcome-unknown = Дерекқор әрекеттің сақталғанын уақытында растамады. Тексеріп жатырмыз: дерекқор жауап бере салысымен, тақта сақталған күйді көрсетеді.
manager-bot-busy = Бот қазір басқа ойындармен айналысып жатыр{ $ahead ->
    [0] {""}
   *[other] {""} (кезекте ойыныңыздың алдында тағы { $ahead } ойын бар)
}, көп ұзамай жүреді.
manager-ratings = Рейтинг: { $changes }
manager-challenge-unrated = Рейтингсіз ойын: рейтинг өзгермейді.
manager-clock = Сағат { $control }: { $white } : { $black }
manager-clock-runs-out = { $side ->
    [white] Ақтардың
   *[black] Қаралардың
} уақыты UTC бойынша сағат { $time } болғанда бітеді.
manager-clock-runs-out-live = { $side ->
    [white] Ақтардың
   *[black] Қаралардың
} уақыты бітеді: { $when }.
manager-first-move-by = { $name }: алғашқы жүрісті UTC бойынша сағат { $time } болғанша жасаңыз, әйтпесе ойын тоқтатылады.
manager-first-move-by-live = { $name }: алғашқы жүрісті жасаңыз, әйтпесе ойын тоқтатылады ({ $when }).
manager-reason-flag = { $name }: сағаттағы уақыты бітті.
manager-reason-first-move = { $name }: алғашқы жүріс уақытында жасалмады.
manager-time-blitz = блиц { $control }
manager-time-rapid = рапид { $control }
manager-time-days = әр жүріске { $days } күн
manager-days-left = Уақыт: { $control }, { $span } қалды (мерзімі: { $when }).
manager-span-days = { $days } күн
manager-span-hours = { $hours } сағ
manager-span-minutes = { $minutes } мин
manager-time-error-format = «{ $text }» уақыт бақылауы емес. Әр ойыншыға берілетін минутты және әр жүрістен кейін қосылатын секундты жазыңыз, мысалы, 3+2, 5+0, 10+5 немесе 0,5+2; не бір жүріске берілетін күн санын жазыңыз, мысалы, «2 күн»; не «сырттай» деп жазыңыз.
manager-time-error-too-short = { $text }: уақыт тым аз. Ең азы — 0,1 минут (6 секунд), мысалы, 0,1+0 немесе 0,5+2.
manager-time-error-too-long = { $text }: уақыт тым көп. Әр ойыншыға 180 минуттан аспауы керек, мысалы, 60+30; ұзағырақ ойын үшін бір жүріске берілетін күн санын жазыңыз (мысалы, «2 күн») не «сырттай» деп жазыңыз.
manager-time-error-increment = { $text }: бір жүрістен кейін 60 секундтан артық қосуға болмайды, мысалы, 3+2 немесе 10+5.
manager-time-error-days = { $text }: бір жүріске 1, 2, 3, 5, 7 немесе 14 күн беруге болады, мысалы, «2 күн».
manager-reason-no-result = Ойын екі ойыншы да жүріс жасап үлгермей аяқталды: нәтижесі жоқ, рейтинг өзгермейді.
manager-reason-forfeited = { $name } екі ойыншы да жүріс жасап үлгермей тұрып ойыннан бас тартты: турнирде бұл техникалық жеңіліс, рейтинг өзгермейді.
manager-error-terms-changed = Сіз көріп тұрғанда шақырудың шарттары өзгерді. Енді: { $terms }. Сізге қолайлы болса, «Қабылдау» батырмасын қайта басыңыз.
manager-terms-rated = рейтинг есептеледі
manager-terms-unrated = рейтинг есептелмейді
tournament-error-no-such = Мұндай турнир жоқ.
tournament-error-already-in = Сіз бұл турнирге тіркеліп қойғансыз.
tournament-error-not-in = Сіз бұл турнирдің қатысушысы емессіз.
tournament-error-started = Турнир басталып кетті, жаңа қатысушылар қабылданбайды.
tournament-error-closed = Бұл турнир аяқталған немесе болдырылмаған.
tournament-error-full = Турнирде бос орын қалмады.
tournament-error-not-allowed = Мұны тек турнирдің ұйымдастырушысы немесе әкімші жасай алады.
tournament-error-round-paired = Бұл турдың жұптары құрылып қойған.
tournament-error-unknown-game = Бұл ойын турнирге жатпайды.
tournament-error-too-few = Екіден аз ойыншы тіркелді, сондықтан турнир болдырылмады.
tournament-error-pairing = Турдың жұптарын құру мүмкін болмады. Сәлден соң қайталап көреміз.
tournament-error-bye-swiss-only = Турды өткізіп жіберіп, жарты ұпай алу тек швейцар жүйесі бойынша турнирде ғана мүмкін.
tournament-error-bye-round = Соңғы турды ({ $round }-тур) өткізіп жіберіп, жарты ұпай алуға болмайды.
tournament-error-too-many-byes = Бір турнирде жарты ұпай алып, ең көбі { $count } тур өткізіп жіберуге болады.
tournament-error-no-such-round = Бұл турнирде бар болғаны { $rounds } тур.
