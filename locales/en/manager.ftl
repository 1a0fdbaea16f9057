# manager messages
