"""Terminal front ends of the puzzle side rooms (one module per puzzle, each adding a subcommand)."""
