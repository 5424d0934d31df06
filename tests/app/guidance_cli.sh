#!/usr/bin/env bash
# Command-line tests of STGFlow guidance with the real gsflow binary, the bundled models,
# classifiers and judges, and real SQLite files: usage: guidance_cli.sh GSFLOW WORKDIR CASE
# Cases: generate (a guided run is stored with its objectives' scores and per-step score curves and
# reruns bit for bit), natural (guided peptides keep the AMP class's composition by default, and
# --naturalness 0 shows the cysteine exploit it prevents), torchscript (a user TorchScript classifier guides), bad_guide (bad guidance input exits 2 naming the field, the store untouched),
# eval (gsflow eval-guidance on the validation split: the JSON report and its trade-off; needs
# scripts/fetch-data), eval_bad (eval-guidance input errors).
set -euo pipefail
G=$1
W=$2/$3
CASE=$3
rm -rf "$W"
mkdir -p "$W"
cd "$W"
export OMP_WAIT_POLICY=PASSIVE

source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"  # fail, expect_rc
expect_err() {  # expect_err PATTERN: the last command's stderr mentions PATTERN
  grep -q -- "$1" err.txt || { cat err.txt >&2; fail "stderr does not mention '$1'"; }
}

GEN=(generate --model dna-promoter --steps 8 --quiet --n 4 --batch 2 --seed 3)

case "$CASE" in
generate)
  expect_rc 0 "$G" "${GEN[@]}" --db r.sqlite --name guided --guide gc=1 --guide motif=0.5 \
    --gamma 4 --guide-samples 2 --json --out g.fa
  cp out.txt gen.json
  expect_rc 0 "$G" "${GEN[@]}" --db r.sqlite --name plain --out u.fa
  python3 - <<'PY'
import json, sqlite3
s = json.load(open("gen.json"))
# 4 sequences x 8 steps x M = 2 draws, evaluated once per objective term.
assert s["objective_calls"] == 4 * 8 * 2 * 2, s["objective_calls"]
def records(path):
    heads = [l[1:].split() for l in open(path) if l.startswith(">")]
    return [dict(f.split("=", 1) for f in h[1:] if "=" in f) for h in heads]
g, u = records("g.fa"), records("u.fa")
assert len(g) == 4 and all("gc" in r and "motif" in r for r in g), g
# The same seeds: guidance towards GC raises every sequence's GC content.
gc_g = [float(r["gc"]) for r in g]
seqs = {}
name = None
for l in open("u.fa"):
    l = l.strip()
    if l.startswith(">"): name = l; seqs[name] = ""
    else: seqs[name] += l
gc_u = [sum(c in "GC" for c in s) / len(s) for s in seqs.values()]
assert all(a > b for a, b in zip(gc_g, gc_u)), (gc_g, gc_u)
db = sqlite3.connect("r.sqlite")
rid = db.execute("SELECT id FROM runs WHERE name = 'guided'").fetchone()[0]
rows = db.execute("SELECT objective, COUNT(*), MIN(step), MAX(step) FROM step_scores "
                  "WHERE run_id = ? GROUP BY objective ORDER BY objective", (rid,)).fetchall()
# Two batches of 2 sequences, 8 steps each, one curve per objective.
assert rows == [("gc", 16, 0, 7), ("motif", 16, 0, 7)], rows
means = [m for (m,) in db.execute("SELECT mean FROM step_scores WHERE run_id = ? AND "
                                  "objective = 'gc' AND batch_first = 0 ORDER BY step", (rid,))]
assert means[-1] > means[0], means
stored = db.execute("SELECT COUNT(*) FROM scores WHERE run_id = ? AND objective = 'motif'",
                    (rid,)).fetchone()[0]
assert stored == 4, stored
PY
  # The run record is enough to reproduce the guided sequences bit for bit.
  expect_rc 0 "$G" rerun guided --db r.sqlite --check
  ;;
natural)
  # The same seeds guided toward amp at gamma 8: by default natural:amp=16 joins the guides (in the
  # header, the stored run and its rerun); without it most designs carry more cysteine than 99 % of
  # real antimicrobial peptides (issue 38), with it almost none do.
  NAT=(generate --model peptide --guide amp --gamma 8 --n 24 --steps 50 --seed 3 --quiet)
  expect_rc 0 "$G" "${NAT[@]}" --db r.sqlite --name natural --out nat.fa
  expect_rc 0 "$G" "${NAT[@]}" --naturalness 0 --no-store --out raw.fa
  expect_rc 2 "$G" "${NAT[@]}" --naturalness -1 --no-store --out bad.fa
  python3 - "$GSFLOW_SOURCE_DIR/models/pretrained/bands/amp.json" <<'PY'
import json, sqlite3, sys
band = json.load(open(sys.argv[1]))
c_high = band["high"][band["names"].index("C")]
def records(path):
    out, head = [], None
    for l in open(path):
        l = l.strip()
        if l.startswith(">"): head = l; out.append([head, ""])
        else: out[-1][1] += l
    return out
