#!/usr/bin/env bash
# The command line under abuse, with the real gsflow binary, real SQLite files and real signals
# (issue 36): usage: reliability_cli.sh GSFLOW WORKDIR CASE. Each CASE is one ctest test; a
# failure prints what went wrong and exits non-zero.
set -euo pipefail
G=$1
W=$2/$3
CASE=$3
PLUGINS=${4:-}  # gsflow-test-plugins (writes misbehaving TorchScript classifiers)
rm -rf "$W"
mkdir -p "$W"
cd "$W"
export OMP_WAIT_POLICY=PASSIVE
# Small, fast requests: the bundled DNA model, few steps.
GEN=(generate --model dna-promoter --steps 6 --quiet)

source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"  # fail, expect_rc
expect_error() {  # expect_error CODE TEXT COMMAND... : exit CODE with TEXT on stderr
  local code=$1 text=$2; shift 2
  expect_rc "$code" "$@"
  grep -qF -- "$text" err.txt || { cat err.txt >&2; fail "stderr lacks '$text': $*"; }
}
run_count() {  # run_count DB: runs in the store
  "$G" runs list --db "$1" --json | python3 -c "import json,sys; print(len(json.load(sys.stdin)))"
}
wait_for_run() {  # wait_for_run DB NAME MIN_COMPLETED: until the running run has stored that many
  for _ in $(seq 600); do
    if "$G" runs list --db "$1" --json 2>/dev/null | python3 -c "
import json,sys
runs = [r for r in json.load(sys.stdin) if r['name'] == sys.argv[1]]
sys.exit(0 if runs and runs[0]['completed'] >= int(sys.argv[2]) else 1)" "$2" "$3"; then
      return 0
    fi
    sleep 0.1
  done
  fail "run $2 never stored $3 sequences"
}

case "$CASE" in
signals)
  # A Ctrl-C or SIGTERM at a random moment of a generation, 50 times: no run may crash (a signal
  # handled on a LibTorch/oneDNN thread used to, about one run in eight); each ends completed
  # (exit 0) or interrupted (exit 3) with its finished batches stored and written.
  # A signal that arrives outside the run (LibTorch still loading, or the process already on its
  # way out) ends the process as signals do (exit 130 or 143); then there is no run, or a
  # completed one.
  # The moments are drawn from this machine's own timing (a calibration run: start-up S, then
  # generation G seconds), so that the test hits a run on a fast laptop and on a slow CI box alike:
  # four runs in five get their signal inside the generation (S + 5..95 % of G), one in five while
  # the process still loads (before S). (bash starts background jobs with SIGINT ignored, so an
  # INT that lands before gsflow installs its handler is lost and that run completes: exit 0.)
  SIGGEN=(generate --model dna-promoter --n 32 --steps 20 --batch 8 --threads 1 --quiet)
  t0=$(date +%s%N)
  "$G" "${SIGGEN[@]}" --no-store --out calib.fa 2>calib.err
  total=$(python3 -c "import sys; print((int(sys.argv[2]) - int(sys.argv[1])) / 1e9)" "$t0" "$(date +%s%N)")
  gen=$(grep -oE 'in [0-9.]+ s' calib.err | head -1 | grep -oE '[0-9.]+') \
    || { cat calib.err >&2; fail "calibration run printed no generation time"; }
  interrupted=0
  for i in $(seq 50); do
    sig=INT; (( i % 2 )) && sig=TERM
    delay=$(python3 -c "
import random, sys
total, gen, i = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
start = max(total - gen, 0.05)
print(random.uniform(0.0, start) if i % 5 == 0 else start + random.uniform(0.05, 0.95) * gen)
" "$total" "$gen" "$i")
    "$G" "${SIGGEN[@]}" --db s.sqlite --name "sig$i" --out "sig$i.fa" 2>"sig$i.err" &
    p=$!
    sleep "$delay"
    kill -"$sig" "$p" 2>/dev/null || true
    set +e; wait "$p"; rc=$?; set -e
    echo "sig$i $rc $sig $delay" >>rc.txt
    [[ $rc == 0 || $rc == 3 || $rc == 130 || $rc == 143 ]] \
      || { cat "sig$i.err" >&2; fail "run $i ($sig): exit $rc"; }
    (( rc == 3 )) && interrupted=$((interrupted + 1))
  done
  (( interrupted >= 15 )) || fail "only $interrupted of 50 runs were interrupted (calibration: $total s in all, generation $gen s): the test misses"
  "$G" runs list --db s.sqlite --json >list.json
  python3 - <<'PY'
import json
runs = {r["name"]: r for r in json.load(open("list.json"))}
for line in open("rc.txt"):
    name, rc = line.split()[:2]
    if rc in ("130", "143"):
        # Killed outside a run: before it began (no run), or after it finished (all stored).
        if name in runs:
            r = runs[name]
            assert r["status"] == "completed" and r["completed"] == 32, (name, "killed mid-run", r)
            assert open(name + ".fa").read().count(">") == 32, (name, "FASTA incomplete")
        continue
    r = runs[name]
    fasta = open(name + ".fa").read().count(">")
    assert r["status"] == ("completed" if rc == "0" else "interrupted"), (name, rc, r["status"])
    assert r["completed"] % 8 == 0 or r["completed"] == r["requested"], (name, r["completed"])
    assert fasta == r["completed"], (name, fasta, r["completed"])
PY
  ;;
store_as_output)
  # An output that is the run store (or its -wal/-shm, or the store by another path) is refused
  # before any work, and the store is left as it was.
  "$G" "${GEN[@]}" --n 2 --db s.sqlite --name keep --out keep.fa 2>/dev/null
  expect_error 2 "is the run store" "$G" "${GEN[@]}" --n 2 --db s.sqlite --out s.sqlite
  expect_error 2 "is the run store" "$G" "${GEN[@]}" --n 2 --db s.sqlite --out ./s.sqlite-wal
  ln -s s.sqlite link.sqlite
  expect_error 2 "is the run store" "$G" "${GEN[@]}" --n 2 --db s.sqlite --out link.sqlite
  expect_error 2 "is the run store" "$G" export keep --db s.sqlite --csv s.sqlite
  expect_error 2 "is the run store" "$G" export keep --db s.sqlite --fasta "$W/s.sqlite"
  expect_error 2 "is the run store" "$G" rerun keep --db s.sqlite --out s.sqlite
  [[ $(run_count s.sqlite) == 1 ]] || fail "the store changed"
  "$G" export keep --db s.sqlite --fasta again.fa 2>/dev/null
  cmp <(grep -v '^>' keep.fa) <(grep -v '^>' again.fa) || fail "the stored run changed"
  ;;
