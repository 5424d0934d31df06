#!/usr/bin/env bash
# `gsflow score FILE.fasta` (issue 37, item 5) with the real binary, the bundled models and the real
# data splits (scripts/fetch-data; the reserved test splits are not read): usage: score_cli.sh
# GSFLOW WORKDIR. Every figure is checked against an independent reference computed here (awk,
# Python): GC, GRAVY, forbidden sites on both strands, omitted letters and letter runs, identity
# to training sequences; the promoter classifier's score against the one `gsflow generate`
# stores for the same sequences. Bad inputs exit 2 naming the file and line.
set -euo pipefail
G=$1
W=$2
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"  # fail, expect_rc, fresh_workdir
fresh_workdir "$W"

DATA=${GSFLOW_DATA:-${GSFLOW_SOURCE_DIR:?GSFLOW_SOURCE_DIR or GSFLOW_DATA must be set}/data}
DNA_TRAIN=$DATA/dna256/train.fasta
DNA_VAL=$DATA/dna256/validation.fasta
PEP_TRAIN=$DATA/peptide/train.fasta
PEP_VAL=$DATA/peptide/validation.fasta
for f in "$DNA_TRAIN" "$DNA_VAL" "$PEP_TRAIN" "$PEP_VAL"; do
  [[ -s $f ]] || fail "$f is missing: run scripts/fetch-data"
done

expect_error() {  # expect_error CODE TEXT COMMAND... : exit CODE with TEXT on stderr
  local code=$1 text=$2; shift 2
  expect_rc "$code" "$@"
  grep -qF -- "$text" err.txt || { cat err.txt >&2; fail "stderr lacks '$text': $*"; }
}
first_records() {  # first_records N FILE: the first N records, as they are in the file
  awk -v n="$1" '/^>/ { k++ } k <= n' "$2"
}
one_line() {  # one_line FILE: "ID<TAB>SEQUENCE" per record, letters uppercased
  awk '/^>/ { if (id != "") print id "\t" s; id = substr($1, 2); s = ""; next }
       { s = s toupper($0) } END { if (id != "") print id "\t" s }' "$1"
}
csv_columns() {  # csv_columns FILE HEADER COL...: checks the header and every row's field count
                 # (RFC 4180 parse), prints the chosen columns tab-separated, one row per line
  python3 - "$@" <<'EOF'
import csv, sys
path, header, cols = sys.argv[1], sys.argv[2].split(","), sys.argv[3:]
with open(path, newline="") as f:
    rows = list(csv.reader(f))
if rows[0] != header:
    sys.exit(f"{path}: header {rows[0]}, expected {header}")
for i, row in enumerate(rows[1:], 2):
    if len(row) != len(header):
        sys.exit(f"{path}:{i}: {len(row)} fields, header has {len(header)}")
for row in rows[1:]:
    print("\t".join(row[header.index(c)] for c in cols))
EOF
}

# --- DNA: 400 real promoter windows (validation split, arm 3L) -----------------------------------
first_records 400 "$DNA_VAL" >val.fa
expect_rc 0 "$G" score val.fa --model dna-promoter --guide promoter --avoid EcoRI --avoid BsaI \
  --csv --out val.csv
csv_columns val.csv id,length,gc,promoter,train_identity,constraints_met,violations \
  id length gc promoter constraints_met violations >got.tsv
[[ $(wc -l <got.tsv) == 400 ]] || fail "val.csv has $(wc -l <got.tsv) rows, expected 400"
# The reference: GC counted by awk; EcoRI (GAATTC, its own reverse complement) and BsaI (GGTCTC,
# reverse strand GAGACC) found by substring search.
one_line val.fa | awk -F'\t' '{
  s = $2; gc = gsub(/[GC]/, "&", s);
  fwd = index(s, "GAATTC") || index(s, "GGTCTC"); rev = !fwd && index(s, "GAGACC");
  printf "%s\t%d\t%.10f\t%d\t%d\n", $1, length(s), gc / length(s), !(fwd || rev), rev }' >want.tsv
