#!/usr/bin/env bash
# `gsflow data protein-windows` on the real metastudent BLAST db (scripts/fetch-data) with a
# hand-written peptide folder: every window's length is one of the training peptides' lengths and
# its header's range fits it; a held-out peptide that copies a window (2 residues changed) removes
# exactly that window (kept in work/leaks-windows.fasta, counted in summary.json) while one that
# shares only 12 of its 40 residues with another window removes nothing; the same inputs give the
# same file; a recipe listing both files trains on 3 + 199 sequences; a --min-protein-length that
# does not exceed the training peptides exits 2.
set -euo pipefail
gsflow=$1
work=$2
db=${GSFLOW_SOURCE_DIR}/data/raw/extract/usr/share/metastudent-data/dataset_201401/BPO/goasp.fasta
[ -e "$db.pin" ] || { echo "protein-windows: $db.pin missing (run scripts/fetch-data)" >&2; exit 1; }
fail() { echo "protein_windows_cli: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/pep"
cd "$work"
printf '>T1\nYKNTARICGENSIPVEWIAH\n>T2\nHVHGHPLANQGFKDMLYWAYMDLNLSMGS\n>T3\nPWARCGYHEIRNTNTKREWNLCQDHMTYNFMKVDLMLGDFLSGCD\n' > pep/train.fasta
unrelated=LSGCDYVPCIYNKRHPLANQGFKDMLQEGQNFCQLFRYGT
printf '>V1\n%s\n' "$unrelated" > pep/validation.fasta
printf '>S1\n%s\n' "$unrelated" > pep/test.fasta
run() { "$gsflow" data protein-windows --blast-db "$db" --dir pep --proteins 200 --threads 1 "$@"; }

run 2> first.log || { cat first.log >&2; fail "first run failed"; }
[ "$(grep -c '^>' pep/windows.fasta)" = 200 ] || fail "expected 200 windows"
# Lengths from the training peptides (20, 29, 45); the range in the name matches the length and
# lies inside the protein.
awk '/^>/ { split($1, a, "/"); split(a[2], r, "-"); for (i = 2; i <= NF; ++i) { split($i, kv, "=");
       f[kv[1]] = kv[2] } next }
     { n = length($0); if (n != 20 && n != 29 && n != 45) { print "length " n; exit 1 }
       if (r[2] - r[1] + 1 != n || n != f["len"] || r[1] < 1 || r[2] > f["protein_len"] ||
           f["protein_len"] < 101) { print "range " r[1] "-" r[2] " of " f["protein_len"]; exit 1 } }' \
  pep/windows.fasta || fail "a window's length or range is wrong"
cp pep/windows.fasta first.fasta

# V1 := window 1 with residues 3 and 9 changed; S1 := 12 residues of window 2 inside 28 others.
w1=$(sed -n 2p first.fasta)
w2=$(sed -n 4p first.fasta)
mutate() { local s=$1 p=$2; local c=${s:p:1}; local r=W; [ "$c" = W ] && r=A; echo "${s:0:p}$r${s:p+1}"; }
v1=$(mutate "$(mutate "$w1" 2)" 8)
printf '>V1\n%s\n' "$v1" > pep/validation.fasta
printf '>S1\n%s%s\n' "${w2:0:12}" "${unrelated:0:28}" > pep/test.fasta
run 2> second.log || { cat second.log >&2; fail "second run failed"; }
diff <(tail -n +3 first.fasta) pep/windows.fasta > /dev/null ||
  fail "only window 1 should be removed: $(diff <(tail -n +3 first.fasta) pep/windows.fasta | head -5)"
[ "$(cat pep/work/leaks-windows.fasta)" = "$(head -2 first.fasta)" ] || fail "leaks file"
removed=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["protein_windows"]["windows_removed"])' pep/summary.json)
[ "$removed" = 1 ] || fail "summary.json windows_removed $removed"

cp pep/windows.fasta second.fasta
run 2> third.log || fail "third run failed"
cmp second.fasta pep/windows.fasta || fail "the same inputs gave a different file"

# A recipe that lists both files trains on their union (data.train as a list): the log counts
# each file and the sum.
cat > tiny.json <<'JSON'
{"name": "tiny-windows", "output": "tiny.ckpt",
 "data": {"alphabet": "protein", "train": ["pep/train.fasta", "pep/windows.fasta"],
          "validation": "pep/validation.fasta", "min_length": 10},
 "model": {"method": "gsfm", "length": 100,
           "network": {"type": "transformer", "width": 16, "blocks": 1, "heads": 2}},
 "train": {"steps": 1, "batch": 4, "warmup": 1, "validate_every": 1, "validation_batches": 1,
           "threads": 1}}
JSON
OMP_NUM_THREADS=1 "$gsflow" train --config tiny.json 2> train.log || { cat train.log >&2; fail "train on a list"; }
grep -q "3 training sequences in pep/train.fasta" train.log &&
  grep -q "199 training sequences in pep/windows.fasta" train.log &&
  grep -q "202 training sequences (pep/train.fasta, pep/windows.fasta)" train.log ||
  fail "train should read 3 + 199 sequences: $(head -5 train.log)"

set +e
run --min-protein-length 45 > /dev/null 2> bad.log
rc=$?
set -e
[ $rc = 2 ] && grep -q 'min-protein-length 45 must exceed the longest training peptide (45' bad.log ||
  fail "expected exit 2 for --min-protein-length 45, got $rc: $(cat bad.log)"
echo "protein_windows_cli: ok"
