#!/usr/bin/env bash
# Command-line tests of the run store with the real gsflow binary, real SQLite files and real
# child processes: usage: run_store_cli.sh GSFLOW WORKDIR CASE [GOLDEN_DIR]
# Each CASE is one ctest test; a failure prints what differed and exits non-zero. GSFLOW_SOURCE_DIR
# (set by CTest) is the source tree, for the bundled model.
set -euo pipefail
G=$1
W=$2/$3
CASE=$3
GOLDEN=${4:-}
rm -rf "$W"
mkdir -p "$W"
cd "$W"
export OMP_WAIT_POLICY=PASSIVE
# Small, fast requests: the bundled DNA model, few steps.
GEN=(generate --model dna-promoter --steps 6 --quiet)
# The golden file predates the multistep default (issue 42): it keeps the exponential step.
GOLDEN_GEN=(generate --model dna-promoter --steps 6 --integrator exponential --quiet)

source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"  # fail, expect_rc
json_field() {  # json_field FILE KEY: a top-level number or string from a JSON object
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"
}

case "$CASE" in
roundtrip)
  # generate -> list -> show -> tag -> export (FASTA, CSV, JSON, top N) -> delete.
  "$G" "${GEN[@]}" --n 6 --batch 4 --seed 5 --db r.sqlite --name first --tag screen \
    --notes "a note" --json --out first.fa >gen.json 2>gen.err
  [[ $(json_field gen.json status) == completed ]] || fail "status"
  [[ $(json_field gen.json sequences) == 6 ]] || fail "sequence count"
  [[ $(json_field gen.json frames) == 42 ]] || fail "frames: 6 sequences x (step 0 + each of 6)"
  "$G" "${GEN[@]}" --n 2 --db r.sqlite --seed 6 >/dev/null 2>&1
  "$G" runs list --db r.sqlite --json >list.json
  python3 - <<'PY'
import json
runs = json.load(open("list.json"))
assert [r["name"] for r in runs] == ["dna-promoter-seed6", "first"], runs
first = runs[1]
assert first["status"] == "completed" and first["completed"] == 6 and first["requested"] == 6
assert first["tags"] == ["screen"] and first["notes"] == "a note"
assert first["seed"] == 5 and first["method"] == "gsfm" and len(first["model_hash"]) == 16
import re
assert all(re.search(r"_(k4|ref)_r[0-9]+$", k) for k in first["kernels"]), first["kernels"]
PY
  "$G" runs list --db r.sqlite --tag screen | grep -q first || fail "list --tag"
  [[ $("$G" runs list --db r.sqlite --tag nothing) == "no runs"* ]] || fail "empty filter"
  "$G" runs show first --db r.sqlite | grep -q "sequences  6 of 6, 42 trajectory frames" \
    || fail "show"
  "$G" runs tag first keep --remove screen --notes "better" --db r.sqlite 2>/dev/null
  "$G" runs show first --db r.sqlite --json >show.json
  python3 -c "import json; j=json.load(open('show.json')); assert j['tags']==['keep'] and \
j['notes']=='better' and j['params']['n']==6 and j['scores']['gc']['max']<=1, j"
  "$G" export first --db r.sqlite --fasta all.fa --width 0 --csv all.csv --json all.json 2>/dev/null
  cmp <(grep -v '^>' first.fa | tr -d '\n') <(grep -v '^>' all.fa | tr -d '\n') \
    || fail "export differs from what generate wrote"
  head -1 all.fa | grep -Eq '^>first_s0 model=dna-promoter method=gsfm seed=5 steps=6 length=256 gc=0\.[0-9]+$' \
    || fail "FASTA header: $(head -1 all.fa)"
  "$G" export first --db r.sqlite --fasta top.fa --top 2 --by gc --width 80 2>/dev/null
  python3 - <<'PY'