paste want.tsv got.tsv | awk -F'\t' '
  function abs(x) { return x < 0 ? -x : x }
  $1 != $6 || $2 != $7 { print "row " NR ": id/length " $6 "/" $7 ", expected " $1 "/" $2; bad = 1 }
  abs($3 - $8) > 1e-6 { print $1 ": gc " $8 ", awk counts " $3; bad = 1 }
  $9 < 0 || $9 > 1 || $9 == "" { print $1 ": promoter " $9 " outside [0, 1]"; bad = 1 }
  $4 != $10 { print $1 ": constraints_met " $10 ", expected " $4 " (" $11 ")"; bad = 1 }
  $4 == 0 && $11 !~ /^avoid / { print $1 ": violations '\''" $11 "'\''"; bad = 1 }
  $4 == 1 && $11 != "" { print $1 ": met, but violations '\''" $11 "'\''"; bad = 1 }
  $5 == 1 && $11 !~ /reverse strand/ { print $1 ": reverse-strand BsaI not named: " $11; bad = 1 }
  $4 == 0 { unmet++ } $5 == 1 { reverse++ }
  END { if (unmet < 5 || reverse < 1) { print "too few sites to test: " unmet " unmet, " reverse " reverse"; bad = 1 }
        exit bad }' || fail "score disagrees with the awk reference on val.fa"
# Standard input gives the same table as the file.
expect_rc 0 "$G" score val.fa --alphabet dna --avoid EcoRI
mv out.txt from-file.txt
cat val.fa | "$G" score - --alphabet dna --avoid EcoRI >from-stdin.txt 2>/dev/null
cmp -s from-file.txt from-stdin.txt || fail "score - (stdin) differs from score FILE"
read -ra header <from-file.txt
[[ "${header[*]}" == "id length gc constraints_met violations" ]] || fail "table header: ${header[*]}"
# No model: the alphabet is guessed and said; no training set, said once.
expect_rc 0 "$G" score val.fa --json
grep -q "alphabet dna, guessed" err.txt || { cat err.txt; fail "no note of the guessed alphabet"; }
[[ $(grep -c "no training set" err.txt) == 1 ]] || { cat err.txt; fail "training-set note not once"; }
python3 -c "
import json, sys
rows = json.load(open('out.txt'))
assert len(rows) == 400 and list(rows[0]) == ['id', 'length', 'gc'], rows[0]" \
  || fail "--json: expected 400 objects of id, length, gc"

# --- the promoter classifier: the score generate stores for the same sequences ------------------
expect_rc 0 "$G" generate --model dna-promoter --n 6 --steps 10 --seed 5 --guide promoter \
  --gamma 0 --db gen.sqlite --name g --quiet --out gen.fa
expect_rc 0 "$G" export g --db gen.sqlite --json gen.json
expect_rc 0 "$G" score gen.fa --guide promoter --guide gc --json --out gen-score.json
python3 - <<'EOF' || fail "score's promoter / gc differ from generate's stored scores"
import json
stored = {s["id"]: s["scores"] for s in json.load(open("gen.json"))["sequences"]}
scored = json.load(open("gen-score.json"))
assert len(scored) == 6 == len(stored), (len(scored), len(stored))
for r in scored:
    want = stored[r["id"]]
    assert abs(r["promoter"] - want["promoter"]) < 1e-6, (r, want)
    assert abs(r["gc"] - want["gc"]) < 1e-12, (r, want)
    assert 0 <= r["promoter"] <= 1, r
EOF