nat, raw = records("nat.fa"), records("raw.fa")
assert all(" natural:amp=" in h for h, _ in nat), nat[0][0]
assert not any("natural:" in h for h, _ in raw), raw[0][0]
share = lambda recs: sum(s.count("C") / len(s) > c_high for _, s in recs) / len(recs)
assert share(raw) >= 0.4, ("the exploit this test guards against is gone", share(raw))
assert share(nat) <= 0.1, ("natural:amp did not hold cysteine", share(nat), share(raw))
db = sqlite3.connect("r.sqlite")
params = json.loads(db.execute("SELECT params FROM runs WHERE name = 'natural'").fetchone()[0])
terms = [(t["objective"], t["weight"]) for t in params["guide"]]
assert terms == [("amp", 1.0), ("natural:amp", 16.0)], terms
PY
  expect_rc 0 "$G" rerun natural --db r.sqlite --check
  ;;
bad_guide)
  expect_rc 0 "$G" "${GEN[@]}" --db r.sqlite --name keep
  cp r.sqlite before.sqlite
  expect_rc 2 "$G" "${GEN[@]}" --db r.sqlite --guide no-such-objective
  expect_err "no-such-objective"
  expect_rc 2 "$G" "${GEN[@]}" --db r.sqlite --guide gc=heavy
  expect_err "weight 'heavy' is not a number"
  expect_rc 2 "$G" "${GEN[@]}" --db r.sqlite --guide gc --gamma -1
  expect_err "gamma"
  expect_rc 2 "$G" "${GEN[@]}" --db r.sqlite --guide gravy
  expect_err "protein"
  expect_rc 2 "$G" "${GEN[@]}" --db r.sqlite --guide gc --gamma-schedule sometimes
  expect_err "sometimes"
  expect_rc 2 "$G" "${GEN[@]}" --db r.sqlite --guide motif:missing.jaspar
  expect_err "missing.jaspar"
  python3 - <<'PY'
import sqlite3
for f in ("r.sqlite", "before.sqlite"):
    db = sqlite3.connect(f)
    assert [r[0] for r in db.execute("SELECT name FROM runs")] == ["keep"], f
PY
  ;;
torchscript)
  # A user's TorchScript classifier (models/examples/gc-count: counts G and C) steers generation
  # through its JSON descriptor, and its scores agree with the built-in GC fraction.
  D="$GSFLOW_SOURCE_DIR/models/examples/gc-count.json"
  expect_rc 0 "$G" "${GEN[@]}" --no-store --guide "classifier:$D" --gamma 0 --out u.fa
  expect_rc 0 "$G" "${GEN[@]}" --no-store --guide "classifier:$D" --gamma 1 --out g.fa
  python3 - <<'PY'
def records(path):
    out = []
    for l in open(path):
        if l.startswith(">"):
            f = dict(x.rsplit("=", 1) for x in l.split()[1:] if "=" in x)
            count = float(f["gc-count"])  # a plug-in's score goes by its file's stem
            out.append((count, float(f["gc"]) * int(f["length"])))
    return out
u, g = records("u.fa"), records("g.fa")
assert len(u) == len(g) == 4
for count, gc in u + g:
    assert abs(count - gc) < 0.51, (count, gc)
assert all(b[0] > a[0] + 10 for a, b in zip(u, g)), (u, g)
PY
  ;;
eval)
  expect_rc 0 "$G" eval-guidance --model dna-promoter --objective promoter --gammas 0,16 --n 24 \
    --steps 10 --guide-samples 2 --pool 60 --seed 1 --json --out report.json
  cmp -s out.txt report.json || fail "--out differs from --json"
  python3 - <<'PY'
import json
r = json.load(open("report.json"))
assert r["model"] == "dna-promoter" and r["objective"] == "promoter" and r["judge"] == "promoter"
assert r["split"] == "validation" and r["n"] == 24
g = {row["gamma"]: row for row in r["results"]}
assert sorted(g) == [0, 16], sorted(g)
for row in g.values():
    for key in ("guide_mean", "judge_mean", "kmer_js", "uniqueness", "seconds"):
        assert key in row, key
    assert 0 <= row["guide_mean"] <= 1 and 0 <= row["judge_mean"] <= 1
    assert len(row["kmer_js_by_k"]) == 6
# Steering by the classifier raises its mean score a lot at gamma 16 (0.6 -> 0.95 at n = 64).
assert g[16]["guide_mean"] > g[0]["guide_mean"] + 0.15, (g[0]["guide_mean"], g[16]["guide_mean"])
assert g[0]["objective_calls_per_sequence"] == 0
assert g[16]["objective_calls_per_sequence"] == 10 * 2
b = r["best_of_n"]
assert b["classifier_calls"] == 20 and b["n"] == 20 and b["pool"] == 60, b
# Best-of-20 by the guide has a higher guide mean than a random unguided sample.
assert b["guide_mean"] > g[0]["guide_mean"], b
assert 0 <= r["judge_p90_unguided"] <= 1
# Composition checks (issue 38) per gamma and for the real sets: shares in [0, 1], CpG o/e near 1
# for real promoters, the atypical share from the model's typicality profile.
assert r["typicality_profile"].endswith("dna-promoter.profile.json"), r["typicality_profile"]
real = r["composition_real"]
assert real["training"]["source"] == "dna256/train.fasta" and real["reference"]["n"] > 1000, real
assert 0.5 < real["training"]["cpg_oe_mean"] < 1.5, real["training"]
for c in [row["composition"] for row in g.values()] + [real["training"], real["reference"]]:
    assert c["tata_window"] == [-45, -15] and c["long_run_min"] == 8, c
    for key in ("tata_window_fraction", "long_run_fraction", "atypical_fraction"):
        assert 0 <= c[key] <= 1, (key, c)
    assert c["cpg_oe_mean"] > 0, c
