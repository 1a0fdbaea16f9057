# console messages
