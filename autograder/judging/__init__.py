"""The judging process and the grading zygote it is forked from: scenarios, observers, observations and verdicts."""
