# Ойынды талдау: қорытынды, бағалау графигі және талдау батырмалары.
review-title = Ойынды талдау: { $white } – { $black }. { $result }
review-accuracy = { $side }, { $name }: дәлдік { $accuracy }%
review-mistake = { $mark }) { $moveno } { $move }: { $best } жақсырақ еді, шығын — { $cost }
review-no-mistakes = бір құмалақтан қымбат қате жоқ
review-result-white = Ақтар жеңді
review-result-black = Қаралар жеңді
review-result-draw = Тең ойын
review-result-unknown = Нәтижесі белгісіз
review-graph-title = Ақтар тарапынан позицияның бағасы, құмалақпен
review-graph-white-better = Ақтардың жағдайы жақсы
review-graph-black-better = Қаралардың жағдайы жақсы
review-graph-move = жүріс
review-board-caption = { $mark }-қатенің алдында: { $moveno } { $played } жүрілді, ал { $best } жақсырақ еді (тақтада белгіленген).
