"""The judging process: scenarios, observers, observations and verdicts."""
