# bash completion for forge — generated from the command declarations by `make completions`; do not edit
declare -gA _forge_subs=(
  ["forge"]="agent checkpoint completion diff edit eval hooks init iter logs loop ls mcp memory patch plan read replace schema search session state stats undo validate write"
  ["forge hooks"]="install list"
  ["forge iter"]="get reset update"
  ["forge loop"]="cancel hook install pause resume run start status"
  ["forge memory"]="recall save"
  ["forge plan"]="ack activate advance check end install-hook journal new pause preflight resume status"
  ["forge session"]="list load save"
  ["forge state"]="export log show sync"
)
declare -gA _forge_opts=(
  ["forge agent"]="--task --endpoint --model --profile --api-key-env --max-turns --quick --stall-seconds --budget --dry-run --continue --session --list --rollback --plan --resume --yes --planner-model --parallel --save-hooks --attach --detach --image --mechanical --cwd --run-id --json --color --help"
  ["forge checkpoint"]="--message --cwd --run-id --json --color --help"
  ["forge completion"]="--shell --cwd --run-id --json --color --help"
  ["forge diff"]="--checkpoint --stat --cwd --run-id --json --color --help"
  ["forge edit"]="--path --old --new --anchor --all --lines --after --before --delete --edits --cwd --run-id --json --color --help"
  ["forge eval"]="--task --agent --runs --endpoint --model --profile --suite --list --compare --keep --cwd --run-id --json --color --help"
  ["forge hooks install"]="--hook --cwd --run-id --json --color --help"
  ["forge hooks list"]="--profile --cwd --run-id --json --color --help"
  ["forge init"]="--force --print --agents-md --cwd --run-id --json --color --help"
  ["forge iter get"]="--module --cwd --run-id --json --color --help"
  ["forge iter reset"]="--module --all --cwd --run-id --json --color --help"
  ["forge iter update"]="--module --status --score --issue --root-cause --cwd --run-id --json --color --help"
  ["forge logs"]="--module --phase --severity --limit --cwd --run-id --json --color --help"
  ["forge loop cancel"]="--cwd --run-id --json --color --help"
  ["forge loop hook"]="--agent --payload --cwd --run-id --json --color --help"
  ["forge loop install"]="--agent --settings --cwd --run-id --json --color --help"
  ["forge loop pause"]="--reason --cwd --run-id --json --color --help"
  ["forge loop resume"]="--cwd --run-id --json --color --help"
  ["forge loop run"]="--prompt-file --prompt --max-iterations --completion-promise --done-when --done-when-timeout --agent --cwd --run-id --json --color --help"
  ["forge loop start"]="--prompt-file --prompt --max-iterations --completion-promise --done-when --done-when-timeout --agent --session --cwd --run-id --json --color --help"
  ["forge loop status"]="--cwd --run-id --json --color --help"
  ["forge ls"]="--glob --limit --cwd --run-id --json --color --help"
  ["forge mcp"]="--toolsets --tools --cwd --run-id --json --color --help"
  ["forge memory recall"]="--query --category --scope --limit --cwd --run-id --json --color --help"
  ["forge memory save"]="--pattern --category --confidence --tag --scope --cwd --run-id --json --color --help"
  ["forge patch"]="--diff --file --check --reverse --cwd --run-id --json --color --help"
  ["forge plan ack"]="--plan-id --cwd --run-id --json --color --help"
  ["forge plan activate"]="--path --replace --cwd --run-id --json --color --help"
  ["forge plan advance"]="--plan-id --evidence --timeout --cwd --run-id --json --color --help"
  ["forge plan check"]="--path --strict --cwd --run-id --json --color --help"
  ["forge plan end"]="--plan-id --reason --cwd --run-id --json --color --help"
  ["forge plan install-hook"]="--agent --settings --user --cwd --run-id --json --color --help"
  ["forge plan journal"]="--plan-id --verb --filter --limit --cwd --run-id --json --color --help"
  ["forge plan new"]="--slug --date --cwd --run-id --json --color --help"
  ["forge plan pause"]="--plan-id --reason --cwd --run-id --json --color --help"
  ["forge plan preflight"]="--tool --path --tokens --command --surface --writes --hook --payload --cwd --run-id --json --color --help"
  ["forge plan resume"]="--plan-id --cwd --run-id --json --color --help"
  ["forge plan status"]="--cwd --run-id --json --color --help"
  ["forge read"]="--path --start --end --blame --symbols --cwd --run-id --json --color --help"
  ["forge replace"]="--old --new --paths --glob --regex --ignore-case --check --cwd --run-id --json --color --help"
  ["forge schema"]="--command --cwd --run-id --json --color --help"
  ["forge search"]="--pattern --paths --glob --ignore-case --literal --limit --cwd --run-id --json --color --help"
  ["forge session list"]="--cwd --run-id --json --color --help"
  ["forge session load"]="--cwd --run-id --json --color --help"
  ["forge session save"]="--phase --module-status --completed --total --state --replace --cwd --run-id --json --color --help"
  ["forge state export"]="--dir --cwd --run-id --json --color --help"
  ["forge state log"]="--limit --cwd --run-id --json --color --help"
  ["forge state show"]="--path --cwd --run-id --json --color --help"
  ["forge state sync"]="--remote --dry-run --cwd --run-id --json --color --help"
  ["forge stats"]="--cwd --run-id --json --color --help"
  ["forge undo"]="--checkpoint --list --redo --yes --cwd --run-id --json --color --help"
  ["forge validate"]="--module --cmd --file --contract --plan --timeout --max-attempts --cwd --run-id --json --color --help"
  ["forge write"]="--path --content --overwrite --cwd --run-id --json --color --help"
)
declare -gA _forge_choices=(
  ["forge agent --color"]="auto always never"
  ["forge checkpoint --color"]="auto always never"
  ["forge completion --shell"]="bash zsh fish"
  ["forge completion --color"]="auto always never"
  ["forge diff --color"]="auto always never"
  ["forge edit --color"]="auto always never"
  ["forge eval --agent"]="forge opencode codex claude gemini aider"
  ["forge eval --color"]="auto always never"
  ["forge hooks install --hook"]="pre-push"
  ["forge hooks install --color"]="auto always never"
  ["forge hooks list --color"]="auto always never"
  ["forge init --color"]="auto always never"
  ["forge iter get --color"]="auto always never"
  ["forge iter reset --color"]="auto always never"
  ["forge iter update --status"]="passed failed error"
  ["forge iter update --color"]="auto always never"
  ["forge logs --phase"]="planning execution validation review retry memory session tool_call plan_validation"
  ["forge logs --severity"]="info warn error"
  ["forge logs --color"]="auto always never"
  ["forge loop cancel --color"]="auto always never"
  ["forge loop hook --agent"]="claude codex gemini"
  ["forge loop hook --color"]="auto always never"
  ["forge loop install --agent"]="claude codex gemini opencode"
  ["forge loop install --color"]="auto always never"
  ["forge loop pause --color"]="auto always never"
  ["forge loop resume --color"]="auto always never"
  ["forge loop run --color"]="auto always never"
  ["forge loop start --agent"]="claude codex gemini"
  ["forge loop start --color"]="auto always never"
  ["forge loop status --color"]="auto always never"
  ["forge ls --color"]="auto always never"
  ["forge mcp --color"]="auto always never"
  ["forge memory recall --category"]="convention failure_pattern success_pattern test_command architecture dependency tool_usage"
  ["forge memory recall --scope"]="project global all"
  ["forge memory recall --color"]="auto always never"
  ["forge memory save --category"]="convention failure_pattern success_pattern test_command architecture dependency tool_usage"
  ["forge memory save --scope"]="project global"
  ["forge memory save --color"]="auto always never"
  ["forge patch --color"]="auto always never"
  ["forge plan ack --color"]="auto always never"
  ["forge plan activate --color"]="auto always never"
  ["forge plan advance --color"]="auto always never"
  ["forge plan check --color"]="auto always never"
  ["forge plan end --color"]="auto always never"
  ["forge plan install-hook --agent"]="claude codex gemini opencode"
  ["forge plan install-hook --color"]="auto always never"
  ["forge plan journal --verb"]="plan_unit_entered plan_advance plan_completed plan_breach_refused plan_budget_breach plan_breach_acknowledged plan_paused plan_resumed plan_ended"
  ["forge plan journal --filter"]="plans"
  ["forge plan journal --color"]="auto always never"
  ["forge plan new --color"]="auto always never"
  ["forge plan pause --color"]="auto always never"
  ["forge plan preflight --surface"]="artifacts_only local_branch remote_branch_pr"
  ["forge plan preflight --hook"]="claude codex gemini opencode"
  ["forge plan preflight --color"]="auto always never"
  ["forge plan resume --color"]="auto always never"
  ["forge plan status --color"]="auto always never"
  ["forge read --color"]="auto always never"
  ["forge replace --color"]="auto always never"
  ["forge schema --color"]="auto always never"
  ["forge search --color"]="auto always never"
  ["forge session list --color"]="auto always never"
  ["forge session load --color"]="auto always never"
  ["forge session save --color"]="auto always never"
  ["forge state export --color"]="auto always never"
  ["forge state log --color"]="auto always never"
  ["forge state show --color"]="auto always never"
  ["forge state sync --color"]="auto always never"
  ["forge stats --color"]="auto always never"
  ["forge undo --color"]="auto always never"
  ["forge validate --color"]="auto always never"
  ["forge write --color"]="auto always never"
)
_forge_leading="-C --cwd --json --run-id --color --no-color --help --version"
# Files and directories under $1 (the --cwd given as typed, else here) starting with $2; a directory
# ends with / and takes no space after it, and each name is quoted as the shell reads it back.
_forge_files() {
  local dir=${1:-.} word=$2 only=$3 f
  word=${word//\\ / }
  [[ $word == [\"\']* ]] && word=${word:1}
  dir=${dir//\\ / }
  [[ $dir == [\"\']*[\"\'] ]] && dir=${dir:1:-1}
  [[ $dir == "~"* ]] && dir=$HOME${dir:1}
  COMPREPLY=()
  while IFS= read -r f; do
    if [[ -d $f && $f == /* || -d $dir/$f ]]; then f+=/; elif [[ -n $only ]]; then continue; fi
    COMPREPLY+=("$(printf '%q' "$f")")
  done < <(cd -- "$dir" 2>/dev/null && compgen -f -- "$word")
  [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == */ ]] && compopt -o nospace 2>/dev/null
  return 0
}
_forge() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local prog=${COMP_WORDS[0]##*/} path=forge i w dir= found=1
  [[ $prog == forge-* ]] && path="forge ${prog#forge-}"
  # The command path, skipping options (those before the command included); --cwd/-C is kept for files.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    case $w in
      --) break ;;
      -C | --cwd) ((i + 1 < COMP_CWORD)) && dir=${COMP_WORDS[i + 1]}; ((i++)); continue ;;
      -C?*) dir=${w#-C}; continue ;;
      --cwd=*) dir=${w#--cwd=}; continue ;;
      --run-id) ((i++)); continue ;;
      -*) continue ;;
    esac
    if ((found)) && [[ -n ${_forge_subs["$path"]+x} && " ${_forge_subs["$path"]} " == *" $w "* ]]; then
      path="$path $w"
    else
      found=0
    fi
  done
  if [[ $prev == -C || $prev == --cwd ]]; then
    _forge_files "" "$cur" dirs
  elif [[ -n ${_forge_choices["$path $prev"]+x} ]]; then
    mapfile -t COMPREPLY < <(compgen -W "${_forge_choices["$path $prev"]}" -- "$cur")
  elif [[ $cur == -* ]]; then
    if [[ -n ${_forge_opts["$path"]+x} ]]; then w=${_forge_opts["$path"]}; else w=$_forge_leading; fi
    mapfile -t COMPREPLY < <(compgen -W "$w" -- "$cur")
  elif [[ -n ${_forge_subs["$path"]+x} ]]; then
    mapfile -t COMPREPLY < <(compgen -W "${_forge_subs["$path"]}" -- "$cur")
  else
    _forge_files "$dir" "$cur"
  fi
}
complete -F _forge forge forge-agent forge-checkpoint forge-completion forge-diff forge-edit forge-eval forge-hooks forge-init forge-iter forge-logs forge-loop forge-ls forge-mcp forge-memory forge-patch forge-plan forge-read forge-replace forge-schema forge-search forge-session forge-state forge-stats forge-undo forge-validate forge-write
