# Helpers shared by the command-line test scripts (sourced, not run): run_store_cli.sh,
# guidance_cli.sh, reliability_cli.sh, fine_tune_cli.sh and others.

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_rc() {  # expect_rc CODE COMMAND... : runs it, checks the exit code, keeps stderr in err.txt
  local want=$1; shift
  set +e; "$@" >out.txt 2>err.txt; local rc=$?; set -e
  [[ $rc == "$want" ]] || { cat out.txt err.txt >&2; fail "exit $rc, expected $want: $*"; }
}
fresh_workdir() {  # fresh_workdir DIR: DIR emptied and entered; OpenMP threads wait passively
  rm -rf "$1"
  mkdir -p "$1"
  cd "$1"
  export OMP_WAIT_POLICY=PASSIVE
}
