#!/usr/bin/env bash
# `gsflow eval-design` and `gsflow eval-edits` (issue 37) at tiny sizes with the bundled models and
# the real data splits (scripts/fetch-data; the reserved test splits are not read): usage:
# design_eval_cli.sh GSFLOW WORKDIR. The reports must be well-formed and their numbers sane: every
# checked design 100 % exact, the pipeline agreeing with the independent check, pasted sets with
# the unconstrained set's designed-part JS (the paste only touches left-out k-mers), JS in (0, 1],
# every edit budget respected, greedy search within guided editing's classifier calls. ~1 min.
set -euo pipefail
G=$1
W=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/cli_lib.sh"  # fail, expect_rc, fresh_workdir
fresh_workdir "$W"

# --- eval-design, DNA: every variant, tiny ---------------------------------------------------------
expect_rc 0 "$G" eval-design --model dna-promoter --n 24 --steps 8 --bootstrap 5 --json
cp out.txt dna.json
expect_rc 0 "$G" eval-design --model dna-promoter --methods gsfm --n 12 --steps 4 --bootstrap 0
grep -qF '| set | options | exact |' out.txt || fail "eval-design: no table header"
grep -qF '| TATA pasted |' out.txt || fail "eval-design: no pasted row"
# --- eval-design, peptides --------------------------------------------------------------------------
expect_rc 0 "$G" eval-design --model peptide --methods gsfm,linear --n 16 --steps 8 --bootstrap 5 \
  --json --out pep-copy.json
cp out.txt pep.json
cmp -s <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])))' pep.json) \
       <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])))' pep-copy.json) ||
  fail "eval-design --out differs from --json"

python3 - dna.json pep.json <<'EOF'
import json, sys
def fail(msg):
    sys.exit("FAIL: " + msg)
for path, dna in ((sys.argv[1], True), (sys.argv[2], False)):
    r = json.load(open(path))
    want = {"dna-promoter", "dna-promoter-gssm", "dna-promoter-linear"} if dna else {"peptide", "peptide-linear"}
    got = {v["model"] for v in r["variants"]}
    if got != want: fail(f"{path}: variants {got}, expected {want}")
    if r["split"] != "validation" or r["k"] != (6 if dna else 3): fail(f"{path}: split/k {r['split']} {r['k']}")
    if not 0 < r["floor"]["kmer_js"] <= 1: fail(f"{path}: floor JS {r['floor']['kmer_js']}")
    cf = r["constrained_floors"]
    if len(cf) != 1: fail(f"{path}: constrained floors {list(cf)}, expected one")
    for what, f in cf.items():
        if not (0 < f["kmer_js"] <= 1 and 0 < f["training_meeting_fraction"] <= 1 and f["n"] == r["n"]):
            fail(f"{path}: constrained floor {what}: {f}")
    for v in r["variants"]:
        sets = {s["set"]: s for s in v["sets"]}
        want_sets = 6 if dna else 3
        if len(sets) != want_sets: fail(f"{path} {v['model']}: {len(sets)} sets, expected {want_sets}")
        for s in v["sets"]:
            where = f"{path} {v['model']} '{s['set']}'"
            if s["n"] != r["n"]: fail(f"{where}: n {s['n']}")
            if s["checked"] and s["exact_fraction"] != 1.0:
                fail(f"{where}: exact {s['exact_fraction']} ({s.get('first_violation')})")
            if s.get("pipeline_met_fraction", 1.0) != 1.0: fail(f"{where}: pipeline met {s['pipeline_met_fraction']}")
            if not 0 < s["kmer_js"] <= 1 or s["kmer_js_bootstrap_sd"] < 0: fail(f"{where}: JS {s['kmer_js']}")
            if s["kmers_counted"] <= 0: fail(f"{where}: no k-mers counted")
            if not s["seconds"] > 0 or not s["time_ratio"] > 0: fail(f"{where}: time {s['seconds']}")
            if "changed_mean" in s and not 0 <= s["changed_mean"] <= s["changed_max"]: fail(f"{where}: changed")
            if dna:
                if not 0 <= s["flank_js"] <= 1: fail(f"{where}: flank JS {s['flank_js']}")
                if s["set"].startswith("TATA") and s["tata_window_fraction"] != 1.0:
                    fail(f"{where}: TATA window {s['tata_window_fraction']} with a TATA box fixed at -30")
        u = sets["unconstrained"]
        if u["time_ratio"] != 1.0: fail(f"{path}: unconstrained time ratio {u['time_ratio']}")
        if dna:
            p = sets["TATA pasted"]
            if p["kmer_js"] != u["kmer_js"] or p["flank_js"] != u["flank_js"]:
                fail(f"{path} {v['model']}: pasted JS {p['kmer_js']} differs from unconstrained {u['kmer_js']}")
            if not p["changed_max"] <= 8: fail(f"{path}: paste changed {p['changed_max']} of 8 letters")
            for hold in ("clean", "path"):
                if sets[f"TATA fixed, {hold} hold"]["changed_max"] != 0: fail(f"{path}: {hold} hold repaired letters")