delete_running)
  # A run whose writer is alive cannot be deleted; once the writer stopped, it can.
  "$G" generate --model dna-promoter --steps 40 --n 64 --batch 8 --threads 1 --quiet \
    --db s.sqlite --name busy --out busy.fa 2>busy.err &
  p=$!
  wait_for_run s.sqlite busy 8
  expect_error 2 "still being written by process $p" "$G" runs delete busy --db s.sqlite
  kill -INT "$p"
  set +e; wait "$p"; rc=$?; set -e
  [[ $rc == 3 ]] || { cat busy.err >&2; fail "interrupted writer: exit $rc"; }
  "$G" runs show busy --db s.sqlite | grep -q interrupted || fail "status after the interrupt"
  expect_rc 0 "$G" runs delete busy --db s.sqlite
  [[ $(run_count s.sqlite) == 0 ]] || fail "not deleted"
  ;;
non_finite)
  # NaN from a plug-in classifier stops the run with a message naming the plug-in, exit 2, with
  # the store (finished batches) and without (nothing reported as success); impossible
  # temperatures and gammas are refused before any work.
  "$PLUGINS" .
  expect_error 2 "nan.json returned a score that is not a number" \
    "$G" "${GEN[@]}" --n 4 --no-store --guide classifier:nan.json --gamma 1 --out nan.fa
  [[ ! -e nan.fa ]] || fail "an output was written for a failed run"
  expect_error 2 "nan.json returned a score that is not a number" \
    "$G" "${GEN[@]}" --n 4 --db s.sqlite --name nan0 --guide classifier:nan.json --gamma 0
  "$G" runs show nan0 --db s.sqlite | grep -q "failed" || fail "the failed run's status"
  expect_error 2 "--temperature: 0.001 is not possible (0.01..100)" \
    "$G" "${GEN[@]}" --n 2 --no-store --temperature 0.001
  expect_error 2 "--gamma: 1e100 is not possible" \
    "$G" "${GEN[@]}" --n 2 --no-store --guide gc --gamma 1e100
  # The lowest temperature allowed sharpens, it does not break down.
  expect_rc 0 "$G" "${GEN[@]}" --n 4 --no-store --temperature 0.01 --out cold.fa
  [[ $(grep -c '^>' cold.fa) == 4 ]] || fail "cold run"
  ;;
