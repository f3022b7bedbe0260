"""The server's disk work: one worker thread's batches, our SQLite files."""
