"""What every process shares: framed JSON (protocol), the learner's function names and call arguments
(calls), result records (results), limits and a confined process's uid and PATH (limits), starting a
zygote and serving its forks (forking), a question without its answer (public_questions).

Imports nothing else of the package."""