merge_in_progress)
  # A run merged while it is still being written is copied as interrupted; merging again after
  # it finished brings the copy up to date. 100 steps a batch keep the writer busy for seconds
  # after the first batch (at 20 steps and 4 batches it could finish before the first merge on a
  # loaded machine).
  "$G" generate --model dna-promoter --steps 100 --n 48 --batch 8 --threads 1 --quiet \
    --db s.sqlite --name grow --out grow.fa 2>grow.err &
  p=$!
  wait_for_run s.sqlite grow 8
  expect_rc 0 "$G" merge s.sqlite --into m.sqlite
  "$G" runs show grow --db m.sqlite --json >early.json
  wait "$p" || { cat grow.err >&2; fail "the writer failed"; }
  expect_rc 0 "$G" merge s.sqlite --into m.sqlite
  grep -q "1 brought up to date" err.txt || { cat err.txt >&2; fail "second merge"; }
  "$G" runs show grow --db m.sqlite --json >late.json
  python3 - <<'PY'
import json
early, late = json.load(open("early.json")), json.load(open("late.json"))
assert early["status"] == "interrupted" and early["completed"] < 48, early
assert late["status"] == "completed" and late["completed"] == 48, late
PY
  "$G" export grow --db m.sqlite --fasta merged.fa 2>/dev/null
  cmp <(grep -v '^>' grow.fa) <(grep -v '^>' merged.fa) || fail "merged sequences differ"
  expect_rc 0 "$G" merge s.sqlite --into m.sqlite
  grep -q "1 already present, 0 brought up to date" err.txt || fail "third merge is not idempotent"
  ;;
hung_plugin)
  # A plug-in that never returns: two signals end the process within seconds, exit 3.
  "$PLUGINS" .
  "$G" "${GEN[@]}" --n 2 --no-store --guide classifier:hang.json --gamma 1 2>hang.err &
  p=$!
  sleep 4
  kill -INT "$p"; sleep 1; kill -INT "$p"
  for _ in $(seq 300); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$p" 2>/dev/null; then kill -9 "$p"; fail "still running 30 s after two signals"; fi
  set +e; wait "$p"; rc=$?; set -e
  [[ $rc == 3 ]] || { cat hang.err >&2; fail "exit $rc"; }
  grep -q "does not respond" hang.err || fail "no message"
  ;;
names)
  # Names are checked before any work; --out is written through a temporary file, so a failed
  # run leaves an existing file as it was.
  echo "precious" >out.fa
  for name in $'two\nlines' $'tab\there' "with space" "=1+1" "-dash" "@at"; do
    expect_error 2 "run name" "$G" "${GEN[@]}" --n 2 --db s.sqlite "--name=$name" --out out.fa
  done
  [[ $(cat out.fa) == precious ]] || fail "--out was changed by a refused run"
  [[ ! -e s.sqlite ]] || [[ $(run_count s.sqlite) == 0 ]] || fail "a run was stored"
  expect_rc 0 "$G" "${GEN[@]}" --n 2 --db s.sqlite --name ok-name_1.2 --out out.fa
  grep -q "replaced the existing out.fa" err.txt || fail "replacing --out is not said"
  [[ $(grep -c '^>' out.fa) == 2 ]] || fail "out.fa"
  ls -a | grep -q '\.tmp-' && fail "a temporary file was left"
  # A pipe (like /dev/null, a device) is written in place, never replaced by a file; a symbolic
  # link stays a link to the file it names, which gets the new content.
  mkfifo pipe.fa
  cat pipe.fa >from_pipe.fa &
  expect_rc 0 "$G" "${GEN[@]}" --n 2 --no-store --out pipe.fa
  wait
  [[ -p pipe.fa ]] || fail "--out replaced a FIFO by a file"
  [[ $(grep -c '^>' from_pipe.fa) == 2 ]] || fail "nothing came through the FIFO"
  ln -s out.fa link.fa
  expect_rc 0 "$G" "${GEN[@]}" --n 3 --no-store --out link.fa
  [[ -L link.fa && $(grep -c '^>' out.fa) == 3 ]] || fail "--out through a symbolic link"
  true
  ;;
