# Слова, общие для всех частей бота.
balls = { $count ->
    [one] { $count } шар
    [few] { $count } шара
   *[many] { $count } шаров
}
side-white = Белые
side-black = Чёрные
lang-name = Русский
level-random = случайный
level-beginner = новичок
level-easy = лёгкий
level-medium = средний
level-hard = сильный
level-max = максимальный
