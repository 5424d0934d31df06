#!/usr/bin/env bash
# `gsflow train-classifier --name` from plain files and user models by name (issue 40, items 1 and
# 3) with the real binary, on synthetic but learnable DNA written here (positives carry TATAAAAG at
# a random place in 256 random bases; the regression target is the GC content): trains from two
# FASTA files and from a CSV, the model shows in `models list`, guides and scores by name with the
# name as header key, deletes; every bad input exits 2 naming the file and line and writes nothing.
# A judge (`train-judge --name` on 100 + 100 validation peptides by their ribosomal label) is listed
# as kind judge beside the bundled ones and deleted; a classifier and a judge of one name need
# `models delete --kind`.
# usage: own_data_cli.sh GSFLOW WORKDIR. ~30 s.
set -euo pipefail
G=$1
W=$2
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"  # fail, expect_rc, fresh_workdir
fresh_workdir "$W"
export GSFLOW_USER_MODELS=$W/user-models  # never the user's own folder
unset GSFLOW_MODELS

expect_error() {  # expect_error TEXT COMMAND...: exit 2 with TEXT on stderr
  local text=$1; shift
  expect_rc 2 "$@"
  grep -qF -- "$text" err.txt || { cat err.txt >&2; fail "stderr lacks '$text': $*"; }
}

python3 - <<'PY'
import random
rng = random.Random(11)
def seq(n): return "".join(rng.choice("ACGT") for _ in range(n))
def motif(s):
    at = rng.randrange(0, 256 - 8)
    return s[:at] + "TATAAAAG" + s[at + 8:]
with open("pos.fa", "w") as p, open("neg.fa", "w") as n:
    for i in range(100):
        p.write(f">p{i}\n{motif(seq(256))}\n")
        n.write(f">n{i}\n{seq(256)}\n")
# Regression: GC content of sequences with a varied GC bias.
with open("gc.csv", "w") as f:
    f.write("id,sequence,gc\n")
    for i in range(200):
        bias = rng.random()
        s = "".join(rng.choice("GC" if rng.random() < bias else "AT") for _ in range(256))
        f.write(f"r{i},{s},{sum(c in 'GC' for c in s) / len(s):.4f}\n")
PY

# --- train from two FASTA files -----------------------------------------------------------------
expect_rc 0 "$G" train-classifier --name tata1 --positives pos.fa --negatives neg.fa --steps 150 \
  --threads 1
ckpt=$GSFLOW_USER_MODELS/classifiers/tata1.ckpt
[[ -s $ckpt && -s ${ckpt%.ckpt}.md ]] || fail "no checkpoint or card in $GSFLOW_USER_MODELS"
grep -q "step 150/150\|stopped early" err.txt || { cat err.txt >&2; fail "no progress lines"; }
# The held-out part is 20 % of 200, random within each class (DNA).
auroc=$(sed -n 's/.*validation (40 sequences) AUROC \([0-9.]*\).*/\1/p' err.txt)
[[ -n $auroc ]] || { cat err.txt >&2; fail "no held-out AUROC line"; }
python3 -c "import sys; sys.exit(0 if float('$auroc') >= 0.9 else 1)" ||
  fail "held-out AUROC $auroc < 0.9 on an unmistakable motif"
for needle in "| validation | 40 | 20 |" "held out at random within each class" "AUROC" \
  "gsflow train-classifier --name tata1" "Training data hash"; do
  grep -qF -- "$needle" "${ckpt%.ckpt}.md" || fail "card lacks '$needle'"
done
sum_before=$(sha256sum "$ckpt")

# --- listed, by name --------------------------------------------------------------------------
expect_rc 0 "$G" models list
grep -E "^tata1 +classifier +user +dna +256 " out.txt >/dev/null || { cat out.txt; fail "tata1 not listed"; }
grep -E "^promoter +classifier +bundled" out.txt >/dev/null || { cat out.txt; fail "bundled not listed"; }
expect_rc 0 "$G" models list --json
python3 - <<'PY'
import json
rows = {r["name"]: r for r in json.load(open("out.txt"))}
t = rows["tata1"]
assert t["kind"] == "classifier" and t["origin"] == "user" and t["alphabet"] == "dna", t
assert t["length"] == "256" and len(t["data"].split()[0]) == 16, t
assert t["metrics"]["validation_auroc"] >= 0.9 and t["file"].endswith("classifiers/tata1.ckpt"), t
assert rows["dna-promoter"]["kind"].startswith("generator") and rows["dna-promoter"]["origin"] == "bundled"
PY

