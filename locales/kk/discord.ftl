# Discord адаптері: слэш-командалар (атаулары мен сипаттамалары), анықтама және қысқа хабарлар.
# Discord-та қазақ тілі жоқ: командалар тек en-US, en-GB және ru үшін аударылады, ал қазақша
# мәтін хабарламаларда көрінеді.
discord-cmd-challenge = шақыру
discord-cmd-challenge-desc = Сервердегі біреуді тоғызқұмалақ ойнауға шақыру
discord-cmd-play = ойнау
discord-cmd-play-desc = Ботпен ойнау
discord-cmd-board = тақта
discord-cmd-board-desc = Осындағы ойыныңыздың тақтасын қайта көрсету
discord-cmd-games = ойындар
discord-cmd-games-desc = Жүріп жатқан ойындарыңыздың тізімі
discord-cmd-resign = берілу
discord-cmd-resign-desc = Ойында жеңілгеніңізді мойындау
discord-cmd-draw = тең
discord-cmd-draw-desc = Тең ойын ұсыну немесе қарсыласыңыздың ұсынысын қабылдау
discord-cmd-rematch = реванш
discord-cmd-rematch-desc = Біткен ойыннан кейін қайта ойнауды ұсыну
discord-cmd-help = анықтама
discord-cmd-help-desc = Қалай ойнау керек және бот сізбен қай тілде сөйлеседі
discord-opt-user = қарсылас
discord-opt-user-desc = Сіз шақыратын адам
discord-opt-balls = құмалақ
discord-opt-balls-desc = Басында әр отаудағы құмалақ саны (9 — әдеттегі ойын)
discord-opt-tuzdek = тұздық
discord-opt-tuzdek-desc = Тұздық ережесі
discord-choice-tuzdek-standard = әдеттегі (тоғызыншы отауда тұздық болмайды)
discord-choice-tuzdek-off = тұздықсыз
discord-choice-tuzdek-ninth = тоғызыншы отауда да тұздық болады
discord-opt-level = деңгей
discord-opt-level-desc = Бот қаншалықты күшті ойнайды
discord-opt-game = ойын
discord-opt-game-desc = Тақтада көрсетілген ойын нөмірі (мысалы, ab12cd)
discord-opt-language = тіл
discord-opt-language-desc = Бот сізбен сөйлесетін тіл
discord-help =
    Бұл — **тоғызқұмалақ**, тоғыз отаулы қазақтың ұлттық ойыны. Әр ойыншының тоғыз отауы бар, әрқайсысында тоғыз құмалақтан, және бір қазаны бар. Өз жүрісіңізде бір отауыңыздағы барлық құмалақты алып, сол отаудан бастап оңға қарай бір-бірден салып шығасыз. Соңғы құмалақ қарсыластың отауына түсіп, ондағы құмалақ саны жұп болса, олар сіздікі. Қазанына 81-ден көп құмалақ бірінші жинаған ойыншы жеңеді.
    `/challenge opponent:@адам` — осындағы біреуді шақыру; оған «Қабылдау» және «Бас тарту» батырмалары келеді.
    `/play level:` — ботпен ойнау (менімен жеке хатта да болады).
    Жүру үшін 1–9 отау батырмасын басыңыз; онда отау нөмірі мен құмалақ саны жазылған (`7 · 12`).
    `/board` ойынды қайта көрсетеді, `/games` — ойындарыңыз, `/resign`, `/draw`, `/rematch game:`.
    `/help language:` — сізбен сөйлесетін тілімді ауыстыру (English, Русский, Қазақша).
discord-lang-set = Енді сізбен қазақша сөйлесемін.
discord-cooldown = Қайта шақырмас бұрын { $seconds } секунд күтіңіз.
discord-bad-button = Бұл батырма мен білетін ешбір ойынға жатпайды. Қазіргі тақтаңызды /board командасы көрсетеді.
discord-your-move = { $mention }, { $id } ойынында сіздің жүрісіңіз.
discord-resigned = Сіз { $id } ойынында жеңілгеніңізді мойындадыңыз.
discord-draw-offered = Сіз { $id } ойынында тең ойын ұсындыңыз.
discord-challenge-in-dm = Шақыру серверлерге арналған. Мұнда, жеке хатта, менімен /play арқылы ойнай аласыз.
discord-unknown-user = Ол адамды таба алмадым. Оны Discord көрсететін тізімнен таңдаңыз.
discord-game-over-mention = { $mentions }, ойын аяқталды.
discord-bad-option = Бұл параметр мәнін білмеймін. Оны Discord көрсететін тізімнен таңдаңыз.
discord-challenge-other-bot = { $name } — бот, ол ойнай алмайды. Адамды шақырыңыз немесе менімен /play арқылы ойнаңыз.
discord-internal-error = Менде бір ақау шықты. Сәлден соң қайталап көріңіз; /board ойынның қазіргі күйін көрсетеді.
