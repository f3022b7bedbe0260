"""Game logs on disk: written as games go, finished in batches, synced."""