import csv, json
rows = list(csv.DictReader(open("all.csv")))
assert len(rows) == 6 and rows[0]["id"] == "first_s0" and len(rows[0]["sequence"]) == 256
gcs = sorted((float(r["gc"]) for r in rows), reverse=True)
top = [l for l in open("top.fa") if l.startswith(">")]
assert len(top) == 2
got = [float(h.split("gc=")[1]) for h in top]
assert all(abs(a - b) < 1e-3 for a, b in zip(got, gcs[:2])), (got, gcs)
body = [l.rstrip("\n") for l in open("top.fa") if not l.startswith(">")]
assert max(map(len, body)) == 80, "width 80"
j = json.load(open("all.json"))
assert j["name"] == "first" and len(j["sequences"]) == 6 and "gc" in j["sequences"][0]["scores"]
PY
  expect_rc 2 "$G" export first --db r.sqlite --fasta x.fa --top 2 --by gravy
  grep -q "no such score (it has: gc)" err.txt || fail "bad --by message"
  expect_rc 2 "$G" export first --db r.sqlite --top 2
  expect_rc 2 "$G" runs show nosuchrun --db r.sqlite
  grep -q "no run named 'nosuchrun'" err.txt || fail "unknown run message"
  expect_rc 2 "$G" "${GEN[@]}" --n 1 --db r.sqlite --name first
  grep -q "'first' exists already" err.txt || fail "duplicate name message"
  "$G" runs delete first --db r.sqlite 2>/dev/null
  [[ $("$G" runs list --db r.sqlite --json | python3 -c "import json,sys; print(len(json.load(sys.stdin)))") == 1 ]] \
    || fail "delete"
  expect_rc 2 "$G" generate --shard 3/2
  expect_rc 2 "$G" "${GEN[@]}" --n 2 --shard 0/3 --db r.sqlite
  grep -q "3 shards of 2 sequences" err.txt || fail "shards > n message"
  ;;

golden)
  # Consistent mode (reference kernels) with a fixed seed reproduces a committed FASTA byte for
  # byte, and a rerun of it is bit-identical. The file belongs to the bundled dna-promoter: when
  # that model is retrained, regenerate it with this command and --out pointing at the file.
  "$G" "${GOLDEN_GEN[@]}" --consistent --n 4 --batch 2 --seed 11 --threads 1 --db r.sqlite \
    --name golden --out golden.fa --width 60 2>/dev/null
  cmp golden.fa "$GOLDEN/dna-promoter-consistent.fasta" \
    || { diff golden.fa "$GOLDEN/dna-promoter-consistent.fasta" | head; fail "golden FASTA differs"; }
  "$G" rerun golden --consistent --check --db r.sqlite --quiet --json >rerun.json 2>/dev/null
  python3 -c "import json; j=json.load(open('rerun.json')); assert j['identical']==4 and \
j['different']==[] and j['rerun']=='golden-rerun', j"
  ;;

changed_model)
  # A run whose model file was replaced (a retrained bundled model, say) is refused with both
  # hashes and the way out; `rerun --model` takes the original kept elsewhere, and only that.
  mkdir m
  cp "$GSFLOW_SOURCE_DIR/models/pretrained/dna-promoter.ckpt" m/model.ckpt
  cp m/model.ckpt kept.ckpt
  "$G" generate --model m/model.ckpt --steps 6 --n 3 --seed 2 --db r.sqlite --name orig --quiet \
    >/dev/null 2>&1
  hash=$("$G" runs show orig --db r.sqlite --json | python3 -c "import json,sys; \
print(json.load(sys.stdin)['model_hash'])")
  cp "$GSFLOW_SOURCE_DIR/models/pretrained/dna-promoter-linear.ckpt" m/model.ckpt
  expect_rc 2 "$G" rerun orig --db r.sqlite --quiet
  grep -q "m/model.ckpt: hash [0-9a-f]\{16\}, but the run was made with hash $hash" err.txt \
    || { cat err.txt; fail "changed model: message"; }
  grep -q "gsflow rerun RUN --model FILE" err.txt || fail "changed model: no way out named"
  expect_rc 2 "$G" rerun orig --db r.sqlite --quiet --model m/model.ckpt
  "$G" rerun orig --db r.sqlite --quiet --model kept.ckpt --check --json >rerun.json 2>/dev/null \
    || fail "rerun --model with the kept original"
  python3 -c "import json; j=json.load(open('rerun.json')); assert j['identical']==3, j"
  [[ $("$G" runs list --db r.sqlite --json | python3 -c "import json,sys; \
print(len(json.load(sys.stdin)))") == 2 ]] || fail "refused reruns must store nothing"
  ;;

