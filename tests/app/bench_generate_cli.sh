#!/usr/bin/env bash
# `gsflow bench generate` (issue 42): the two configurations it compares are exactly what
# `gsflow generate` makes by default and with the previous defaults (same sequences, byte for
# byte), and its quality figures are those `gsflow eval --sequences` computes for the sets it
# wrote, on the validation split. Small sets: this checks the command, not the speed.
# Usage: bench_generate_cli.sh GSFLOW WORKDIR
set -euo pipefail
G=$1; W=$2
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"  # fail, expect_rc, fresh_workdir
fresh_workdir "$W"

N=12
"$G" bench generate --cases dna,peptide,guided --n $N --time-n 4 --repeats 1 --json \
  --out-dir sets >bench.json 2>bench.err || { cat bench.err; fail "bench generate"; }

seqs() { grep -v '^>' "$1"; }  # the bench writes each record on one line
one_line() { awk '/^>/{if (s) print s; s=""; next} {s = s $0} END {if (s) print s}' "$1"; }

check_case() {  # check_case CASE MODEL [GENERATE OPTIONS...]
  local c=$1 m=$2; shift 2
  "$G" generate -m "$m" -n $N --no-store --quiet -o cur.fa "$@" 2>/dev/null
  "$G" generate -m "$m" -n $N --no-store --quiet -o prev.fa --steps 100 --integrator exponential \
    --time-grid uniform --precision float32 "$@" 2>/dev/null
  [[ "$(one_line cur.fa)" == "$(seqs sets/$c-current.fasta)" ]] || fail "$c: current != generate's defaults"
  [[ "$(one_line prev.fa)" == "$(seqs sets/$c-previous.fasta)" ]] || fail "$c: previous != the old defaults"
  for which in previous current; do
    "$G" eval --model "$m" --sequences sets/$c-$which.fasta --no-linear --no-alignment --json \
      >eval.json 2>/dev/null
    python3 - "$c" "$which" <<'PY'
import json, sys
case, which = sys.argv[1], sys.argv[2]
bench = {r["case"]: r for r in json.load(open("bench.json"))}[case][which]
ev = json.load(open("eval.json"))
k = str(bench["kmer"])
assert abs(bench["kmer_js"] - ev["kmer_js"][k]) < 1e-12, (case, which, bench["kmer_js"], ev["kmer_js"][k])
if "tata_window_fraction" in bench:
    assert abs(bench["tata_window_fraction"] - ev["tata"]["window_fraction"]) < 1e-12
if "composition_kl" in bench:
    assert abs(bench["composition_kl"] - ev["composition_kl"]) < 1e-12
assert bench["seconds_per_100"] > 0
PY
  done
}
check_case dna dna-promoter
check_case peptide peptide
check_case guided dna-promoter --guide promoter --gamma 18

# The guided case's judge mean is the mean of `gsflow score --judge promoter` over its set.
for which in previous current; do
  "$G" score --judge promoter --json sets/guided-$which.fasta >score.json 2>/dev/null
  python3 - "$which" <<'PY' || fail "guided: judge mean ($which)"
import json, sys
which = sys.argv[1]
bench = {r["case"]: r for r in json.load(open("bench.json"))}["guided"]
scores = [r["judge:promoter"] for r in json.load(open("score.json"))]
assert abs(sum(scores) / len(scores) - bench[which]["judge_mean"]) < 1e-9, (scores, bench[which])
diff = bench["current"]["judge_mean"] - bench["previous"]["judge_mean"]
assert abs(bench["comparison"]["judge_mean_diff"] - diff) < 1e-12
PY
done
expect_rc 2 "$G" bench generate --cases dna,nonsense
grep -q "nonsense" err.txt || fail "bad case not named"
echo "bench generate: ok"
