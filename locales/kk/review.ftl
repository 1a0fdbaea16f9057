# Ойынды талдау: қорытынды, бағалау графигі және талдау батырмалары.
review-title = Ойынды талдау: { $white } – { $black }. { $result }
review-accuracy = { $side }, { $name }: дәлдік { $accuracy }%
review-accuracy-side = { $side }: дәлдік { $accuracy }%
review-mistake = { $mark }) { $moveno } { $move } — { $cost } ұтқызды; { $best } жақсырақ еді
review-no-mistakes = бірде-бір құмалақ ұтқызған қате жоқ
review-result-white = Ақтар жеңді
review-result-black = Қаралар жеңді
review-result-draw = Тең ойын
review-result-unknown = Нәтижесі белгісіз
review-graph-title = Ақтар тұрғысынан берілген баға, құмалақпен
review-graph-white-better = Ақтардың жағдайы жақсырақ
review-graph-black-better = Қаралардың жағдайы жақсырақ
review-graph-move = жүріс
review-button-mistake = { $mark }-қате
review-board-caption = { $mark }-қатенің алдындағы жағдай: { $moveno } { $played } жүрісі жасалды, ал { $best } жүрісі жақсырақ еді (тақтада белгіленген).
# Ойынның дебют анықтамалығы бойынша жолы (52-тапсырма): талдауда және ойын бетінде.
review-book-move = { $moveno } жүріс ({ $pit }-отау)
review-book-novelty = { $plies ->
    [0] Жаңалық — бірден { $novelty }: анықтамалықтағы бірде-бір ойын бұлай басталмайды.
   *[other] Ойын { $plies } жарты жүріс бойы анықтамалықтағы ойындарды қайталады; жаңалық — { $novelty }.
}
review-book-known = { $plies ->
    [one] Ойынның жалғыз жарты жүрісі анықтамалықтағы ойындарда бұрын кездескен.
   *[other] Ойынның барлық { $plies } жарты жүрісі анықтамалықтағы ойындарда бұрын кездескен.
}
review-book-deeper = Ойын анықтамалық қамтитын барлық { $plies } жарты жүріс бойы ондағы ойындарды қайталады: дебютте жаңалық жоқ.
# Ботпен ойындағы кеңестер.
hint-button = Кеңес ({ $left })
hint-caption = Кеңес: { $pit }-отаудан жүріңіз ({ $move }), ол тақтада белгіленген.
hint-left = { $left ->
    [0] Бұл ойындағы соңғы кеңесіңіз еді.
   *[other] Бұл ойында тағы { $left } рет кеңес алуға болады.
}
