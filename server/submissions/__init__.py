"""Handed-in bots: the store of versions, the hand-in desk, their files and their seats."""
