"""``python -m autograder``: lo mismo que la orden ``autograder``."""

import sys

from autograder.cli import main

# The guard matters: the grader's worker processes may import __main__ again.
if __name__ == "__main__":
    sys.exit(main())
