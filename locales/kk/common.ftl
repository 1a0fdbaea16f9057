# Боттың барлық бөліктеріне ортақ сөздер.
# Қазақ тілінде сан есімнен кейін зат есім жекеше тұрады: «1 құмалақ», «5 құмалақ».
balls = { $count } құмалақ
side-white = Ақ
side-black = Қара
lang-name = Қазақша
level-random = кездейсоқ
level-beginner = жаңа бастаушы
level-easy = жеңіл
level-medium = орташа
level-hard = күшті
level-max = ең күшті
