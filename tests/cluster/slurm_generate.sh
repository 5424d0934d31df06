#!/usr/bin/env bash
# The README's Slurm recipe on a real single-node Slurm (issue 42, item 4): installs the build into
# a temporary prefix, starts munged, slurmctld and slurmd from Debian's packages, submits the job
# array of scripts/slurm-generate (installed as gsflow-slurm-generate) for 4 shards and the merge
# as a dependent (afterok) job, all with the installed binaries and models, and checks that the
# merged run's FASTA equals the unsharded run's byte for byte. Fails (never skips) when Slurm
# cannot start. Usage: slurm_generate.sh CMAKE BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
cmake_cmd=$1 build=$2 source=$3 work=$4

# The run, in one place: the sharded batch and the unsharded reference both use these.
MODEL=dna-promoter N=48 SHARDS=4 SEED=11 NAME=slurm-batch THREADS=1
GEN_EXTRA=(--steps 20 --batch 8)

umask 022  # munged refuses group- or world-writable folders on the way to its key and socket
t0=$SECONDS
phase() { echo "slurm test: [$((SECONDS - t0)) s] $*"; }
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
state=$work/slurm run=$work/run prefix=$work/prefix
mkdir -p "$state"/{state,spool,munge-key} "$run"
chmod 700 "$state/munge-key"
mkdir -m 755 "$state/munge"

