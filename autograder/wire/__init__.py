"""What every process shares: framed JSON, call arguments, result records, limits.

Imports nothing else of the package."""
