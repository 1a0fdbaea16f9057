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
web-index-title = Тоғызқұмалақ ойындары
web-index-about = Бот арқылы ойналған әр ойынның жеке беті бар: оны ашу үшін Discord немесе Telegram-дағы ойын тақтасының астындағы сілтемені басыңыз.
web-review = Ойынды талдау
# Тақтаның астындағы, жазбадағы және талдаудағы ойын бетінің сілтемесі.
web-page-button = 🌐 Ойын беті
web-page-link = 🌐 Ойын беті: { $url }
