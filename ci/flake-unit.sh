#!/usr/bin/env bash
# Reruns the unit tests (the packages `make unit` runs, with -race) N times
# and reports every failure by test; HOGS=k runs k CPU hogs (`yes`) beside
# them, the busy machine CI may be. A flake is fixed at its root; this
# script never retries.
set -uo pipefail
n=${1:-5}
hogs=${HOGS:-0}
out=$(realpath -m "${REPORTS:-reports}/flake-unit")
rm -rf "$out" && mkdir -p "$out"
pkgs=$(go list ./... | grep -v -e '/e2e$' -e '/internal/runs/mutants$')
pids=()
for _ in $(seq 1 "$hogs"); do yes >/dev/null & pids+=($!); done
trap '[ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null' EXIT
failed_runs=0
for i in $(seq 1 "$n"); do
  start=$(date +%s)
  if go test -race -count=1 -json $pkgs >"$out/run-$i.json" 2>"$out/run-$i.err"; then
    echo "run $i/$n: ok ($(( $(date +%s) - start )) s, $hogs hogs)"
  else
    failed_runs=$((failed_runs + 1))
    echo "run $i/$n: FAILED ($(( $(date +%s) - start )) s, $hogs hogs), report: $out/run-$i.json"
    go run ./ci/summarize --failures "$out/run-$i.json" | grep '^FAILED' | sed 's/^/    /'
  fi
done
echo "flake-unit: $n runs, $failed_runs with a failure"
[ "$failed_runs" -eq 0 ]
