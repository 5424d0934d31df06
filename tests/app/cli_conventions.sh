#!/usr/bin/env bash
# Command-line conventions (issue 41) with the real gsflow binary and real files: `-` for standard
# input and output, the short options, FASTA headers that say how a sequence was made (guides with
# weights, gamma; plug-in classifiers by name; 6 significant digits), `objectives list`, the
# sequences of `generate --json --no-store`, and exit code 2 for every bad command line.
# usage: cli_conventions.sh GSFLOW WORKDIR (GSFLOW_SOURCE_DIR: the source tree, set by CTest)
set -euo pipefail
G=$1
W=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/cli_lib.sh"  # fail, expect_rc, fresh_workdir
fresh_workdir "$W"
expect_err() { grep -q -- "$1" err.txt || { cat err.txt >&2; fail "stderr lacks '$1'"; }; }

# Short options (-m -n -s -o) and a guided run's headers.
expect_rc 0 "$G" generate -m dna-promoter -n 3 -s 4 --steps 4 --quiet --db r.sqlite \
  --guide promoter --gamma 8 -o g.fa
[[ ! -s out.txt ]] || fail "generate -o FILE wrote to stdout"
python3 - <<'PY'
heads, seqs = [], []
for line in open("g.fa"):
    if line.startswith(">"):
        heads.append(line[1:].split()); seqs.append("")
    else:
        seqs[-1] += line.strip()
assert [h[0] for h in heads] == ["dna-promoter-seed4_s0", "dna-promoter-seed4_s1",
                                 "dna-promoter-seed4_s2"], [h[0] for h in heads]
for h, s in zip(heads, seqs):
    f = dict(w.split("=", 1) for w in h[1:])
    assert f["model"] == "dna-promoter" and f["seed"] == "4" and f["steps"] == "4", f
    # the guides with their weights (the naturalness term added by default), gamma, M
    assert f["guide"] == "promoter:1,natural:promoter:16" and f["gamma"] == "8", f
    assert f["guide_samples"] == "4", f
    # scores to 6 significant digits: GC counted here, formatted as %.6g
    gc = sum(c in "GC" for c in s) / len(s)
    assert f["gc"] == "%.6g" % gc, (f["gc"], gc)
    p = float(f["promoter"])
    assert 0 <= p <= 1 and (p in (0, 1) or f["promoter"] == "%.6g" % p), f["promoter"]
PY

# export --fasta - writes standard output (no file named -), the same records generate wrote.
expect_rc 0 "$G" export dna-promoter-seed4 --db r.sqlite --fasta -
cmp out.txt g.fa || { diff out.txt g.fa | head; fail "export --fasta - differs from generate -o"; }
[[ ! -e ./- ]] || fail "export --fasta - wrote a file named -"
expect_rc 0 "$G" export dna-promoter-seed4 --db r.sqlite --csv -
[[ $(head -1 out.txt) == id,index,sequence,length,* && $(wc -l <out.txt) == 4 ]] \
  || fail "export --csv -: $(head -1 out.txt)"
# A Linear FM model takes at least 100 (Euler) steps when none are given, and the header names
# the model's method, as export does.
expect_rc 0 "$G" generate --model peptide-linear --n 2 --seed 3 --db r.sqlite --name lin -o lin.fa
[[ $(head -1 lin.fa) == *" method=linear "*" steps=100 "* ]] || fail "linear auto steps: $(head -1 lin.fa)"
expect_rc 0 "$G" export lin --db r.sqlite --fasta -
cmp out.txt lin.fa || { diff out.txt lin.fa | head; fail "linear: export differs from generate -o"; }
expect_rc 0 "$G" generate --model peptide-linear --n 2 --seed 3 --steps 10 --no-store -o lin10.fa
[[ $(head -1 lin10.fa) == *" steps=10 "* ]] || fail "linear --steps 10: $(head -1 lin10.fa)"
# Two outputs cannot share stdout; nor can generate's FASTA and its --json summary.
expect_rc 2 "$G" export dna-promoter-seed4 --db r.sqlite --fasta - --csv -
expect_err "standard output"
expect_rc 2 "$G" generate -n 1 --steps 2 --no-store --json -o -
expect_err "standard output"

# generate -o - writes FASTA to stdout (the default), the summary to stderr.
expect_rc 0 "$G" generate -n 2 --steps 2 -s 9 --no-store --quiet -o -
[[ $(grep -c '^>dna-promoter_s' out.txt) == 2 ]] || fail "generate -o -: $(head -1 out.txt)"

# `-` reads standard input: score, eval --sequences, generate --start.
set +e; "$G" score - --guide gc --csv <g.fa >score.csv 2>err.txt; rc=$?; set -e
(( rc == 0 )) || { cat err.txt; fail "score - exit $rc"; }
[[ $(cut -d, -f1 score.csv | tail -n +2 | tr '\n' ' ') == \
   "dna-promoter-seed4_s0 dna-promoter-seed4_s1 dna-promoter-seed4_s2 " ]] \
  || { cat score.csv; fail "score - read the wrong records"; }
