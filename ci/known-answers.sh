#!/usr/bin/env bash
# make known-answers: seed 003's known-answer cases (the scenarios of area
# "drafts"), re-run the way someone else would check our judge: a fresh
# clone of this checkout in another folder (its HEAD, or, when the working
# tree has changes, a snapshot of the working tree), an output folder that is
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
ref=""
trap 'rm -rf "$work"; [ -z "$ref" ] || git -C "$src" update-ref -d "$ref" 2>/dev/null || true' EXIT

out=${KNOWN_ANSWERS_OUT:-$work/out}
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
  echo "known-answers: $out is not empty: give an empty or new folder" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

if ! git -C "$src" rev-parse --verify --quiet HEAD >/dev/null 2>&1; then
  echo "known-answers: $src is not a git checkout with a commit: the cases are re-run from a clone of one (git clone the repository)" >&2
  exit 2
fi
head=$(git -C "$src" rev-parse --short HEAD)
git clone --quiet --no-local "$src" "$work/clone"
what="HEAD $head"
if [ -n "$(git -C "$src" status --porcelain)" ]; then
  # The working tree as it is, tracked and untracked files alike (not what
  # .gitignore leaves out), as a commit of its own that the clone checks
  # out: what make test judged is what is re-run here. The real index, HEAD
  # and branches are not touched; the commit lives under a ref of ours only
  # until the clone has fetched it.
  idx="$work/index"
  cp "$(git -C "$src" rev-parse --absolute-git-dir)/index" "$idx"
  GIT_INDEX_FILE="$idx" git -C "$src" add -A
  tree=$(GIT_INDEX_FILE="$idx" git -C "$src" write-tree)
  snap=$(GIT_AUTHOR_NAME=known-answers GIT_AUTHOR_EMAIL=known-answers@localhost GIT_COMMITTER_NAME=known-answers GIT_COMMITTER_EMAIL=known-answers@localhost \
    git -C "$src" commit-tree "$tree" -p HEAD -m "known-answers: the working tree")
  ref=refs/agentready/known-answers-$$
  git -C "$src" update-ref "$ref" "$snap"
  git -C "$work/clone" fetch --quiet origin "$ref"
  git -C "$work/clone" checkout --quiet FETCH_HEAD
  git -C "$src" update-ref -d "$ref" && ref=""
  what="HEAD $head with the working tree's changes (snapshot ${snap:0:7})"
fi
echo "known-answers: $what cloned into $work/clone; output into $out"
# Every file of the folder is a case of area drafts: a companion that
# extends: its parent inherits the area without restating it, so files are
# counted, not "area: drafts" lines.
# A file that says vary: [a, b] is a case more for each way it names.
files=$(find "$work/clone"/scenarios/cases/drafts -maxdepth 1 -name '*.yaml' | wc -l)
ways=$(find "$work/clone"/scenarios/cases/drafts -maxdepth 1 -name '*.yaml' -exec sed -n 's/^vary: *\[\(.*\)\].*/\1/p' {} + | tr ',' '\n' | grep -c '[a-z]' || true)
want=$((files + ways))

status=0
(
  cd "$work/clone"
  # A user's shell: none of the variables an enclosing make exports.
  env -u AGENTREADY_EVIDENCE -u AGENTREADY_RUN_ID -u AGENTREADY_SHARD -u AGENTREADY_BASE_URL -u AGENTREADY_SCENARIOS \
    -u AGENTREADY_GRID_URL -u MAKEFLAGS -u MAKELEVEL \
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
[ "$ran" = "$want" ] || fail "$ran cases ran, but scenarios/cases/drafts holds $want ($files files, $ways varied)"
[ "$ran" -ge "$MIN" ] || fail "$ran cases ran; seed 003's set has at least $MIN"
echo "known-answers: $ran cases, each at its expected verdict and codes; $ran bundles verify"
