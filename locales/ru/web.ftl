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
web-index-title = Партии в тогызкумалак
web-index-about = У каждой партии, сыгранной через бота, есть своя страница: откройте её по ссылке под доской в Discord или Telegram.
web-review = Разбор партии
# Ссылка на страницу партии под доской, в записи и в разборе.
web-page-button = 🌐 Страница партии
web-page-link = 🌐 Страница партии: { $url }