pids=() names=()
# start NAME ARGS...: a daemon in the foreground, its output in $state/NAME.out.
start() {
  "$@" >"$state/$1.out" 2>&1 &
  pids+=($!) names+=("$1")
}
# Fails at once, naming it, when a daemon has exited (rather than waiting out a timeout).
check_alive() {
  local i
  for i in "${!pids[@]}"; do
    kill -0 "${pids[i]}" 2>/dev/null || fail "${names[i]} exited at start-up (see its output below)"
  done
}
dump_logs() {
  for f in "$state"/*.out "$state"/*.log "$state"/munge/*.log "$run"/db/logs/*.out; do
    [[ -s $f ]] || continue
    echo "----- $f (last 25 lines)" >&2
    tail -n 25 "$f" >&2
  done
}
fail() {
  echo "FAIL: $*" >&2
  dump_logs
  exit 1
}
stop_all() {
  if [[ -n ${SLURM_CONF:-} ]] && command -v scancel >/dev/null; then
    timeout 5 scancel --quiet --full "${job_ids[@]}" 2>/dev/null || true
  fi
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do wait "${pids[i]}" 2>/dev/null || true; done
}
job_ids=()
trap stop_all EXIT

for tool in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol python3; do
  command -v "$tool" >/dev/null ||
    fail "$tool not found: install slurmctld slurmd slurm-client munge (scripts/setup does)"
done

# 1. Install, and use only what was installed: no source tree, no GSFLOW_MODELS, another cwd.
"$cmake_cmd" --install "$build" --prefix "$prefix" >"$work/install.log" ||
  { cat "$work/install.log" >&2; fail "cmake --install $build --prefix $prefix"; }
for f in bin/gsflow bin/gsflow-compute bin/gsflow-slurm-generate \
         share/gsflow/models/$MODEL.ckpt share/gsflow/models/$MODEL.md \
         share/gsflow/models/classifiers/promoter.ckpt share/gsflow/models/judges/promoter.json \
         share/gsflow/models/motifs/MA0108.2.jaspar; do
  [[ -e $prefix/$f ]] || fail "cmake --install did not install $f"
done
if [[ -x $build/app/gsflow-studio ]]; then  # a build with the GUI installs the studio too
  [[ -x $prefix/bin/gsflow-studio ]] || fail "cmake --install did not install bin/gsflow-studio"
fi
unset GSFLOW_MODELS GSFLOW_DB GSFLOW_DATA GSFLOW_SOURCE_DIR XDG_DATA_HOME
export HOME=$run PATH=$prefix/bin:$PATH
cd "$run"
[[ $(command -v gsflow) == "$prefix/bin/gsflow" ]] || fail "gsflow on PATH is not the installed one"
# An installed binary searches the installed models only, never the source tree.
if gsflow generate --model no-such-model --n 1 --no-store --quiet >/dev/null 2>lookup.err; then
  fail "a missing model was found"
fi
grep -qF "$prefix/share/gsflow/models" lookup.err || { cat lookup.err; fail "installed models not searched"; }
! grep -qF "$source/models" lookup.err || { cat lookup.err; fail "the installed binary searches the source tree"; }
phase "installed into $prefix"

# 2. A single-node Slurm as the current user (build-notes.md, "A real single-node Slurm").
mungekey -c -k "$state/munge-key/munge.key" || fail "mungekey could not create a key"
start munged -F -S "$state/munge/munge.sock" --key-file="$state/munge-key/munge.key" \
  --pid-file="$state/munge/munged.pid" --log-file="$state/munge/munged.log" \
  --seed-file="$state/munge/munged.seed"
for _ in $(seq 100); do [[ -S $state/munge/munge.sock ]] && break; check_alive; sleep 0.1; done
munge -n -S "$state/munge/munge.sock" | unmunge -S "$state/munge/munge.sock" >/dev/null ||
  fail "munged did not start (socket $state/munge/munge.sock)"

read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
user=$(id -un)
export SLURM_CONF=$state/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=gsflowtest
SlurmctldHost=localhost
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.sock
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
DependencyParameters=kill_invalid_depend
MpiDefault=none
ReturnToService=2
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
StateSaveLocation=$state/state
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
NodeName=localhost CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
start slurmctld -D -i -f "$SLURM_CONF"
start slurmd -D -N localhost -f "$SLURM_CONF"
node=""
for _ in $(seq 150); do
  node=$(timeout 5 sinfo -h -o %T 2>/dev/null || true)
  [[ $node == idle ]] && break
  check_alive
  sleep 0.2
done
[[ $node == idle ]] || fail "Slurm did not start: node state '${node:-no answer}' after 30 s"
phase "Slurm up (slurmctld port $ctld_port, slurmd port $slurmd_port)"

# 3. The batch through Slurm with the installed script and binaries; the reference meanwhile.
gsflow-slurm-generate --model "$MODEL" --n "$N" --shards "$SHARDS" --seed "$SEED" --name "$NAME" \
  --threads "$THREADS" --time 00:05:00 --db-dir db --out merged.fa --submit -- "${GEN_EXTRA[@]}" \
  >submit.txt || fail "gsflow-slurm-generate --submit"
array=$(awk '$1 == "array" {print $2}' submit.txt)
merge=$(awk '$1 == "merge" {print $2}' submit.txt)
[[ -n $array && -n $merge ]] || { cat submit.txt; fail "no job ids from gsflow-slurm-generate"; }
job_ids=("$array" "$merge")
grep -q -- "--array=0-$((SHARDS - 1))" "db/$NAME.sbatch" || fail "not a $SHARDS-task array"
phase "submitted array $array and merge $merge (afterok)"

gsflow generate --model "$MODEL" --n "$N" --seed "$SEED" --name "$NAME" --threads "$THREADS" \
  "${GEN_EXTRA[@]}" --db whole.sqlite --quiet >/dev/null 2>whole.err ||
  { cat whole.err; fail "unsharded reference run"; }
gsflow export "$NAME" --db whole.sqlite --fasta whole.fa 2>/dev/null || fail "export of the reference"
phase "unsharded reference done"

for _ in $(seq 600); do
  [[ -z $(squeue -h -j "$array,$merge" -o %i 2>/dev/null) ]] && break
  sleep 0.2
done
[[ -z $(squeue -h -j "$array,$merge" -o %i 2>/dev/null) ]] ||
  { squeue >&2; fail "jobs still queued or running after 120 s"; }
for i in $(seq 0 $((SHARDS - 1))); do
  st=$(scontrol -o show job "${array}_$i" | grep -o 'JobState=[A-Z_]*' | head -1)
  [[ $st == JobState=COMPLETED ]] || fail "array task $i: $st"
done
st=$(scontrol -o show job "$merge" | grep -o 'JobState=[A-Z_]*')
[[ $st == JobState=COMPLETED ]] || fail "merge job: $st"
phase "Slurm jobs completed"

# 4. The merged run is the unsharded run.
[[ -s merged.fa ]] || fail "the merge job exported nothing"
[[ $(grep -c '^>' merged.fa) == "$N" ]] || fail "merged.fa has $(grep -c '^>' merged.fa) records, not $N"
cmp merged.fa whole.fa || { diff merged.fa whole.fa | head >&2; fail "merged shards differ from the unsharded run"; }
gsflow runs show "$NAME" --db "db/$NAME.sqlite" >show.txt
grep -q "status *completed" show.txt || { cat show.txt; fail "merged run not completed"; }
grep -qF "$prefix/share/gsflow/models/$MODEL.ckpt" show.txt ||
  { cat show.txt; fail "the jobs did not use the installed model"; }
phase "PASS: $SHARDS shards merged = unsharded run ($N sequences, byte-identical FASTA)"
