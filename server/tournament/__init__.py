"""A tournament: its runner (schedules, forfeits, standings), the results store and its exports."""
