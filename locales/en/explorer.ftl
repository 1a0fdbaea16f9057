# The opening explorer (issue 52): what chat and the web page share.

explorer-line-start = Starting position
explorer-line = After { $moves }
explorer-source-all = All games
explorer-source-masters = Masters
explorer-source-club = Club
explorer-source-chat = This chat
explorer-source-player = { $name }'s games
explorer-source-one-player = One player's games
explorer-band-unrated = Unrated
explorer-band-below-1200 = Below 1200
explorer-last-game = { $white } – { $black }, { $result } (pit { $pit })
explorer-no-games = No game has reached this position.
