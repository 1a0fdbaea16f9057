# Разбор партии: итог, график оценки и кнопки разбора.
review-title = Разбор партии: { $white } – { $black }. { $result }
review-accuracy = { $side }, { $name }: точность { $accuracy } %
review-accuracy-side = { $side }: точность { $accuracy } %
review-mistake = { $mark }) { $moveno } { $move }: лучше было { $best }, потеря — { $cost }
review-no-mistakes = ни одна ошибка не стоила и шара
review-result-white = Победили белые
review-result-black = Победили чёрные
review-result-draw = Ничья
review-result-unknown = Результат неизвестен
review-graph-title = Оценка позиции за белых, в шарах
review-graph-white-better = Лучше у белых
review-graph-black-better = Лучше у чёрных
review-graph-move = ход
review-button-mistake = Ошибка { $mark }
review-board-caption = Перед ошибкой { $mark }: сыграно { $moveno } { $played }, а лучше было { $best } (отмечено на доске).
# Путь партии по справочнику дебютов (задача 52): в разборе и на её странице.
review-book-move = ход { $moveno } (лунка { $pit })
review-book-novelty = { $plies ->
    [0] Новинка — уже { $novelty }: ни одна партия справочника так не начинается.
    [one] Партия шла по справочнику { $plies } полуход; новинка — { $novelty }.
    [few] Партия шла по справочнику { $plies } полухода; новинка — { $novelty }.
   *[other] Партия шла по справочнику { $plies } полуходов; новинка — { $novelty }.
}
review-book-known = { $plies ->
    [1] Единственный полуход партии уже встречался в партиях справочника.
    [one] Все { $plies } полуход партии уже встречались в партиях справочника.
    [few] Все { $plies } полухода партии уже встречались в партиях справочника.
   *[other] Все { $plies } полуходов партии уже встречались в партиях справочника.
}
review-book-deeper = Партия шла по справочнику на всю его глубину ({ $plies } { $plies ->
    [one] полуход
    [few] полухода
   *[other] полуходов
}): новинки в дебюте нет.
# Подсказки в партии с ботом.
hint-button = Подсказка ({ $left })
hint-caption = Подсказка: сделайте ход из лунки { $pit } ({ $move }), она отмечена на доске.
hint-left = { $left ->
    [0] Это была последняя подсказка в этой партии.
    [one] В этой партии осталась { $left } подсказка.
    [few] В этой партии осталось { $left } подсказки.
   *[other] В этой партии осталось { $left } подсказок.
}
