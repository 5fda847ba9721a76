"""The judge's side of the sandbox: the learner's process seen from outside, and the session with it."""
