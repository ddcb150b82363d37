#!/usr/bin/env bash
# make e2e against a Chromium started by hand: exactly the command the
# README's attach-command block tells a person to run (its port and profile
# swapped for free ones), attached by AGENTREADY_BROWSER_URL (issue 25.2's
# acceptance). The README is read here, so the README and this run cannot
# drift apart.
set -euo pipefail
cd "$(dirname "$0")/.."
command=$(awk '/<!-- attach-command/{f=1; next} f && /^```sh/{g=1; next} g && /^export /{exit} g{print}' README.md | sed 's/\\$//' | tr '\n' ' ')
read -r -a words <<<"$command"
if [ "${#words[@]}" -lt 2 ] || [ "${words[0]}" != chromium ]; then
  echo "e2e-attached: README.md's attach-command block is not a chromium command: ${command:-nothing}" >&2
  exit 1
fi
profile=$(mktemp -d /tmp/agentready-attached-XXXXXX)
args=()
for w in "${words[@]:1}"; do
  case "$w" in
    --remote-debugging-port=*) args+=(--remote-debugging-port=0) ;;
    --user-data-dir=*) args+=("--user-data-dir=$profile") ;;
    *) args+=("$w") ;;
  esac
done
chromium_bin=${AGENTREADY_CHROMIUM:-chromium}
"$chromium_bin" "${args[@]}" about:blank >"$profile.log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$profile" "$profile.log"; }
trap cleanup EXIT
# Chromium says "DevTools listening on ws://…" once it listens: read its
# output as it grows (tail -f) until that line, 20 s at most.
ws=
exec 3< <(tail -n +1 -f "$profile.log")
tailpid=$!
deadline=$((SECONDS + 20))
while [ "$SECONDS" -lt "$deadline" ] && IFS= read -r -t $((deadline - SECONDS)) line <&3; do
  case $line in *"DevTools listening on ws://"*) ws=${line#*DevTools listening on }; break ;; esac
done
exec 3<&-
kill "$tailpid" 2>/dev/null || true
port=$(echo "$ws" | sed -n 's|^ws://[^:]*:\([0-9]*\)/.*|\1|p')
if [ -z "$port" ]; then
  echo "e2e-attached: the README's Chromium opened no debugging port within 20 s:" >&2
  cat "$profile.log" >&2
  exit 1
fi
echo "e2e-attached: Chromium from the README's command, pid $pid, port $port"
AGENTREADY_BROWSER_URL=http://127.0.0.1:$port make --no-print-directory e2e REPORTS="${REPORTS:-reports}/attached" RUN_ID="${RUN_ID:-attached-$(date -u +%Y%m%dT%H%M%SZ)}"
