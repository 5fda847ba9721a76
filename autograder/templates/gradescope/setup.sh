#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image
# (Ubuntu 22.04 by default, whose python3 is 3.10: the course supports 3.10+).
# Dependencies come from the course's lock file, pinned with hashes.
set -euo pipefail

ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends python3 python3-venv python3-pip

python3 -m venv "$ROOT/venv"
"$ROOT/venv/bin/pip" install -q -r "$SOURCE/requirements.lock"
# The course itself (lesson3 + autograder); its dependencies are already pinned above.
"$ROOT/venv/bin/pip" install -q --no-deps "$SOURCE/course"