assert g[0]["composition"]["n"] == 24
assert g[0]["seconds_per_100"] > 0
PY
  # Peptides by SVDD: the real figures come from the amp=1 records, the ceiling from the training
  # ones; --real-label none takes every training peptide instead.
  expect_rc 0 "$G" eval-guidance --model peptide --objective amp --guidance-method svdd --gammas 8 \
    --n 12 --steps 6 --pool 12 --seed 1 --out amp.json
  grep -q "any > p99" out.txt || fail "no composition table in the text report"
  expect_rc 0 "$G" eval-guidance --model peptide --objective amp --gammas 8 --n 8 --steps 4 \
    --pool 8 --seed 1 --real-label none --json --out amp-all.json
  # The training AMPs scored by `gsflow score`, the reference for the report's real-class judge mean.
  awk '/^>/{p=($0 ~ / amp=1 /)} p' "${GSFLOW_DATA:-$GSFLOW_SOURCE_DIR/data}/peptide/train.fasta" \
    > amp-train.fasta
  expect_rc 0 "$G" score --judge amp --csv amp-train.fasta --out amp-train.csv
  python3 - <<'PY'
import json
r = json.load(open("amp.json"))
assert r["guidance_method"] == "svdd"
ceiling = r["residue_ceiling"]
assert ceiling["source"] == "peptide/train.fasta amp=1" and ceiling["quantile"] == 0.99, ceiling
assert 1000 < ceiling["sequences"] < 2000 and len(ceiling["high"]) == 20, ceiling
real = r["composition_real"]
assert real["reference_class"]["source"] == "peptide/validation.fasta amp=1", real
# By construction about 1 % of the training positives lie above each residue's ceiling.
assert real["training_class"]["worst_residue_fraction"] <= 0.011, real["training_class"]
for c in [row["composition"] for row in r["results"]] + list(real.values()):
    assert c["long_run_min"] == 5 and "cpg_oe_mean" not in c, c
    for key in ("residue_above_ceiling_fraction", "worst_residue_fraction", "long_run_fraction",
                "atypical_fraction"):
        assert 0 <= c[key] <= 1, (key, c)
    assert len(c["residue_above_ceiling_by_letter"]) == 20
# Designs are also compared with the real class: k-mer JS to the split's AMPs (k = 1..3), and the
# judge's mean on the training AMPs (the same records scored by `gsflow score`).
for row in r["results"]:
    assert len(row["kmer_js_class_by_k"]) == 3 and 0 < row["kmer_js_class"] < 1, row
    assert row["kmer_js_class_by_k"] != row["kmer_js_by_k"], row
import csv
scored = list(csv.DictReader(open("amp-train.csv")))
column = [c for c in scored[0] if c.startswith("judge")][0]
reference = sum(float(x[column]) for x in scored) / len(scored)
assert len(scored) == ceiling["sequences"], (len(scored), ceiling["sequences"])
assert abs(r["judge_mean_training_class"] - reference) < 1e-5, (r["judge_mean_training_class"], reference)
a = json.load(open("amp-all.json"))
assert a["residue_ceiling"]["source"] == "peptide/train.fasta", a["residue_ceiling"]
assert a["residue_ceiling"]["sequences"] > 10000 and "training" not in a["composition_real"]
assert "judge_mean_training_class" not in a and all("kmer_js_class" not in row for row in a["results"])
PY
  # The report plots.
  if command -v gnuplot >/dev/null; then
    expect_rc 0 "$GSFLOW_SOURCE_DIR/scripts/plot-guidance" report.json tradeoff.png
    [[ $(head -c 4 tradeoff.png | tail -c 3) == PNG ]] || fail "not a PNG"
  fi
  ;;
eval_bad)
  expect_rc 2 "$G" eval-guidance --objective promoter --gammas 0,x --n 4 --steps 2
  expect_err "gammas"
  expect_rc 2 "$G" eval-guidance --objective promoter --gammas 0,-1 --n 4 --steps 2
  expect_err "--gammas: -1"
  expect_rc 2 "$G" eval-guidance --objective promoter --judge amp --n 4 --steps 2
  expect_err "judge"
  expect_rc 2 "$G" eval-guidance --model peptide --objective gc --n 4 --steps 2
  expect_err "gc"
  expect_rc 2 "$G" eval-guidance --objective promoter --n 4 --steps 2 --data no-such-folder
  expect_err "no-such-folder"
  ;;
*)
  fail "unknown case $CASE"
  ;;
esac
echo "ok: $CASE"
