#!/usr/bin/env bash
# `make demo`: forge commands piped together on a throwaway git repository, then the state they left in git.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/forge-demo.XXXXXX")
# Throwaway: removed at the end, however it ends; FORGE_DEMO_KEEP=1 keeps it to look around in.
if [ "${FORGE_DEMO_KEEP:-}" != 1 ]; then trap 'rm -rf "$work"' EXIT; fi
# Headings in bold only on a terminal that takes colour: a log file gets plain text.
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ] && [ "${TERM:-dumb}" != dumb ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
# forge on PATH as `npm install -g` would put it, without installing anything globally.
mkdir -p "$work/bin"
ln -s "$root/dist/forge.js" "$work/bin/forge"
export PATH="$work/bin:$PATH" XDG_DATA_HOME="$work/xdg" NO_COLOR=1
unset FORGE_RUN_ID FORGE_CWD FORGE_JSON

step() { printf '\n%s== %s%s\n' "$bold" "$1" "$plain"; }
run() { printf '$ %s\n' "$*"; eval "$@"; }
# jq makes the pipelines read well; without it the raw NDJSON is shown.
if command -v jq >/dev/null; then pick() { jq -c "$1"; }; else pick() { cat; }; fi

repo="$work/project"
git init -q -b main "$repo"
cd "$repo"
printf 'console.log("hi")\n' > app.js
git add app.js
git -c user.name=demo -c user.email=demo@example.com commit -q -m "initial commit"
echo "a work-in-progress change the user has not committed" >> app.js
before=$(git status --short; git rev-parse HEAD)
echo "throwaway repository: $repo (HEAD $(git rev-parse --short HEAD), app.js modified and uncommitted; removed at the end unless FORGE_DEMO_KEEP=1)"

step "1. Remember how this project runs its tests (project memory, one commit on refs/forge/state)"
run forge memory save "'node --test; the watch mode hangs in CI'" --category test_command --confidence 0.9

step "2. Lessons arrive as NDJSON from another program; forge answers one record per line"
run "printf '%s\n' '{\"pattern\":\"use node 20 features only\",\"category\":\"convention\"}' '{\"pattern\":\"NODE --TEST; THE WATCH MODE HANGS IN CI\",\"category\":\"test_command\"}' | forge memory save | pick '{saved, duplicate, pattern: .entry.pattern, next: ._next_action}'"

step "3. An agent works on module m1 in run 'demo': every call is logged, attempts are counted"
export FORGE_RUN_ID=demo
run forge iter update m1 --status failed --score 0.5 --issue "'app.test.js: expected hi'"
run forge iter update m1 --status failed --score 0.5 --issue "'app.test.js: expected hi'"
run forge iter update m1 --status passed --score 1
run forge session save --phase done --module-status m1=done
unset FORGE_RUN_ID

step "4. Recall what was learned, as text and through jq"
run forge memory recall test command
run "forge memory recall --json | pick 'select(.type==\"memory\") | {category, confidence, pattern}'"

step "5. What run 'demo' did, from its event log"
run forge logs --run-id demo

step "6. The user's branch, index and work tree were never touched"
run git status --short
after=$(git status --short; git rev-parse HEAD)
[ "$before" = "$after" ] && echo "unchanged: HEAD and git status are exactly as before"

step "7. All of it is plain git: one commit per change on refs/forge/state"
run forge state log --limit 3
run git log --oneline refs/forge/state
