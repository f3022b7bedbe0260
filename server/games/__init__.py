"""One game at a time: the match runner and what spectators are told of each step."""