rerun_differs)
  # A rerun whose sequences differ from the stored ones says why from the kernel names of both
  # runs. The store is edited to stand for each case: a stored sequence altered (as if computed
  # with other bits), then the kernel names of another revision, then of a build before revisions.
  "$G" "${GEN[@]}" --n 2 --seed 4 --db r.sqlite --name orig >/dev/null 2>&1
  sql() { python3 -c "import sqlite3,sys; c=sqlite3.connect('r.sqlite'); c.execute(sys.argv[1]); \
c.commit()" "$1"; }
  sql "UPDATE sequences SET text = (CASE substr(text, 1, 1) WHEN 'A' THEN 'C' ELSE 'A' END) ||
       substr(text, 2) WHERE idx = 1"
  expect_rc 0 "$G" rerun orig --db r.sqlite --quiet
  grep -q "differing sequences: s1$" err.txt || { cat err.txt; fail "differing sequence not named"; }
  grep -q "the same kernels made both runs" err.txt || { cat err.txt; fail "same kernels"; }
  expect_rc 2 "$G" rerun orig --db r.sqlite --quiet --check
  sql "UPDATE runs SET kernels = replace(kernels, '_r1', '_r0') WHERE name = 'orig'"
  expect_rc 0 "$G" rerun orig --db r.sqlite --quiet
  grep -q "another revision (_rN) of the same path" err.txt || { cat err.txt; fail "revision"; }
  sql "UPDATE runs SET kernels = replace(kernels, '_r0', '') WHERE name = 'orig'"
  expect_rc 0 "$G" rerun orig --db r.sqlite --quiet
  grep -q "recorded no kernel revisions" err.txt || { cat err.txt; fail "no revision"; }
  ;;

shards)
  # Three shards made in separate stores and merged equal the unsharded run exactly.
  for i in 0 1 2; do
    "$G" "${GEN[@]}" --n 7 --batch 2 --seed 3 --shard $i/3 --name batch --db shard$i.sqlite \
      --no-store >/dev/null 2>&1 || true  # --no-store run: must not create a store
    [[ ! -e shard$i.sqlite ]] || fail "--no-store created a store"
    "$G" "${GEN[@]}" --n 7 --batch 2 --seed 3 --shard $i/3 --name batch --db shard$i.sqlite \
      >/dev/null 2>&1
  done
  "$G" "${GEN[@]}" --n 7 --batch 3 --seed 3 --name batch --db whole.sqlite --out whole.fa >/dev/null 2>&1
  "$G" merge shard0.sqlite shard1.sqlite shard2.sqlite --into merged.sqlite 2>merge.err
  grep -q "merged run batch: 7 of 7 sequences, completed" merge.err || { cat merge.err; fail "merge"; }
  "$G" export batch --db merged.sqlite --fasta merged.fa 2>/dev/null
  cmp merged.fa whole.fa || fail "merged shards differ from the unsharded run"
  "$G" merge shard1.sqlite --into merged.sqlite 2>merge2.err
  grep -q "0 shards joined, 1 already present" merge2.err || fail "merge is not idempotent"
  # The merged run reruns as the unsharded request.
  "$G" rerun batch --db merged.sqlite --check --quiet 2>/dev/null || fail "rerun of merged run"
  ;;