# --- guides and scores by name; the header key is the name --------------------------------------
GEN=(generate --model dna-promoter --steps 8 --quiet --n 4 --batch 2 --seed 3 --db r.sqlite)
expect_rc 0 "$G" "${GEN[@]}" --guide tata1 --gamma 4 --guide-samples 2 --out g.fa
grep -q "^>.* tata1=[0-9.e-]*" g.fa || { head -2 g.fa; fail "no tata1= key in the headers"; }
grep -q "classifier:" g.fa && fail "a user model by name must not give a classifier:FILE key"
expect_rc 0 "$G" score g.fa --guide tata1 --csv --out s.csv
head -1 s.csv | grep -q ",tata1" || { head -2 s.csv; fail "score has no tata1 column"; }
# score's values equal generate's stored ones (same classifier, same sequences).
python3 - <<'PY'
import csv
gen = [float(dict(f.split("=", 1) for f in l.split()[1:] if "=" in f)["tata1"])
       for l in open("g.fa") if l.startswith(">")]
sc = [float(r["tata1"]) for r in csv.DictReader(open("s.csv"))]
assert len(gen) == 4 and all(abs(a - b) < 1e-3 for a, b in zip(gen, sc)), (gen, sc)
PY

# --- regression from a CSV ----------------------------------------------------------------------
expect_rc 0 "$G" train-classifier --name gc1 --table gc.csv --sequence-column sequence \
  --label-column gc --task regression --steps 150 --threads 1
rho=$(sed -n 's/.*validation (40 sequences) Spearman \([0-9.-]*\).*/\1/p' err.txt)
python3 -c "import sys; sys.exit(0 if float('$rho') >= 0.8 else 1)" ||
  { cat err.txt >&2; fail "held-out Spearman '$rho' < 0.8 for GC content"; }
expect_rc 0 "$G" models list
grep -E "^gc1 +regressor +user +dna" out.txt >/dev/null || { cat out.txt; fail "gc1 not a regressor"; }
expect_rc 0 "$G" "${GEN[@]}" --guide gc1 --gamma 4 --guide-samples 2 --out r.fa
grep -q "^>.* gc1=" r.fa || fail "no gc1= key"
# The regressor predicts the value itself: close to the GC content of the generated sequences.
python3 - <<'PY'
heads, seqs = [], []
for l in open("r.fa"):
    l = l.strip()
    if l.startswith(">"): heads.append(dict(f.split("=", 1) for f in l.split()[1:] if "=" in f)); seqs.append("")
    else: seqs[-1] += l
for h, s in zip(heads, seqs):
    gc = sum(c in "GC" for c in s) / len(s)
    assert abs(float(h["gc1"]) - gc) < 0.15, (h["gc1"], gc)
PY

# --- bad input: exit 2, the file and line named, nothing written --------------------------------
head -20 neg.fa >neg10.fa                           # 10 records: lines 1..20
expect_error "neg10.fa:19: training data: only 10 negative" \
  "$G" train-classifier --name few --positives pos.fa --negatives neg10.fa
{ cat neg.fa; sed -n 5,6p pos.fa | sed 's/^>p2/>copy/'; } >negdup.fa   # p2 again, as negative
expect_error "negdup.fa:201: the same sequence labelled both ways: copy" \
  "$G" train-classifier --name dup --positives pos.fa --negatives negdup.fa
grep -q "pos.fa:5" err.txt || fail "the conflict does not name the positive's line"
{ head -6 pos.fa; echo ">bad"; echo "ACGTZACGT"; tail -n +7 pos.fa; } >posz.fa
expect_error "posz.fa:7: " "$G" train-classifier --name letters --positives posz.fa --negatives neg.fa
grep -q "'Z'" err.txt || { cat err.txt >&2; fail "the letter is not named"; }
awk -F, 'NR == 1 { print "sequence,label"; next } { print $2 ",1" }' gc.csv >oneclass.csv
expect_error "oneclass.csv:1: training data: one class only" \
  "$G" train-classifier --name one --table oneclass.csv
