#!/usr/bin/env bash
# `gsflow train --name NAME --fasta FAMILY --init MODEL` (issue 40, item 2) with the real binary on
# small real families from the training splits (scripts/fetch-data; the reserved test splits are
# not read): 60 promoter windows with a TATA box in -45..-15 fine-tune dna-promoter, 60
# antimicrobial-like peptides fine-tune peptide (cd-hit clusters when installed); each model is
# listed by name, generates by name, and has a card with the documented fields. Too many steps for
# the family warn; every bad input exits 2 naming the file and line and writes nothing.
# usage: fine_tune_cli.sh GSFLOW WORKDIR. Tiny step counts: ~40 s on 2 cores.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"  # fail, expect_rc, fresh_workdir
G=$1
fresh_workdir "$2"
export GSFLOW_USER_MODELS=$PWD/user-models  # never the user's own folder
unset GSFLOW_MODELS

DATA=${GSFLOW_DATA:-${GSFLOW_SOURCE_DIR:?GSFLOW_SOURCE_DIR or GSFLOW_DATA must be set}/data}
for f in "$DATA/dna256/train.fasta" "$DATA/peptide/train.fasta"; do
  [[ -s $f ]] || fail "$f is missing: run scripts/fetch-data"
done
expect_fine_tune_error() {  # TEXT ARGS...: `train --name` exits 2 with TEXT on stderr
  local text=$1; shift
  expect_rc 2 "$G" train "$@"
  grep -qF -- "$text" err.txt || { cat err.txt >&2; fail "stderr lacks '$text': train $*"; }
}

DATA=$DATA python3 - <<'PY'
import os, re
def records(path):
    head, seq = None, []
    for line in open(path):
        line = line.strip()
        if line.startswith(">"):
            if head: yield head, "".join(seq)
            head, seq = line, []
        else: seq.append(line)
    if head: yield head, "".join(seq)
tata = re.compile(r"(?=TATA[AT]A[AT][AG])")
def window(s):
    return any(len(s) - 45 <= m.start() <= len(s) - 15 for m in tata.finditer(s))
dna = [r for r in records(os.environ["DATA"] + "/dna256/train.fasta") if window(r[1])][:60]
pep = [r for r in records(os.environ["DATA"] + "/peptide/train.fasta") if " amp=1" in r[0]][:60]
with open("tata.fa", "w") as f: f.writelines(f"{h}\n{s}\n" for h, s in dna)
with open("amp.fa", "w") as f: f.writelines(f"{h}\n{s}\n" for h, s in pep)
# Bad input, each at a known line (records are two lines: record i's header is line 2i - 1).
with open("letters.fa", "w") as f:
    for i, (h, s) in enumerate(dna):
        f.write(f"{h}\n{s[:4] + 'Z' + s[5:] if i == 3 else s}\n")
with open("short.fa", "w") as f:
    for i, (h, s) in enumerate(dna): f.write(f"{h}\n{s[:250] if i == 5 else s}\n")
with open("long.fa", "w") as f:
    for i, (h, s) in enumerate(pep): f.write(f"{h}\n{(s * 10)[:120] if i == 2 else s}\n")
with open("few.fa", "w") as f: f.writelines(f"{h}\n{s}\n" for h, s in dna[:30])
PY

# --- DNA: fine-tune dna-promoter on 60 TATA windows ----------------------------------------------
expect_rc 0 "$G" train --name tata --fasta tata.fa --init dna-promoter --steps 20 --eval-n 20 \
  --threads 1
ckpt=$GSFLOW_USER_MODELS/tata.ckpt card=$GSFLOW_USER_MODELS/tata.md
[[ -s $ckpt && -s $card ]] || { cat err.txt >&2; fail "no checkpoint or card in $GSFLOW_USER_MODELS"; }
grep -q "train tata: step 20/20 loss [0-9.]* val [0-9.]*" err.txt || { cat err.txt >&2; fail "no progress"; }
grep -q "fine-tuned step [0-9]* *[0-9.]* *[0-9.]*" err.txt || { cat err.txt >&2; fail "no loss table"; }
grep -q "6-mer JS to the held-out part (12 sequences): fine-tuned [0-9.]*, base [0-9.]*" err.txt ||
  { cat err.txt >&2; fail "no k-mer JS line"; }
grep -q "^6-mer JS (bits)" out.txt || { cat out.txt >&2; fail "no eval table on stdout"; }
# The card: base and its hash, data hashes, sizes and split, steps and time, losses, figures.
fnv() { python3 -c "
import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], 'rb').read(): h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print(f'{h:016x}')" "$1"; }
base_file=$(sed -n 's/^\*\*Base model:\*\* `dna-promoter` (`\([^`]*\)`.*/\1/p' "$card")
[[ -s $base_file ]] || fail "card does not name the base model's file"
for needle in "hash \`$(fnv "$base_file")\`" "Family \`tata.fa\` (file hash \`$(fnv tata.fa)\`" \
  "60 records, 60 unique" "Training data hash \`" "20 % held out at random, seed 1" \
  "| train | 48 | 256 | trains |" "| held-out | 12 | 256 |" "exactly 256" \
  "gsflow train --name tata --fasta tata.fa --init dna-promoter --eval-n 20 --steps 20 --threads 1" \
  "lr 0.0002" "20 steps planned" "20 steps in 0:00:" "| base \`dna-promoter\` |" \
  "| fine-tuned (step " "6-mer JS to the held-out part: **fine-tuned" "TATA window fraction" \
  "TATA start in -45..-15" "Total time"; do
  grep -qF -- "$needle" "$card" || { cat "$card" >&2; fail "card lacks '$needle'"; }
