"""``python -m autograder``: the same as the ``autograder`` command."""

import sys

from autograder.cli import main

# The guard matters: the grader's worker processes may import __main__ again.
if __name__ == "__main__":
    sys.exit(main())
