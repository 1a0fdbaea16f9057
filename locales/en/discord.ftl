# discord messages
