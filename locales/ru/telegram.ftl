# telegram messages