done
sum_before=$(sha256sum "$ckpt")

# --- listed and generating by name --------------------------------------------------------------
expect_rc 0 "$G" models list
grep -E "^tata +generator \(gsfm\) +user +dna +256 " out.txt >/dev/null ||
  { cat out.txt >&2; fail "tata not listed"; }
expect_rc 0 "$G" generate --model tata --n 3 --steps 4 --seed 2 --db r.sqlite --quiet --out g.fa
[[ $(grep -c '^>' g.fa) == 3 ]] || fail "generate --model tata did not write 3 records"
grep -v '^>' g.fa | tr -d '\n' | grep -q '[^ACGT]' && fail "generated letters outside ACGT"

# --- peptides: fine-tune peptide on 60 antimicrobial-like peptides ------------------------------
expect_rc 0 "$G" train --name amp-family --fasta amp.fa --init peptide --steps 10 --eval-n 10 \
  --threads 1
pcard=$GSFLOW_USER_MODELS/amp-family.md
if command -v cd-hit >/dev/null; then split="held out as whole clusters of 50 % identity"
else split="cd-hit unavailable"; fi
for needle in "$split" "up to 100" "3-mer JS to the held-out part: **fine-tuned"; do
  grep -qF -- "$needle" "$pcard" || { cat "$pcard" >&2; fail "peptide card lacks '$needle'"; }
done
expect_rc 0 "$G" models list --json
python3 - <<'PY'
import json
rows = {r["name"]: r for r in json.load(open("out.txt"))}
p = rows["amp-family"]
assert p["kind"] == "generator (gsfm)" and p["origin"] == "user" and p["alphabet"] == "protein", p
assert p["metrics"]["train_sequences"] + p["metrics"]["held_out_sequences"] == 60, p
assert "best_val_loss" in p["metrics"] and "held_out_kmer_js_3" in p["metrics"], p
PY
expect_rc 0 "$G" generate --model amp-family --n 4 --steps 4 --db r.sqlite --quiet --out p.fa
python3 -c "
seqs = ''.join(l if l.startswith('>') else l.strip() for l in open('p.fa')).split('>')[1:]
seqs = [r.split(chr(10), 1)[1] for r in seqs]
assert len(seqs) == 4 and all(1 <= len(s) <= 100 and set(s) <= set('ACDEFGHIKLMNPQRSTVWY') for s in seqs), seqs"

# --- too many steps for the family: a warning (stopped at once by the time budget) --------------
expect_rc 0 "$G" train --name many --fasta tata.fa --init dna-promoter --steps 600 --eval-n 0 \
  --threads 1 --max-minutes 0.001 --out many.ckpt
grep -qF "each is seen about 150 times (more than 100)" err.txt || { cat err.txt >&2; fail "no warning"; }
grep -qF "**Warning:** 48 training sequences for 600 steps" many.md || fail "card lacks the warning"

# --- bad input: exit 2, the file and line named, nothing written --------------------------------
expect_fine_tune_error "letters.fa:7: record '" --name bad --fasta letters.fa --init dna-promoter
grep -qF "letter 'Z' at position 5 is not in the dna alphabet" err.txt || fail "letter not named"
expect_fine_tune_error "short.fa:11: record '" --name bad --fasta short.fa --init dna-promoter
grep -qF "has 250 letters; the base model dna-promoter takes exactly 256" err.txt || fail "length"
expect_fine_tune_error "long.fa:5: record '" --name bad --fasta long.fa --init peptide
grep -qF "has 120 letters; the base model peptide takes at most 100" err.txt || fail "max length"
expect_fine_tune_error "tata.fa:1: the letters are DNA" --name bad --fasta tata.fa --init peptide
expect_fine_tune_error "few.fa:59: family: only 30 sequences (unique); at least 50 are needed" \
  --name bad --fasta few.fa --init dna-promoter
expect_fine_tune_error "--init nosuch: model 'nosuch' not found" --name bad --fasta tata.fa \
  --init nosuch
expect_fine_tune_error "nothere.fa" --name bad --fasta nothere.fa --init dna-promoter
expect_fine_tune_error "tata.ckpt already exists (gsflow models delete tata, or --force" \
  --name tata --fasta tata.fa --init dna-promoter
expect_fine_tune_error "a bundled model has that name" --name peptide --fasta amp.fa --init peptide
expect_fine_tune_error "--fasta FAMILY.fasta and --init MODEL are needed" --name bad --fasta tata.fa
[[ $(sha256sum "$ckpt") == "$sum_before" ]] || fail "a refused run changed tata.ckpt"
[[ $(ls "$GSFLOW_USER_MODELS" | tr '\n' ' ') == "amp-family.ckpt amp-family.md tata.ckpt tata.md " ]] ||
  { ls "$GSFLOW_USER_MODELS"; fail "a refused run left a file"; }
# --force replaces it; delete removes checkpoint and card.
expect_rc 0 "$G" train --name tata --fasta tata.fa --init dna-promoter --steps 2 --eval-n 0 \
  --threads 1 --force
[[ $(sha256sum "$ckpt") != "$sum_before" ]] || fail "--force did not replace tata.ckpt"
expect_rc 0 "$G" models delete tata
[[ ! -e $ckpt && ! -e $card ]] || fail "delete left files"
echo "fine_tune_cli: ok"