expect_error "gc.csv:1: no column 'seq' (--sequence-column); the header has: id, sequence, gc" \
  "$G" train-classifier --name cols --table gc.csv --sequence-column seq --label-column gc
sed '5s/,0\.[0-9]*$/,high/' gc.csv >words.csv
expect_error "words.csv:5: gc is 'high', not a number" \
  "$G" train-classifier --name words --table words.csv --label-column gc --task regression
expect_error "words.csv:2: gc is '0." \
  "$G" train-classifier --name words --table words.csv --label-column gc
grep -q -- "--task regression" err.txt || fail "no hint to --task regression"
expect_error "tata1.ckpt already exists" \
  "$G" train-classifier --name tata1 --positives pos.fa --negatives neg.fa
expect_error "a classifier of that name exists" \
  "$G" train-classifier --name promoter --positives pos.fa --negatives neg.fa --force
expect_error "built-in guidance objective" \
  "$G" train-classifier --name gc --positives pos.fa --negatives neg.fa
[[ $(sha256sum "$ckpt") == "$sum_before" ]] || fail "a refused run changed tata1.ckpt"
[[ $(ls "$GSFLOW_USER_MODELS/classifiers" | sort | tr '\n' ' ') == "gc1.ckpt gc1.md tata1.ckpt tata1.md " ]] ||
  { ls "$GSFLOW_USER_MODELS/classifiers"; fail "a refused run left a file"; }
expect_rc 2 "$G" train-classifier --steps 3   # neither --config nor --name: usage error (2)
# --force replaces it.
expect_rc 0 "$G" train-classifier --name tata1 --positives pos.fa --negatives neg.fa --steps 20 \
  --threads 1 --force
[[ $(sha256sum "$ckpt") != "$sum_before" ]] || fail "--force did not replace tata1.ckpt"

# --- judges (train-judge --name): listed, found by kind, deleted like the other user models -----
# 100 + 100 validation peptides by their ribosomal label (topped up from the train split if the
# validation split has fewer); synthetic peptides when the data are not fetched
# (scripts/fetch-data), so that listing and deleting judges are always checked.
val=$(dirname "${BASH_SOURCE[0]}")/../../data/peptide/validation.fasta
if [[ -s $val && -s ${val%validation.fasta}train.fasta ]]; then
  python3 - "$val" "${val%validation.fasta}train.fasta" <<'PY'
import sys
out, n = {"1": open("jpos.fa", "w"), "0": open("jneg.fa", "w")}, {"1": 0, "0": 0}
for path in sys.argv[1:]:
    recs = []
    for l in open(path):
        l = l.strip()
        if l.startswith(">"): recs.append([l, ""])
        elif recs: recs[-1][1] += l
    for h, s in recs:
        label = dict(f.split("=", 1) for f in h.split()[1:] if "=" in f).get("ribosomal")
        if label in n and n[label] < 100:
            out[label].write(f"{h.split()[0]}\n{s}\n")
            n[label] += 1
assert n == {"1": 100, "0": 100}, f"ribosomal=1/0 records {n}"
PY
else
  echo "own_data_cli: no $val (scripts/fetch-data): the judge learns synthetic peptides" >&2
  python3 - <<'PY'
import random
rng = random.Random(5)
aa = "ACDEFGHIKLMNPQRSTVWY"
with open("jpos.fa", "w") as p, open("jneg.fa", "w") as n:
    for i in range(100):  # positives: lysine/arginine-rich
        p.write(f">jp{i}\n{''.join(rng.choice(aa + 'KRKRKR') for _ in range(rng.randint(20, 60)))}\n")
        n.write(f">jn{i}\n{''.join(rng.choice(aa) for _ in range(rng.randint(20, 60)))}\n")
