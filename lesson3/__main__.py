"""``python -m lesson3``: la misma línea de comandos que ``lesson3``."""

import sys

from .cli import main

if __name__ == "__main__":  # the crash harness's forkserver re-imports the main module
    sys.exit(main())
