#!/usr/bin/env bash
# make grid-test: the suite with its browsers from a Selenium Grid
# (ci/grid.sh, on loopback, with a short session timeout so that the
# keep-alive is put to the test):
#   1. the grid tests of the browser package: the preflight through the
#      grid, no session left after release, a kept-alive session outliving
#      the session timeout that culls a silent one;
#   2. CONF-01 and the server rules as Ginkgo specs through the grid, and
#      CONF-01 by agentready run: every bundle verifies;
#   3. an interrupted agentready run and an interrupted Ginkgo run delete
#      their grid sessions;
#   4. ci/grid.sh stop leaves no process of the grid behind.
set -euo pipefail
cd "$(dirname "$0")/.."
export GRID_PORT=${GRID_PORT:-4444} GRID_SESSION_TIMEOUT=${GRID_SESSION_TIMEOUT:-15}
export AGENTREADY_GRID_URL="http://127.0.0.1:$GRID_PORT"
export AGENTREADY_GRID_SESSION_TIMEOUT=$GRID_SESSION_TIMEOUT AGENTREADY_GRID_KEEPALIVE=${AGENTREADY_GRID_KEEPALIVE:-3s}
unset AGENTREADY_BROWSER_URL AGENTREADY_SHARD AGENTREADY_EVIDENCE AGENTREADY_RUN_ID MAKEFLAGS MAKELEVEL
work=$(mktemp -d)
pids=()
finish() {
  status=$?
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  bash ci/grid.sh stop || status=1
  if curl -sf --max-time 2 "$AGENTREADY_GRID_URL/status" >/dev/null; then
    echo "grid-test: something still answers at $AGENTREADY_GRID_URL after stop"; status=1
  fi
  rm -rf "$work"
  # Not an "N passed, N failed" line: the closing count of CI stays make test's.
  [ "$status" = 0 ] && echo "grid-test: ok, all 4 checks" || echo "grid-test: FAILED (exit $status)"
  exit "$status"
}
trap finish EXIT
fail() { echo "grid-test: $*"; exit 1; }
sessions() { bash ci/grid.sh sessions; }

bash ci/grid.sh start
go build -o "$work/agentready" ./cmd/agentready

echo "== 1. the browser package's grid tests"
go test -count=1 -run 'Grid' -v ./internal/live/browser 2>&1 | grep -E '^(=== RUN|--- |ok|FAIL|\s+grid_test)' || fail "the grid tests failed"

echo "== 2. CONF-01 and the server rules through the grid"
run_id=grid-$(date -u +%Y%m%dT%H%M%SZ)
make --no-print-directory scenario ID='CONF-01 || server-rules' RUN_ID="$run_id" REPORTS="$work/reports" EVIDENCE="$work/evidence" PROCS=1 \
  > "$work/specs.log" 2>&1 || { grep -A8 'FAILED\]' "$work/specs.log" | head -60; tail -8 "$work/specs.log"; fail "the specs through the grid failed"; }
grep -E '^(verify|scenario):' "$work/specs.log"
# Every CONF-01 bundle the run wrote (its attempts and their companions) verifies.
n=$(find "$work/evidence/$run_id" -mindepth 1 -maxdepth 1 -type d -name 'CONF-01*' | wc -l)
[ "$n" -ge 3 ] || fail "only $n CONF-01 bundles were written"
grep -q "^verify: $n passed, 0 failed\$" "$work/specs.log" || fail "CONF-01's $n bundles did not all verify"
grep -q '"chromium": "Chrome/' "$work/evidence/$run_id/CONF-01.attempt-3/manifest.json" || fail "the bundle does not name the grid's Chromium"
"$work/agentready" run --id CONF-01 --evidence "$work/evidence" --run-id "$run_id-run" > "$work/run.log" 2>&1 || { cat "$work/run.log"; fail "agentready run through the grid failed"; }
grep -E '^(verify|run):' "$work/run.log"
[ "$(sessions)" = 0 ] || fail "$(sessions) sessions left on the grid after the runs"

echo "== 3. an interrupt deletes the grid session"
# e2e/e2e.test, run from there as flake.sh does (built after make, whose
# ginkgo run removes the binary it compiled in the same place).
go tool ginkgo build ./e2e >/dev/null
ginkgo=$(go tool -n ginkgo)
# wait_sessions N: until the grid holds N sessions (bounded: 60 s).
wait_sessions() {
  local deadline=$((SECONDS + 60))
  until [ "$(sessions)" = "$1" ]; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
}
# Each run is its own process group, interrupted as a terminal's Ctrl-C does.
setsid "$work/agentready" run --evidence "$work/evidence" --run-id "$run_id-int" > "$work/int.log" 2>&1 &
pid=$!; pids+=("$pid")
wait_sessions 1 || fail "agentready run never opened a grid session"
kill -INT -- -"$pid"; wait "$pid" || true
[ "$(sessions)" = 0 ] || fail "an interrupted agentready run left $(sessions) sessions on the grid"
echo "agentready run, interrupted: no session left"
AGENTREADY_EVIDENCE="$work/evidence" AGENTREADY_RUN_ID="$run_id-gint" setsid "$ginkgo" --label-filter='scenario-file' ./e2e/e2e.test > "$work/gint.log" 2>&1 &
pid=$!; pids+=("$pid")
wait_sessions 1 || fail "the Ginkgo run never opened a grid session"
kill -INT -- -"$pid"; wait "$pid" || true
wait_sessions 0 || fail "an interrupted Ginkgo run left $(sessions) sessions on the grid"
echo "ginkgo, interrupted: no session left"