set +e; "$G" eval --sequences - <g.fa >eval.txt 2>err.txt; rc=$?; set -e
(( rc == 0 )) || { cat err.txt; fail "eval --sequences - exit $rc"; }
grep -q "eval: 3 sequences from stdin" err.txt || { cat err.txt; fail "eval --sequences - count"; }
grep -q "stdin" eval.txt || { head -3 eval.txt; fail "eval table not headed stdin"; }
set +e; "$G" generate -n 2 --steps 4 --no-store --quiet --start - --max-edits 5 -o s.fa \
  <g.fa 2>err.txt; rc=$?; set -e
(( rc == 0 )) || { cat err.txt; fail "generate --start - exit $rc"; }
[[ $(grep -c '^>' s.fa) == 2 ]] || fail "generate --start -"
grep -q "max_edits=5" s.fa || fail "start header: $(head -1 s.fa)"
# a bad record on stdin is named as stdin with its header line
printf '>x\nACGTZ\n' >bad.fa
set +e; "$G" score - --alphabet dna <bad.fa >/dev/null 2>err.txt; rc=$?; set -e
(( rc == 2 )) || fail "bad stdin: exit $rc"
expect_err "stdin:1: record 'x'"
set +e; "$G" generate -n 1 --no-store --template-fasta - --start - </dev/null >/dev/null 2>err.txt
rc=$?; set -e
(( rc == 2 )) || fail "two stdin inputs: exit $rc"
expect_err "standard input"

# generate --json --no-store without --out: the sequences are in the JSON, never thrown away.
expect_rc 0 "$G" generate -n 2 --steps 2 -s 3 --no-store --json --quiet
python3 - <<'PY'
import json
j = json.load(open("out.txt"))
assert j["sequences"] == 2 and j["db"] == "" and j["out"] == "", j
r = j["records"]
assert [x["id"] for x in r] == ["dna-promoter_s0", "dna-promoter_s1"], r
assert all(len(x["sequence"]) == 256 and set(x["sequence"]) <= set("ACGT") for x in r)
assert all("gc" in x["scores"] for x in r), r
PY
# ... and not when they are stored or written.
expect_rc 0 "$G" generate -n 2 --steps 2 --no-store --json --quiet -o j.fa
python3 -c "import json; assert 'records' not in json.load(open('out.txt'))"

# A plug-in classifier's score and guide go by the file's stem, not its path.
D="$GSFLOW_SOURCE_DIR/models/examples/gc-count.json"
expect_rc 0 "$G" generate -n 2 --steps 3 --no-store --quiet --guide "classifier:$D=2" --gamma 1 \
  -o p.fa
head -1 p.fa | grep -q ' guide=gc-count:2 gamma=1 ' || fail "plug-in guide: $(head -1 p.fa)"
head -1 p.fa | grep -q ' gc-count=[0-9]' || fail "plug-in score key: $(head -1 p.fa)"
! grep -q 'classifier:' p.fa || fail "a path in the header: $(head -1 p.fa)"

# objectives list explains each objective; suggested gamma for the bundled classifiers.
expect_rc 0 "$G" objectives list
grep -q 'charge:T scores -|charge - T|.*charge:6 is -|charge - 6|' out.txt || fail "charge text"
grep -q '^promoter  (dna)' out.txt || fail "promoter entry"
expect_rc 0 "$G" objectives list --json
python3 - <<'PY'
import json
j = {e["name"]: e for e in json.load(open("out.txt"))}
for name in ("gc", "motif", "tata", "promoter", "gravy", "charge", "amp", "natural", "classifier"):
    e = j[name]
    for key in ("alphabet", "usage", "scores", "range", "argument", "gamma_note"):
        assert key in e, (name, key)
assert j["promoter"]["suggested_gamma"] == 18 and j["amp"]["suggested_gamma"] == 8, j
assert j["gc"]["suggested_gamma"] is None and j["promoter"]["range"] == "0..1"
PY
expect_rc 0 "$G" objectives list --alphabet protein
! grep -q '(dna)' out.txt || fail "--alphabet protein listed DNA objectives"

# Every bad command line exits 2 (CLI11's own checks as the run schema's); help and version 0.
expect_rc 2 "$G" generate --n abc
expect_rc 2 "$G" generate --no-such-option
expect_rc 2 "$G" export dna-promoter-seed4 --db r.sqlite --fasta x.fa --top 0
expect_err "1 or more"
expect_rc 2 "$G" export dna-promoter-seed4 --db r.sqlite --fasta x.fa --top abc
expect_rc 2 "$G" objectives
expect_rc 2 "$G" runs list --db r.sqlite --frobnicate
expect_rc 0 "$G" generate --help
expect_rc 0 "$G" --version
[[ $(cat out.txt) == "gsflow "* && $(wc -l <out.txt) == 1 ]] || fail "--version: $(cat out.txt)"

# The kernel path (OpenMP policy, BLAS kernels) is logged on stderr with -v only.
expect_rc 0 "$G" generate -n 1 --steps 2 --no-store --quiet -o q.fa
! grep -q "kernels:" err.txt || fail "kernels logged without -v"
expect_rc 0 "$G" -v generate -n 1 --steps 2 --no-store --quiet -o q.fa
expect_err "kernels: .*OpenMP wait policy: [A-Z]*; BLAS for the networks: "
echo "cli conventions: ok"
