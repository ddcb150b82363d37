#!/usr/bin/env bash
# The README's "Testing your own app", as a new user runs it: start an app of
# our own that has no observation endpoints (Little Oven), point make e2e at
# it with its scenario files, and check that only those scenarios ran, that
# verify, the index path and the summary line were printed, and that make
# exited 0. Then the same app with a defect must make make e2e fail.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
go build -o "$work/agentready" ./cmd/agentready

# start_app VARIANT: serve Little Oven on a free port; sets APP_URL from the
# first line it prints (read with a bound: the event, not a guess of time).
start_app() {
  coproc APP { exec "$work/agentready" serve --app plain --addr 127.0.0.1:0 --variant "$1" 2>&1; }
  pids+=("$APP_PID")
  local line=""
  read -r -t 20 line <&"${APP[0]}" || true
  APP_URL=$(sed -n 's#^Little Oven at \(http://[^/]*\)/menu.*#\1#p' <<<"$line")
  [ -n "$APP_URL" ] || { echo "user-mode: the app did not start: $line"; return 1; }
}

start_app ""
status=0
# A fresh environment as a user's shell has it (make test exports its own).
run_make() { env -u AGENTREADY_EVIDENCE -u AGENTREADY_RUN_ID -u MAKEFLAGS -u MAKELEVEL -u PROCS make --no-print-directory "$@"; }
AGENTREADY_BASE_URL=$APP_URL AGENTREADY_SCENARIOS=fixtures/plainapp/scenarios \
  run_make e2e REPORTS="$work/reports" EVIDENCE="$work/evidence" RUN_ID=user > "$work/make.log" 2>&1 || status=$?
fail() { echo "user-mode: $1"; tail -40 "$work/make.log"; exit 1; }
[ "$status" = 0 ] || fail "make e2e against Little Oven exited $status"
grep -q '^verify: 5 passed, 0 failed$' "$work/make.log" || fail "no verify line for exactly the app's 5 scenarios"
grep -q "^evidence: $work/evidence/user/index.html$" "$work/make.log" || fail "no index path"
grep -Eq '^e2e: 5 passed, 0 failed, 0 skipped$' "$work/make.log" || fail "no summary line for exactly 5 specs, none skipped (the suite's own specs are not the user's)"
bundles=$(find "$work/evidence/user" -name manifest.json | wc -l)
[ "$bundles" = 5 ] || fail "$bundles bundles in the run, want the app's 5 (no bundle of the suite's own specs)"
echo "user-mode: make e2e against an app without observation endpoints: 5 scenarios, verify, index and summary, exit 0"

# One app, one state: two processes playing it at once would each judge the
# other's writes. The suite refuses before any spec runs, and says how out.
AGENTREADY_BASE_URL=$APP_URL AGENTREADY_SCENARIOS=fixtures/plainapp/scenarios AGENTREADY_EVIDENCE="$work/evidence-two" \
  go tool ginkgo --procs=2 ./e2e > "$work/two.log" 2>&1 && { tail -20 "$work/two.log"; echo "user-mode: two processes against one app were let run"; exit 1; }
grep -q "2 processes would play scenarios against this one app at once" "$work/two.log" || { tail -30 "$work/two.log"; echo "user-mode: two processes against one app failed without saying why"; exit 1; }
[ -z "$(find "$work/evidence-two" -name manifest.json 2>/dev/null)" ] || { echo "user-mode: two processes against one app wrote bundles before the refusal"; exit 1; }
echo "user-mode: two processes against one app are refused before any spec runs"

kill "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
start_app writes-early
status=0
AGENTREADY_BASE_URL=$APP_URL AGENTREADY_SCENARIOS=fixtures/plainapp/scenarios \
  run_make scenario ID=ORDER-01.overclaims REPORTS="$work/reports2" EVIDENCE="$work/evidence" RUN_ID=bad > "$work/make.log" 2>&1 || status=$?
[ "$status" != 0 ] || fail "make scenario against the writes-early app exited 0"
grep -q 'side_effect_before_confirmation' "$work/evidence/bad/ORDER-01.overclaims/verdict.json" || fail "the early write was not judged side_effect_before_confirmation"
grep -q '^scenario: 0 passed, 1 failed' "$work/make.log" || fail "no summary line after a failing run"
echo "user-mode: the same app writing early fails with side_effect_before_confirmation, and the summary still prints"
