# Words shared by every part of the bot.
balls = { $count ->
    [one] { $count } ball
   *[other] { $count } balls
}
side-white = White
side-black = Black
lang-name = English
level-random = random
level-beginner = beginner
level-easy = easy
level-medium = medium
level-hard = hard
level-max = max
