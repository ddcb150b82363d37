#!/usr/bin/env bash
# make known-answers: seed 003's known-answer cases (the scenarios of area
# "drafts"), re-run the way someone else would check our judge: a fresh
# clone of this checkout's HEAD in another folder, an output folder that is
# empty, every case played in Chromium against the reference app, every
# bundle verified, a table of expected and reached verdicts printed. It
# exits 0 only when at least MIN cases ran, each reached exactly its
# expected verdict and codes, and every bundle verified.
#
# KNOWN_ANSWERS_OUT=dir keeps the bundles there (it must be empty or absent);
# otherwise they go to a temporary folder, removed at the end.
set -euo pipefail
MIN=9
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/agentready-known-answers.XXXXXX")
trap 'rm -rf "$work"' EXIT

out=${KNOWN_ANSWERS_OUT:-$work/out}
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
  echo "known-answers: $out is not empty: give an empty or new folder" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

head=$(git -C "$src" rev-parse --short HEAD)
if [ -n "$(git -C "$src" status --porcelain)" ]; then
  echo "known-answers: note: uncommitted changes are not in the clone; it is HEAD $head"
fi
git clone --quiet --no-local "$src" "$work/clone"
echo "known-answers: HEAD $head cloned into $work/clone; output into $out"

status=0
(
  cd "$work/clone"
  # A user's shell: none of the variables an enclosing make exports.
  env -u AGENTREADY_EVIDENCE -u AGENTREADY_RUN_ID -u AGENTREADY_SHARD -u MAKEFLAGS -u MAKELEVEL \
    make --no-print-directory scenario ID=drafts EVIDENCE="$out/evidence" REPORTS="$out/reports" RUN_ID=known-answers
) > "$work/make.log" 2>&1 || status=$?

# The table ci/summarize printed: from its header to the scenarios line.
sed -n '/^scenario  /,/^scenarios: /p' "$work/make.log"
fail() { echo "known-answers: $1"; echo "--- last lines of make:"; tail -40 "$work/make.log"; exit 1; }
[ "$status" = 0 ] || fail "make scenario ID=drafts exited $status"
ran=$(sed -n 's/^verify: \([0-9]*\) passed, 0 failed$/\1/p' "$work/make.log")
[ -n "$ran" ] || fail "no bundle verified, or one failed"
bundles=$(find "$out/evidence/known-answers" -name manifest.json | wc -l)
[ "$bundles" = "$ran" ] || fail "$bundles bundles written, $ran verified"
[ "$ran" -ge "$MIN" ] || fail "$ran cases ran; seed 003's set has at least $MIN"
echo "known-answers: $ran cases, each at its expected verdict and codes; $ran bundles verify"