# --- identity to the training set -----------------------------------------------------------------
# Training sequences themselves: identity 1 (DNA and peptides, each model's own training split).
first_records 5 "$DNA_TRAIN" >dna-train5.fa
expect_rc 0 "$G" score dna-train5.fa --model dna-promoter --csv
csv_columns out.txt id,length,gc,train_identity train_identity | sort -u >ids.txt
[[ $(cat ids.txt) == 1 ]] || fail "DNA training sequences: train_identity $(tr '\n' ' ' <ids.txt)"
first_records 5 "$PEP_TRAIN" >pep-train5.fa
expect_rc 0 "$G" score pep-train5.fa --model peptide --guide amp --csv
csv_columns out.txt id,length,gravy,amp,train_identity train_identity | sort -u >ids.txt
[[ $(cat ids.txt) == 1 ]] || fail "peptide training sequences: train_identity $(tr '\n' ' ' <ids.txt)"
# --judge: the bundled amp judge's probability (column judge:amp) against the judge file read
# here (features of models/pretrained/judges/amp.json: length / 100, letter and pair counts
# divided by their windows; standardised; logistic); a DNA judge on peptides exits 2.
first_records 20 "$PEP_VAL" >pep-val20.fa
expect_rc 0 "$G" score pep-val20.fa --alphabet protein --judge amp --csv
csv_columns out.txt id,length,gravy,judge:amp judge:amp >judge.txt
python3 - pep-val20.fa judge.txt "$GSFLOW_SOURCE_DIR/models/pretrained/judges/amp.json" <<'EOF'
import json, math, sys
seqs, s = [], None
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith(">"):
        if s is not None: seqs.append(s)
        s = ""
    elif line: s += line.upper()
seqs.append(s)
got = [float(x) for x in open(sys.argv[2])]
j = json.load(open(sys.argv[3]))
a, K = "ACDEFGHIKLMNPQRSTVWY", 20
assert j["features"]["kmax"] == 2 and j["features"]["length"], j["features"]
mean, scale = j["standardisation"]["mean"], j["standardisation"]["scale"]
assert len(got) == len(seqs) == 20
for seq, p in zip(seqs, got):
    x = [len(seq) / j["features"]["length_scale"]] + [0.0] * (K + K * K)
    for c in seq: x[1 + a.index(c)] += 1 / len(seq)
    for u, v in zip(seq, seq[1:]): x[1 + K + a.index(u) * K + a.index(v)] += 1 / (len(seq) - 1)
    z = j["intercept"] + sum(w * (xi - m) / sd for w, xi, m, sd in zip(j["weights"], x, mean, scale))
    want = 1 / (1 + math.exp(-z))
    if abs(p - want) > 1e-5 * max(1e-3, want): sys.exit(f"judge:amp {p} for {seq}, expected {want}")
EOF
expect_error 2 "--judge promoter: judges dna sequences" "$G" score pep-val20.fa --alphabet protein --judge promoter
# --train: the highest ungapped identity to three real training windows, counted by awk; a record
# of a length no training sequence has gets no value.
first_records 3 "$DNA_TRAIN" >train3.fa
first_records 4 "$DNA_VAL" >query.fa
printf '>odd_length\nACGTACGTAC\n' >>query.fa
expect_rc 0 "$G" score query.fa --train train3.fa --csv
csv_columns out.txt id,length,gc,train_identity id train_identity >got.tsv
{ one_line train3.fa | sed 's/^/T\t/'; one_line query.fa | sed 's/^/Q\t/'; } | awk -F'\t' '
  $1 == "T" { t[++n] = $3; next }
  { best = ""; for (i = 1; i <= n; i++) if (length(t[i]) == length($3)) {
      m = 0; for (p = 1; p <= length($3); p++) m += substr(t[i], p, 1) == substr($3, p, 1);
      if (best == "" || m / length($3) > best) best = m / length($3) }
    print $2 "\t" best }' >want.tsv
paste want.tsv got.tsv | awk -F'\t' '
  $1 != $3 || ($2 == "" ? $4 != "" : ($4 == "" || ($2 - $4) ^ 2 > 1e-12)) {
    print $1 ": train_identity \"" $4 "\", awk counts \"" $2 "\""; bad = 1 }
  END { exit bad }' || fail "--train identity disagrees with the awk count"
grep -q "1 record(s) have a length no training sequence has" err.txt || { cat err.txt; fail "odd length not said"; }

# --- peptides: GRAVY and the residue constraints against awk (validation split) ------------------
first_records 300 "$PEP_VAL" >pep.fa
expect_rc 0 "$G" score pep.fa --model peptide --omit C --max-run 3 --csv --out pep.csv
csv_columns pep.csv id,length,gravy,train_identity,constraints_met,violations \
  id gravy constraints_met >got.tsv