sigkill)
  # A writer killed with SIGKILL mid-run: the store opens cleanly, the completed batches are
  # there, and the run is marked interrupted on the next open.
  "$G" "${GEN[@]}" --n 2000 --batch 2 --seed 1 --db r.sqlite --name victim >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    n=$(python3 -c "import sqlite3; print(sqlite3.connect('file:r.sqlite?mode=ro', uri=True).execute(\"select coalesce(max(completed),0) from runs\").fetchone()[0])" 2>/dev/null || echo 0)
    [[ $n -ge 6 ]] && break
    sleep 0.1
  done
  [[ $n -ge 6 ]] || fail "the writer stored nothing in 60 s"
  kill -9 $pid
  wait $pid || true
  "$G" runs show victim --db r.sqlite --json >show.json 2>err.txt
  grep -q "marked" err.txt || true
  "$G" export victim --db r.sqlite --csv seqs.csv 2>/dev/null
  python3 - <<'PY'
import json, csv
j = json.load(open("show.json"))
rows = list(csv.DictReader(open("seqs.csv")))
assert j["status"] == "interrupted", j["status"]
assert j["completed"] >= 6 and j["completed"] % 2 == 0 and len(rows) == j["completed"], (j, len(rows))
assert [int(r["index"]) for r in rows] == list(range(len(rows)))
assert all(len(r["sequence"]) == 256 for r in rows)
PY
  python3 -c "import sqlite3; c=sqlite3.connect('r.sqlite'); assert c.execute('pragma integrity_check').fetchone()[0]=='ok'"
  ;;

sigint)
  # Ctrl-C finishes the current batch, commits it, marks the run interrupted and exits 3.
  "$G" "${GEN[@]}" --n 2000 --batch 2 --seed 1 --db r.sqlite --name stopped --out part.fa \
    >/dev/null 2>err.txt &
  pid=$!
  for _ in $(seq 1 600); do
    n=$(python3 -c "import sqlite3; print(sqlite3.connect('file:r.sqlite?mode=ro', uri=True).execute(\"select coalesce(max(completed),0) from runs\").fetchone()[0])" 2>/dev/null || echo 0)
    [[ $n -ge 4 ]] && break
    sleep 0.1
  done
  kill -INT $pid
  set +e; wait $pid; rc=$?; set -e
  [[ $rc == 3 ]] || { cat err.txt; fail "exit $rc after SIGINT, expected 3"; }
  "$G" runs show stopped --db r.sqlite --json >show.json
  python3 -c "import json; j=json.load(open('show.json')); assert j['status']=='interrupted' \
and j['completed']>=4 and j['completed']%2==0 and j['completed']<2000, j"
  [[ $(grep -c '^>' part.fa) == $(json_field show.json completed) ]] || fail "FASTA of the part"
  ;;

concurrent)
  # Readers list runs while a writer commits batch after batch: no "database is locked".
  "$G" "${GEN[@]}" --n 60 --batch 1 --seed 2 --db r.sqlite --name writer >/dev/null 2>writer.err &
  pid=$!
  while [[ ! -e r.sqlite ]] && kill -0 $pid 2>/dev/null; do sleep 0.05; done
  reads=0
  while kill -0 $pid 2>/dev/null; do
    "$G" runs list --db r.sqlite --json >list.json 2>read.err || { cat read.err; fail "reader failed"; }
    "$G" runs show writer --db r.sqlite >/dev/null 2>read.err || { cat read.err; fail "show failed"; }
    reads=$((reads + 1))
  done
  wait $pid || { cat writer.err; fail "writer failed"; }
  [[ $reads -ge 3 ]] || fail "only $reads reads overlapped the writer"
  [[ $("$G" runs show writer --db r.sqlite --json | python3 -c "import json,sys; print(json.load(sys.stdin)['completed'])") == 60 ]] \
    || fail "writer's run incomplete"
  ;;

