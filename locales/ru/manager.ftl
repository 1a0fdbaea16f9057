# Менеджер партий: подписи, итоги, вызовы, кнопки и отказы, общие для всех платформ.
manager-bot-name = Бот ({ $level })
manager-game-title = Партия { $id }
manager-turn = { $side ->
    [white] Ход белых
   *[black] Ход чёрных
}: { $name }
manager-score = Казаны: { $white } : { $black }
manager-last-move = Последний ход: { $name }, { $move }
manager-last-move-capture = Последний ход: { $name }, { $move }, взято { $balls }
manager-previous-move = Предыдущий ход: { $name }, { $move }
manager-previous-move-capture = Предыдущий ход: { $name }, { $move }, взято { $balls }
manager-draw-offered = { $name } предлагает ничью.
manager-deadline = Сделайте ход в течение { $hours ->
    [one] { $hours } часа
   *[other] { $hours } часов
}, иначе вам засчитают поражение по времени.
manager-result-win = Победили { $side ->
    [white] белые
   *[black] чёрные
}: { $name }.
manager-result-draw = Партия закончилась вничью.
manager-result-aborted = Партия прервана.
manager-reason-kazan = В казане победителя больше половины всех шаров.
manager-reason-equal-kazans = В каждом казане — { $balls }.
manager-reason-atsyrau = Атсырау: у игрока, который должен был ходить, не осталось шаров.
manager-reason-resigned = { $name } сдаётся.
manager-reason-agreed = Ничья по соглашению.
manager-reason-timeout = { $name }: время на ход истекло.
manager-variant-standard = обычная партия
manager-variant-balls = по { $count ->
    [one] { $count } шару
    [few] { $count } шара
   *[many] { $count } шаров
} в лунке
manager-variant-no-tuzdek = без туздыков
manager-variant-ninth-tuzdek = туздык можно взять и в девятой лунке
manager-challenge-open = { $challenger } ищет соперника: { $variant }.
manager-challenge-to = { $challenger } вызывает игрока { $opponent } на партию: { $variant }.
manager-challenge-rematch = { $challenger } предлагает игроку { $opponent } реванш.
manager-challenge-accepted = Вызов принят: партия { $id } началась.
manager-challenge-declined = { $opponent } отклоняет вызов.
manager-challenge-expired = Никто не ответил вовремя: вызов больше не действует.
manager-challenge-cancelled = { $challenger } отзывает вызов.
manager-challenge-expires = Вызов действует { $minutes ->
    [one] { $minutes } минуту
    [few] { $minutes } минуты
   *[many] { $minutes } минут
}.
manager-button-resign = Сдаться
manager-button-offer-draw = Ничья?
manager-button-accept-draw = Принять ничью
manager-button-decline-draw = Отклонить
manager-button-abort = Прервать
manager-button-rematch = Реванш
manager-button-review = Разбор
manager-button-accept = Принять
manager-button-decline = Отклонить
manager-button-cancel = Отозвать
manager-games-none = У вас нет текущих партий.
manager-games-header = Ваши текущие партии:
manager-games-line = { $id }: { $white } — { $black }, ход { $number }
manager-games-your-move = ваш ход
manager-games-left = осталось { $span }
manager-alert-left = осталось { $span }
manager-alert-control-left = { $control }: { $remaining }
manager-alert-your-move = Ваш ход в партии с игроком { $opponent } ({ $status }).
manager-alert-your-moves = Ваш ход в { $count } { $count ->
    [one] партии
   *[other] партиях
}:
manager-alert-line = • { $opponent } ({ $status })
manager-alert-more = …и ещё { $count }
manager-alert-warning = Время на исходе в партии с игроком { $opponent }: { $remaining }.
manager-alert-digest = Ежедневная сводка: ваш ход в { $count } { $count ->
    [one] партии
   *[other] партиях
}:
manager-alert-button = Доска: { $opponent }
manager-notify-each = Личные сообщения о заочных партиях: каждый раз, когда наступает ваш ход, и предупреждение, когда время на ход подходит к концу.
manager-notify-digest = Личные сообщения о заочных партиях: ежедневная сводка в { $hour } (UTC{ $offset }) и предупреждение, когда время на ход подходит к концу.
manager-notify-off = Личные сообщения о заочных партиях отключены. О вашем ходе по-прежнему сообщают в чате, где идёт партия.
manager-notify-quiet = Тихие часы: { $from }–{ $to } (UTC{ $offset }); сообщения, которые пришлись бы на это время, придут, когда тихие часы закончатся.
manager-notify-no-quiet = Тихих часов нет.
manager-notify-saved = Сохранено.
manager-notify-no-hours = Укажите час: число от 0 до 23 (для тихих часов — два числа, например 23-08).
manager-notify-bad-hours = «{ $given }» — это не час: укажите число от 0 до 23, а для тихих часов — два числа, например 23-08.
manager-notify-bad-offset = «{ $given }» — это не смещение от UTC: напишите, например, +05, -03:30 или utc.
manager-notify-bad-word = У команды /notify нет настройки «{ $given }».
manager-notify-extra = «{ $given }» — лишнее слово.
manager-error-not-your-turn = Сейчас не ваш ход.
manager-error-not-your-game = Вы не участвуете в этой партии.
manager-error-not-for-you = Этот вызов адресован не вам.
manager-error-stale = Эта доска устарела: в партии уже есть новые ходы. Смотрите последнюю доску.
manager-error-no-such-pit = Лунки с номером { $pit } нет: лунки нумеруются от 1 до 9.
manager-error-empty-pit = Лунка { $pit } пуста.
manager-error-tuzdek-pit = Лунка { $pit } — туздык: её шары достаются сопернику.
manager-error-game-over = Эта партия уже окончена.
manager-error-no-such-game = Такой партии нет.
manager-error-no-such-challenge = Такого вызова нет.
manager-error-challenge-closed = Этот вызов уже не действует.
manager-error-not-your-challenge = Менять контроль времени может только тот, кто бросил вызов.
manager-error-challenge-self = Нельзя играть с самим собой.
manager-error-challenge-bot = Бота не нужно вызывать: просто начните с ним партию.
manager-error-limit-user-challenges = У вас уже { $count ->
    [one] { $count } открытый вызов
    [few] { $count } открытых вызова
   *[many] { $count } открытых вызовов
}. Дождитесь ответа или отзовите один из них.
manager-error-limit-chat-challenges = В этом чате уже { $count ->
    [one] { $count } открытый вызов
    [few] { $count } открытых вызова
   *[many] { $count } открытых вызовов
}. Попробуйте позже.
manager-error-limit-user-games = Вы уже играете { $count ->
    [one] { $count } партию
    [few] { $count } партии
   *[many] { $count } партий
} одновременно. Сначала закончите одну из них.
manager-error-limit-chat-games = В этом чате уже { $count ->
    [one] идёт { $count } партия
    [few] идут { $count } партии
   *[many] идёт { $count } партий
}. Попробуйте позже.
manager-error-limit-user-tournaments = { $count ->
    [1] У вас уже есть незавершённый турнир. Дождитесь, пока он закончится, или отмените его.
    [one] У вас уже { $count } незавершённый турнир. Дождитесь, пока один из них закончится, или отмените один из них.
    [few] У вас уже { $count } незавершённых турнира. Дождитесь, пока один из них закончится, или отмените один из них.
   *[many] У вас уже { $count } незавершённых турниров. Дождитесь, пока один из них закончится, или отмените один из них.
}
manager-error-limit-chat-tournaments = { $count ->
    [1] В этом чате уже есть незавершённый турнир. Попробуйте снова, когда он закончится.
    [one] В этом чате уже { $count } незавершённый турнир. Попробуйте снова, когда один из них закончится.
    [few] В этом чате уже { $count } незавершённых турнира. Попробуйте снова, когда один из них закончится.
   *[many] В этом чате уже { $count } незавершённых турниров. Попробуйте снова, когда один из них закончится.
}
manager-error-game-not-over = Партия ещё идёт.
manager-error-no-game-here = У вас здесь нет текущей партии.
manager-error-ambiguous = У вас здесь несколько партий: укажите, какую вы имеете в виду.
manager-error-too-late-to-abort = Прервать уже нельзя: оба игрока сделали ход. Можно сдаться или предложить ничью.
manager-error-no-berserk-here = Берсерк можно включить только в своей партии на арене с контролем времени.
manager-error-too-late-to-berserk = Включить берсерк уже нельзя: это делают только до своего первого хода.
manager-button-berserk = Берсерк
manager-error-draw-already-offered = Вы уже предложили ничью.
manager-error-no-draw-offer = Вам никто не предлагал ничью.
manager-error-bot-declines-draw = Бот не согласен на ничью: играем дальше.
manager-error-rematch-exists = Реванш после этой партии уже предложен.
manager-error-nothing-to-review = В этой партии не сделано ни одного хода — разбирать нечего.
manager-error-no-finished-game-here = С моего последнего перезапуска здесь не закончилась ни одна партия. Укажите номер партии — он написан на её доске.
manager-error-reviews-busy = Бот сейчас занят разбором других партий. Попробуйте ещё раз через минуту.
manager-error-review-pending = Ваш предыдущий разбор ещё готовится. Запросите следующий, когда он появится.
manager-error-hints-only-against-bot = Подсказки доступны только в партиях с ботом.
manager-error-no-hints-left = Вы уже использовали все подсказки в этой партии (их { $count } на партию).
manager-error-hints-busy = Бот сейчас готовит подсказки. Попробуйте ещё раз чуть позже.
manager-error-premoves-not-here = Условные ходы бывают только в заочных партиях между двумя людьми.
manager-error-premoves-on-their-turn = Сейчас ваш ход: условные ходы можно задать, только пока ходит соперник.
manager-error-too-many-premoves = Слишком много условных ходов: не больше { $lines } { $lines ->
    [one] варианта
   *[other] вариантов
}, в каждом не больше { $moves } { $moves ->
    [one] хода
   *[other] ходов
}.
manager-error-premove-illegal = Вариант { $line }: ход { $step } (из лунки { $pit }) в этой позиции невозможен.
manager-error-premoves-disagree = Вариант { $line } отвечает на тот же ход соперника иначе, чем один из вариантов выше. На каждый ход соперника может быть только один ответ.
manager-error-premove-line-unfinished = Вариант должен заканчиваться вашим ответом: добавьте лунку, из которой вы ответите.
manager-error-explorer-moves = Ход { $step } ({ $pit }) здесь невозможен. Перечислите по порядку лунки, из которых ходили с начальной позиции (от 1 до 9, со стороны ходившего игрока), например: 7 7 2
manager-error-explorer-too-deep = Слишком длинный вариант: справочник дебютов охватывает не больше { $max } { $max ->
    [one] хода
   *[other] ходов
}.
premoves-button = Условные ходы
premoves-title = Ваши условные ходы (соперник: { $opponent })
premoves-legend = В каждой паре: ход соперника → ваш ответ.
premoves-none = Вариантов пока нет.
premoves-draft = Новый вариант: { $moves }
premoves-next-theirs = Нажмите лунку, из которой может сходить соперник.
premoves-next-mine = Нажмите лунку, из которой вы ответите.
premoves-explain = Если соперник сделает первый ход варианта, ваш ответ будет сделан сразу. Ход, которого нет ни в одном варианте, удаляет все варианты. Варианты видите только вы.
premoves-closed = Сейчас ваш ход: условные ходы можно задать, только пока ходит соперник.
premoves-ended = Партия окончена.
premoves-add = Добавить
premoves-undo = Отменить
premoves-clear = Очистить всё
premoves-done = Готово
premoves-opened-private = Условные ходы открыты в нашем личном чате.
premoves-start-bot = Начните личный чат со мной ({ $link }) — условные ходы откроются там.
manager-error-sign-in-refused = Эта ссылка для входа не работает: она неверна, уже использована или устарела. Получите новую командой /web login (в Discord: /сайт вход:войти).
manager-error-web-not-served = У этого бота нет сайта, поэтому войти некуда.
manager-error-storage = У нас произошёл сбой, ничего не изменилось. Попробуйте ещё раз.
manager-error-store-away = База данных сейчас не отвечает, поэтому ничего не изменилось. Попробуйте ещё раз чуть позже.
manager-error-outcome-unknown = База данных не успела подтвердить, сохранилось ли действие. Мы проверяем: как только она ответит, доска покажет то, что сохранено.
manager-bot-busy = Бот сейчас занят другими партиями{ $ahead ->
    [0] {""}
   *[other] {""} (в очереди перед вашей ещё { $ahead })
} и скоро сделает ход.
manager-ratings = Рейтинг: { $changes }
manager-challenge-unrated = Партия без рейтинга: рейтинг не изменится.
manager-clock = Часы { $control }: { $white } : { $black }
manager-clock-runs-out = Время { $side ->
    [white] белых
   *[black] чёрных
} истечёт в { $time } (UTC).
manager-clock-runs-out-live = Время { $side ->
    [white] белых
   *[black] чёрных
} истечёт { $when }.
manager-first-move-by = { $name }: сделайте первый ход до { $time } (UTC), иначе партия будет прервана.
manager-first-move-by-live = { $name }: сделайте первый ход, иначе партия будет прервана { $when }.
manager-reason-flag = { $name }: время на часах истекло.
manager-reason-first-move = { $name }: первый ход не сделан вовремя.
manager-time-blitz = блиц { $control }
manager-time-rapid = рапид { $control }
manager-time-days = { $days } { $days ->
    [one] день
    [few] дня
   *[many] дней
} на ход
manager-days-left = { $control }: осталось { $span } (до { $when }).
manager-span-days = { $days } { $days ->
    [one] день
    [few] дня
   *[many] дней
}
manager-span-hours = { $hours } ч
manager-span-minutes = { $minutes } мин
manager-time-error-format = «{ $text }» — это не контроль времени. Укажите минуты на каждого игрока и секунды, добавляемые за ход, например 3+2, 5+0, 10+5 или 0,5+2, либо число дней на ход, например «2 дня», либо напишите «заочная».
manager-time-error-too-short = { $text }: слишком мало времени. Минимум — 0,1 минуты (6 секунд), например 0,1+0 или 0,5+2.
manager-time-error-too-long = { $text }: слишком много времени. Не больше 180 минут на игрока, например 60+30; для более долгой партии укажите число дней на ход, например «2 дня», или напишите «заочная».
manager-time-error-increment = { $text }: за ход можно добавлять не больше 60 секунд, например 3+2 или 10+5.
manager-time-error-days = { $text }: на ход можно дать 1, 2, 3, 5, 7 или 14 дней, например «2 дня».
manager-reason-no-result = Партия закончилась раньше, чем оба игрока сделали ход: результата нет, рейтинги не меняются.
manager-reason-forfeited = { $name } отказывается от партии раньше, чем оба игрока сделали ход: в турнире это техническое поражение, рейтинги не меняются.
manager-error-terms-changed = Условия вызова изменились, пока вы смотрели. Теперь: { $terms }. Если они вам подходят, нажмите «Принять» ещё раз.
manager-terms-rated = на рейтинг
manager-terms-unrated = без рейтинга
tournament-error-no-such = Такого турнира нет.
tournament-error-already-in = Вы уже участвуете в этом турнире.
tournament-error-not-in = Вы не участвуете в этом турнире.
tournament-error-started = Турнир уже начался, новых участников не принимают.
tournament-error-closed = Этот турнир уже закончился или был отменён.
tournament-error-full = В турнире больше нет мест.
tournament-error-not-allowed = Это может сделать только организатор турнира или администратор.
tournament-error-round-paired = Пары этого тура уже составлены.
tournament-error-unknown-game = Эта партия не относится к турниру.
tournament-error-too-few = Записалось меньше двух игроков, поэтому турнир отменён.
tournament-error-pairing = Не удалось составить пары тура. Скоро попробуем ещё раз.
tournament-error-bye-swiss-only = Пропустить тур за пол-очка можно только в турнире по швейцарской системе.
tournament-error-bye-round = Последний тур (тур { $round }) нельзя пропустить за пол-очка.
tournament-error-too-many-byes = В одном турнире за пол-очка можно пропустить не больше { $count ->
    [one] { $count } тура
   *[other] { $count } туров
}.
tournament-error-no-such-round = В этом турнире всего { $rounds ->
    [one] { $rounds } тур
    [few] { $rounds } тура
   *[many] { $rounds } туров
}.
