# Helpers shared by the command-line test scripts (sourced, not run): run_store_cli.sh,
# guidance_cli.sh and reliability_cli.sh.

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_rc() {  # expect_rc CODE COMMAND... : runs it, checks the exit code, keeps stderr in err.txt
  local want=$1; shift
  set +e; "$@" >out.txt 2>err.txt; local rc=$?; set -e
  [[ $rc == "$want" ]] || { cat out.txt err.txt >&2; fail "exit $rc, expected $want: $*"; }
}
