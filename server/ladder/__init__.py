"""The practice ladder: its runner, seats, store, reports, terminal view and pages."""