bad_stores)
  # Read-only database, missing folder, full disk (file-size limit), corrupt file: a clear error
  # naming the file, a non-zero exit, no crash, nothing half-written.
  # Read-only: as root (which may write anything) the check runs as user nobody, from copies of
  # the binaries and the model in a world-readable temporary folder (the build tree may sit in a
  # folder only root can enter).
  ro=$(mktemp -d /tmp/gsflow-ro.XXXXXX)
  trap 'chmod -R u+w "$ro"; rm -rf "$ro"' EXIT
  mkdir -p "$ro/bin" "$ro/models"
  cp "$G" "$(dirname "$G")/gsflow-compute" "$ro/bin/"
  cp "$GSFLOW_SOURCE_DIR/models/pretrained/dna-promoter.ckpt" "$ro/models/"
  "$G" "${GEN[@]}" --n 2 --db "$ro/ro.sqlite" --name kept >/dev/null 2>&1
  chmod a-w "$ro/ro.sqlite"
  chmod -R a+rX "$ro"
  as_user=()
  if [[ $(id -u) == 0 ]]; then as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi
  export GSFLOW_MODELS=$ro/models
  expect_rc 2 "${as_user[@]}" "$ro/bin/gsflow" "${GEN[@]}" --n 2 --db "$ro/ro.sqlite"
  grep -q "ro.sqlite: read-only" err.txt || { cat err.txt; fail "read-only message"; }
  "${as_user[@]}" "$ro/bin/gsflow" runs list --db "$ro/ro.sqlite" | grep -q kept \
    || fail "reading a read-only store"
  unset GSFLOW_MODELS

  expect_rc 2 "$G" "${GEN[@]}" --n 2 --db "$W/no/such/folder/r.sqlite"
  grep -q "folder .* does not exist" err.txt || fail "missing folder message"
  expect_rc 2 "$G" runs list --db "$W/absent.sqlite"
  grep -q "no such run database" err.txt || fail "absent store message"

  head -c 8192 /dev/urandom >corrupt.sqlite
  cp corrupt.sqlite corrupt.orig
  expect_rc 2 "$G" "${GEN[@]}" --n 2 --db corrupt.sqlite
  grep -q "corrupt.sqlite: .*not a gsflow run database" err.txt || { cat err.txt; fail "corrupt message"; }
  cmp corrupt.sqlite corrupt.orig || fail "the corrupt file was changed"
  expect_rc 2 "$G" runs list --db corrupt.sqlite

  # Full disk: a 600 KiB file-size limit; frames of 256 x 4 probabilities every step fill it.
  "$G" "${GEN[@]}" --n 2 --db full.sqlite --name before >/dev/null 2>&1
  set +e
  (ulimit -f 600; exec "$G" "${GEN[@]}" --n 400 --batch 4 --frames-every 1 --db full.sqlite \
    --name filling) >/dev/null 2>err.txt
  rc=$?
  set -e
  [[ $rc == 2 ]] || { cat err.txt; fail "exit $rc with the disk full, expected 2"; }
  grep -Eqi "full|too large|disk" err.txt || { cat err.txt; fail "full-disk message"; }
  "$G" runs show before --db full.sqlite --json >before.json
  [[ $(json_field before.json completed) == 2 ]] || fail "an earlier run was damaged"
  "$G" runs show filling --db full.sqlite --json >filling.json
  python3 - <<'PY'
import json, sqlite3
j = json.load(open("filling.json"))
assert j["status"] in ("failed", "interrupted"), j["status"]
c = sqlite3.connect("full.sqlite")
assert c.execute("pragma integrity_check").fetchone()[0] == "ok"
n = c.execute("select count(*) from sequences s join runs r on r.id = s.run_id where r.name = 'filling'").fetchone()[0]
assert n == j["completed"] and n % 4 == 0, (n, j["completed"])
PY
  ;;

newer)
  "$G" "${GEN[@]}" --n 1 --db r.sqlite >/dev/null 2>&1
  python3 -c "import sqlite3; c=sqlite3.connect('r.sqlite'); c.execute('pragma user_version=42'); c.commit()"
  expect_rc 2 "$G" runs list --db r.sqlite
  grep -q "newer gsflow (schema 42" err.txt || fail "newer schema message"
  ;;

*)
  fail "unknown case $CASE"
  ;;
esac
echo "ok: $CASE"
