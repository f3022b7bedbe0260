"""What the organiser's terminal shows: the live dashboard and the standings."""
