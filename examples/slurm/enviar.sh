#!/bin/bash
# Submit the parts as a job array, and the merge to run once every part has succeeded.
set -euo pipefail
cd "$(dirname "$0")/../.."  # the folder that holds entregas/
job=$(sbatch --parsable examples/slurm/calificar.sbatch)
sbatch --dependency="afterok:${job%%;*}" --job-name=juntar --output=juntar.log \
  --wrap 'autograder merge resultados/parte-* --out resultados/clase'