one_line pep.fa | awk -F'\t' 'BEGIN {
    split("A 1.8 R -4.5 N -3.5 D -3.5 C 2.5 Q -3.5 E -3.5 G -0.4 H -3.2 I 4.5 L 3.8 K -3.9 " \
          "M 1.9 F 2.8 P -1.6 S -0.8 T -0.7 W -0.9 Y -1.3 V 4.2", kd, " ")
    for (i = 1; i < 40; i += 2) h[kd[i]] = kd[i + 1] }
  { s = $2; sum = 0; run = 0; longest = 0
    for (p = 1; p <= length(s); p++) { c = substr(s, p, 1); sum += h[c]
      run = (p > 1 && c == substr(s, p - 1, 1)) ? run + 1 : 1; if (run > longest) longest = run }
    printf "%s\t%.10f\t%d\n", $1, sum / length(s), index(s, "C") == 0 && longest <= 3 }' >want.tsv
paste want.tsv got.tsv | awk -F'\t' '
  function abs(x) { return x < 0 ? -x : x }
  $1 != $4 || abs($2 - $5) > 1e-5 * (1 + abs($2)) || $3 != $6 {
    print $1 ": gravy/met " $5 "/" $6 ", awk " $2 "/" $3; bad = 1 }
  $6 == 0 { unmet++ } $6 == 1 { met++ }
  END { if (unmet < 5 || met < 5) { print "too few of each: " met " met, " unmet " unmet"; bad = 1 }
        exit bad }' || fail "peptide scores disagree with the awk reference"

# --- CSV quoting (RFC 4180): ids with a comma and a double quote --------------------------------
printf '>a,b first\nACGTACGT\n>q"x\nGGGGCCCC\n' >quoted.fa
expect_rc 0 "$G" score quoted.fa --csv
csv_columns out.txt id,length,gc id gc >got.tsv
printf 'a,b\t0.5\nq"x\t1\n' | cmp -s - got.tsv || { cat out.txt; fail "CSV quoting"; }

# --- bad input: exit 2, the file and line named -------------------------------------------------
printf '>r1\nACGT\nACGT\n>r2\nGGCC\n>r3\nACGTX\n' >bad-letter.fa
expect_error 2 "bad-letter.fa:6: record 'r3': letter 'X' at position 5" "$G" score bad-letter.fa \
  --alphabet dna
# A real promoter window, then a real peptide: the peptide's header line is named.
{ first_records 1 val.fa; first_records 1 pep.fa; } >mixed.fa
line=$(grep -n '^>' mixed.fa | sed -n 2p | cut -d: -f1)
id=$(grep '^>' mixed.fa | sed -n 2p | cut -c2- | cut -d' ' -f1)
expect_error 2 "mixed.fa:$line: record '$id': letter" "$G" score mixed.fa --model dna-promoter
printf 'ACGT\n>a\nACGT\n' >no-header.fa
expect_error 2 "no-header.fa:1:" "$G" score no-header.fa
printf '>a\n>b\nACGT\n' >empty-record.fa
expect_error 2 "empty-record.fa:1: record 'a' has no sequence" "$G" score empty-record.fa
: >empty.fa
expect_error 2 "empty.fa: no FASTA records" "$G" score empty.fa
expect_error 2 "missing.fa: cannot open" "$G" score missing.fa
printf '>short\nACGTACGTAC\n' >short.fa
expect_error 2 "short.fa:1: record 'short': --guide promoter" "$G" score short.fa --guide promoter
expect_error 2 "--guide nonsense: unknown objective" "$G" score val.fa --guide nonsense
expect_error 2 "--guide amp:" "$G" score val.fa --guide amp
expect_error 2 "--csv and --json" "$G" score val.fa --csv --json
expect_error 2 "--avoid: DNA only" "$G" score pep.fa --avoid EcoRI
expect_error 2 "--alphabet protein: --model dna-promoter makes dna" "$G" score val.fa \
  --model dna-promoter --alphabet protein
expect_error 2 "bad-letter.fa:6:" "$G" score val.fa --train bad-letter.fa
echo "score_cli: all checks passed"
