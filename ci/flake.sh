#!/usr/bin/env bash
# Reruns the whole e2e suite N times and reports every failure. A flake is
# fixed at its root; this script never retries.
set -uo pipefail
n=${1:-20}
procs=${PROCS:-2}
out=$(realpath -m "${REPORTS:-reports}/flake")
rm -rf "$out" && mkdir -p "$out"
go run github.com/onsi/ginkgo/v2/ginkgo build ./e2e >/dev/null || exit 2
failed_runs=0
for i in $(seq 1 "$n"); do
  start=$(date +%s)
  if AGENTREADY_EVIDENCE="$out/evidence" AGENTREADY_RUN_ID="run-$i" \
     go run github.com/onsi/ginkgo/v2/ginkgo --procs="$procs" --json-report="run-$i.json" --output-dir="$out" \
       ./e2e/e2e.test >"$out/run-$i.log" 2>&1; then
    echo "run $i/$n: ok ($(( $(date +%s) - start )) s)"
  else
    failed_runs=$((failed_runs + 1))
    echo "run $i/$n: FAILED ($(( $(date +%s) - start )) s), log: $out/run-$i.log"
    go run ./ci/summarize --failures "$out/run-$i.json" | grep '^FAILED' | sed 's/^/    /'
  fi
done
echo "flake: $n runs, $failed_runs with a failure"
[ "$failed_runs" -eq 0 ]