bounded_readers)
  # Endless inputs are refused quickly, not read until memory runs out.
  expect_error 2 "line longer than" timeout 60 "$G" eval --model dna-promoter --sequences /dev/zero
  expect_error 2 "not a JASPAR motif file" \
    timeout 60 "$G" "${GEN[@]}" --n 2 --no-store --guide motif:/dev/zero
  ;;
read_only_folder)
  # A store in a folder this user cannot write: reading, exporting and merging from it work; a
  # merge from a bad input leaves no destination behind. (As root, checks run as user nobody.)
  ro=$(mktemp -d /tmp/gsflow-rof.XXXXXX)
  trap 'chmod -R u+w "$ro"; rm -rf "$ro"' EXIT
  mkdir -p "$ro/bin" "$ro/store" "$ro/out"
  cp "$G" "$(dirname "$G")/gsflow-compute" "$ro/bin/"
  "$G" "${GEN[@]}" --n 2 --db "$ro/store/s.sqlite" --name kept >/dev/null 2>&1
  chmod -R a+rX "$ro"; chmod a-w "$ro/store"; chmod a+w "$ro/out"
  as_user=()
  if [[ $(id -u) == 0 ]]; then as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi
  B=$ro/bin/gsflow
  cd "$ro/out"
  expect_rc 0 "${as_user[@]}" "$B" runs list --db "$ro/store/s.sqlite"
  grep -q kept out.txt || fail "runs list"
  expect_rc 0 "${as_user[@]}" "$B" runs show kept --db "$ro/store/s.sqlite"
  expect_rc 0 "${as_user[@]}" "$B" export kept --db "$ro/store/s.sqlite" --fasta "$ro/out/k.fa"
  [[ $(grep -c '^>' "$ro/out/k.fa") == 2 ]] || fail "export"
  expect_rc 0 "${as_user[@]}" "$B" merge "$ro/store/s.sqlite" --into "$ro/out/m.sqlite"
  [[ $("${as_user[@]}" "$B" runs list --db "$ro/out/m.sqlite" --json | grep -c '"kept"') == 1 ]] \
    || fail "merge from a read-only folder"
  expect_rc 2 "${as_user[@]}" "$B" merge "$ro/out/absent.sqlite" --into "$ro/out/new.sqlite"
  grep -q "absent.sqlite" err.txt || fail "the error names the input"
  [[ ! -e "$ro/out/new.sqlite" ]] || fail "a failed merge left a destination file"
  cd "$W"
  ;;
bare_db_name)
  # GSFLOW_DB as a bare file name is a file in the current folder.
  export GSFLOW_DB=runs.sqlite
  expect_rc 0 "$G" "${GEN[@]}" --n 2 --name bare
  [[ -f runs.sqlite ]] || fail "runs.sqlite"
  expect_rc 0 "$G" rerun bare --check
  unset GSFLOW_DB
  ;;
numbers)
  # Numbers outside what a field holds are refused, not wrapped or saturated; usage errors (CLI11
  # parse and validator failures included) exit 2 like other bad input.
  expect_error 2 "--seed: must not be negative" "$G" "${GEN[@]}" --n 2 --no-store --seed -1
  expect_error 2 "--seed: 18446744073709551616 is out of range" \
    "$G" "${GEN[@]}" --n 2 --no-store --seed 18446744073709551616
  expect_error 2 "negative" "$G" eval --model dna-promoter --seed -1
  expect_error 2 "not a date" "$G" runs list --db x.sqlite --since not-a-date
  expect_error 2 "negative" "$G" runs list --db x.sqlite --limit -1
  expect_error 2 "--n: 0 is not possible (1..10000000)" "$G" "${GEN[@]}" --no-store --n 0
  (( $(wc -c <err.txt) < 400 )) || { cat err.txt >&2; fail "--n 0: the message is too long"; }
  expect_error 2 "--n: '1e12' is not a whole number" "$G" "${GEN[@]}" --no-store --n 1e12
  ;;
*)
  fail "unknown case $CASE"
  ;;
esac
echo "ok: $CASE"