print("eval-design reports OK")
EOF

# --- eval-edits ------------------------------------------------------------------------------------
expect_rc 0 "$G" eval-edits --n 6 --steps 6 --guide-samples 2 --budgets 1,3 --start-time 0.8 \
  --gamma 4,8 --json
cp out.txt edits.json
python3 - edits.json <<'EOF'
import json, sys
def fail(msg):
    sys.exit("FAIL: " + msg)
r = json.load(open(sys.argv[1]))
if r["split"] != "validation" or r["n"] != 6 or r["judge"] != "promoter": fail(f"header {r}")
if not r["starts"]["guide_mean"] < 0.5: fail(f"starts' classifier mean {r['starts']['guide_mean']} (picked below 0.5)")
if [b["budget"] for b in r["budgets"]] != [1, 3]: fail("budgets")
for b in r["budgets"]:
    E = b["budget"]
    rows = b["rows"]
    guided = [x for x in rows if x["method"] == "guided editing"]
    if len(guided) != 2 or len(b["verdicts"]) != 2: fail(f"E={E}: {len(guided)} guided rows for 2 gammas")
    # M x steps = 12 calls for the trajectory, plus what the pipeline spends choosing edits.
    calls = [x["classifier_calls_per_sequence"] for x in guided]
    if min(calls) < 2 * 6: fail(f"E={E}: guided calls {calls}, at least M x steps = 12 expected")
    greedy = [x for x in rows if x["method"] == "greedy search"]
    if not 1 <= len(greedy) <= 2: fail(f"E={E}: {len(greedy)} greedy rows")
    for x in rows:
        where = f"E={E} {x['method']} ({x['settings']})"
        if x["edits_max"] > E: fail(f"{where}: {x['edits_max']} edits > budget")
        if not (0 <= x["guide_mean"] <= 1 and 0 <= x["judge_mean"] <= 1): fail(f"{where}: scores")
        if x.get("pipeline_unmet", 0) != 0: fail(f"{where}: pipeline says unmet")
        if x["method"] == "random substitutions" and x["edits_mean"] != E: fail(f"{where}: {x['edits_mean']} edits")
        if x["method"] == "greedy search" and x["classifier_calls_per_sequence"] > max(calls):
            fail(f"{where}: {x['classifier_calls_per_sequence']} calls > guided {calls}")
print("eval-edits report OK")
EOF
# Best of 3 guided edits per start: 3 x (M x steps + edit choice) calls + 3 to pick; greedy gets
# as many.
expect_rc 0 "$G" eval-edits --n 4 --steps 5 --guide-samples 2 --budgets 2 --candidates 3 --json
python3 - out.txt <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
rows = {x["method"]: x for x in r["budgets"][0]["rows"]}
g, gr = rows["guided editing"], rows["greedy search"]
c = g["classifier_calls_per_sequence"]
if r["candidates"] != 3 or c < 3 * 2 * 5 + 3:
    sys.exit(f"FAIL: best-of-3 calls {c}, at least 33 expected")
if gr["classifier_calls_per_sequence"] > c or g["edits_max"] > 2:
    sys.exit(f"FAIL: best-of-3 greedy calls {gr['classifier_calls_per_sequence']} / edits {g['edits_max']}")
print("eval-edits --candidates OK")
EOF
expect_rc 0 "$G" eval-edits --n 4 --steps 4 --budgets 2
grep -qF '| E | method |' out.txt || fail "eval-edits: no table header"
grep -qF -- '--start-time 0.3 --gamma 128 --guide-samples 4 --steps 4 (given)' out.txt ||
  fail "eval-edits: the settings used are not printed"

# --- bad input --------------------------------------------------------------------------------------
expect_rc 2 "$G" eval-design --split nope --n 4
grep -qF -- "--split" err.txt || fail "eval-design --split nope: message"
expect_rc 2 "$G" eval-design --methods fancy --n 4
expect_rc 2 "$G" eval-edits --start-time 1.5 --n 2
grep -qF -- "--start-time" err.txt || fail "eval-edits --start-time 1.5: message"
echo "design_eval_cli: OK"