PY
fi
expect_rc 0 "$G" train-judge --name ribo --positives jpos.fa --negatives jneg.fa --threads 1
judge=$GSFLOW_USER_MODELS/judges/ribo.json
[[ -s $judge ]] || fail "train-judge --name ribo wrote no $judge"
expect_rc 0 "$G" models list
grep -E "^ribo +judge +user +protein +any \(k-mers 1\.\.[0-9]+( \+ length)?\) +[0-9a-f]{16} \([0-9]+ train\) +cv auroc [0-9.]+ +$judge$" \
  out.txt >/dev/null || { cat out.txt; fail "judge ribo not listed"; }
for bundled in amp promoter; do
  grep -E "^$bundled +judge +bundled +(dna|protein) +any \(k-mers .*judges/$bundled.json$" out.txt \
    >/dev/null || { cat out.txt; fail "bundled judge $bundled not listed"; }
done
grep -E "^promoter +classifier +bundled" out.txt >/dev/null || fail "the classifier promoter went"
expect_rc 0 "$G" models list --json
python3 - "$judge" <<'PY'
import json, sys
rows = json.load(open("out.txt"))
judges = {(r["name"], r["origin"]): r for r in rows if r["kind"] == "judge"}
r = judges[("ribo", "user")]
assert r["alphabet"] == "protein" and r["length"] == "any" and r["file"] == sys.argv[1], r
assert r["features"].startswith("k-mers 1..") and r["data"].endswith(" train)"), r
assert 0.8 < r["metrics"]["cv_auroc"] <= 1 and "cv_log_loss" in r["metrics"], r  # ribosomal: ~0.93
assert set(judges) == {("ribo", "user"), ("amp", "bundled"), ("promoter", "bundled")}, judges
amp = judges[("amp", "bundled")]
assert amp["alphabet"] == "protein" and "test_split_auroc" in amp["metrics"], amp
# A classifier and a judge share the name promoter: both listed, the classifier first.
kinds = [r["kind"] for r in rows if r["name"] == "promoter"]
assert kinds == ["classifier", "judge"], kinds
PY
expect_error "judges/amp.json is a bundled judge" "$G" models delete amp --kind judge
expect_error "no user judge of that name" "$G" models delete tata1 --kind judge
expect_rc 2 "$G" models delete ribo --kind tokenizer   # not a kind: usage error
[[ -e $judge ]] || fail "a refused delete removed $judge"
expect_rc 0 "$G" models delete ribo
grep -qF "removed $judge" err.txt || { cat err.txt; fail "delete did not name $judge"; }
[[ ! -e $judge ]] || fail "models delete ribo left $judge"
expect_error "models delete ribo: no user model of that name" "$G" models delete ribo
expect_rc 0 "$G" models list
grep -q "^ribo " out.txt && { cat out.txt; fail "deleted judge still listed"; }
# A user classifier and a user judge of one name (a guide and its judge): delete asks which. (The
# peptides again: a judge of the DNA above takes half a minute.)
expect_rc 0 "$G" train-judge --name tata1 --positives jpos.fa --negatives jneg.fa --threads 1
tjudge=$GSFLOW_USER_MODELS/judges/tata1.json
expect_rc 0 "$G" models list
grep -E "^tata1 +classifier +user" out.txt >/dev/null && grep -E "^tata1 +judge +user" out.txt \
  >/dev/null || { cat out.txt; fail "tata1 not listed as both classifier and judge"; }
expect_error "tata1 is a user classifier ($ckpt) and a user judge ($tjudge); say which with --kind classifier|judge" \
  "$G" models delete tata1
[[ -e $ckpt && -e $tjudge ]] || fail "an ambiguous delete removed a file"
expect_rc 0 "$G" models delete tata1 --kind judge
[[ -e $ckpt && ! -e $tjudge ]] || fail "delete --kind judge removed the wrong file"

# --- delete -------------------------------------------------------------------------------------
expect_error "is a bundled classifier" "$G" models delete promoter
expect_error "is a bundled model" "$G" models delete dna-promoter
expect_error "no user model of that name" "$G" models delete nothing
expect_rc 0 "$G" models delete tata1
[[ ! -e $ckpt && ! -e ${ckpt%.ckpt}.md ]] || fail "delete left files"
expect_rc 0 "$G" models list
grep -q "^tata1 " out.txt && fail "deleted model still listed"
expect_error "unknown objective 'tata1'" "$G" "${GEN[@]}" --guide tata1 --out x.fa
echo "own_data_cli: ok"
