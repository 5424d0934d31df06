#!/usr/bin/env bash
# Memory is flat in the number of sequences (issue 42): a stored run of 10x more sequences (with
# trajectory frames and FASTA output) peaks within 10 % of the smaller one, because batches are
# generated, stored and written one after the other. One step keeps it quick.
# Usage: memory_flat_cli.sh GSFLOW WORKDIR
set -euo pipefail
G=$1; W=$2
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"  # fail, expect_rc, fresh_workdir
fresh_workdir "$W"

peak_kb() {  # peak_kb ARGS...: the child's peak resident memory (ru_maxrss, KiB)
  python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
for model in dna-promoter peptide; do
  small=$(peak_kb "$G" generate -m $model -n 300 --steps 1 --db runs.sqlite -o small.fa)
  large=$(peak_kb "$G" generate -m $model -n 3000 --steps 1 --db runs.sqlite -o large.fa)
  [[ $(grep -c '^>' large.fa) == 3000 ]] || fail "$model: 3000 sequences expected"
  echo "$model: peak $small KiB at n = 300, $large KiB at n = 3000"
  python3 -c "import sys; s, l = int(sys.argv[1]), int(sys.argv[2]); sys.exit(0 if l <= 1.10 * s else 1)" \
    "$small" "$large" || fail "$model: memory grows with n ($small -> $large KiB)"
done
echo "memory flat in n: ok"
