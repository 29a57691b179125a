# bash completion for forge — generated from the command declarations by `make completions`; do not edit
declare -gA _forge_subs=(
  ["forge"]="agent checkpoint diff edit hooks init iter logs loop ls mcp memory patch plan read replace schema search session state stats undo validate write"
  ["forge hooks"]="install list"
  ["forge iter"]="get reset update"
  ["forge loop"]="cancel hook install pause resume run start status"
  ["forge memory"]="recall save"
  ["forge plan"]="ack activate advance check end install-hook journal new pause preflight resume status"
  ["forge session"]="list load save"
  ["forge state"]="export log show sync"
)
declare -gA _forge_opts=(
  ["forge agent"]="--task --endpoint --model --profile --api-key-env --max-turns --quick --stall-seconds --budget --dry-run --continue --session --list --plan --resume --yes --planner-model --mechanical --cwd --run-id --json --help"
  ["forge checkpoint"]="--message --cwd --run-id --json --help"
  ["forge diff"]="--checkpoint --stat --cwd --run-id --json --help"
  ["forge edit"]="--path --old --new --anchor --all --lines --after --before --delete --edits --cwd --run-id --json --help"
  ["forge hooks install"]="--hook --cwd --run-id --json --help"
  ["forge hooks list"]="--profile --cwd --run-id --json --help"
  ["forge init"]="--force --print --agents-md --cwd --run-id --json --help"
  ["forge iter get"]="--module --cwd --run-id --json --help"
  ["forge iter reset"]="--module --all --cwd --run-id --json --help"
  ["forge iter update"]="--module --status --score --issue --root-cause --cwd --run-id --json --help"
  ["forge logs"]="--module --phase --severity --limit --cwd --run-id --json --help"
  ["forge loop cancel"]="--cwd --run-id --json --help"
  ["forge loop hook"]="--agent --payload --cwd --run-id --json --help"
  ["forge loop install"]="--agent --settings --cwd --run-id --json --help"
  ["forge loop pause"]="--reason --cwd --run-id --json --help"
  ["forge loop resume"]="--cwd --run-id --json --help"
  ["forge loop run"]="--prompt-file --prompt --max-iterations --completion-promise --done-when --done-when-timeout --agent --cwd --run-id --json --help"
  ["forge loop start"]="--prompt-file --prompt --max-iterations --completion-promise --done-when --done-when-timeout --session --cwd --run-id --json --help"
  ["forge loop status"]="--cwd --run-id --json --help"
  ["forge ls"]="--glob --limit --cwd --run-id --json --help"
  ["forge mcp"]="--toolsets --tools --cwd --run-id --json --help"
  ["forge memory recall"]="--query --category --scope --limit --cwd --run-id --json --help"
  ["forge memory save"]="--pattern --category --confidence --tag --scope --cwd --run-id --json --help"
  ["forge patch"]="--diff --file --check --reverse --cwd --run-id --json --help"
  ["forge plan ack"]="--plan-id --cwd --run-id --json --help"
  ["forge plan activate"]="--path --replace --cwd --run-id --json --help"
  ["forge plan advance"]="--plan-id --evidence --timeout --cwd --run-id --json --help"
  ["forge plan check"]="--path --strict --cwd --run-id --json --help"
  ["forge plan end"]="--plan-id --reason --cwd --run-id --json --help"
  ["forge plan install-hook"]="--agent --settings --cwd --run-id --json --help"
  ["forge plan journal"]="--plan-id --verb --filter --limit --cwd --run-id --json --help"
  ["forge plan new"]="--slug --date --cwd --run-id --json --help"
  ["forge plan pause"]="--plan-id --reason --cwd --run-id --json --help"
  ["forge plan preflight"]="--tool --path --tokens --command --surface --writes --hook --payload --cwd --run-id --json --help"
  ["forge plan resume"]="--plan-id --cwd --run-id --json --help"
  ["forge plan status"]="--cwd --run-id --json --help"
  ["forge read"]="--path --start --end --blame --symbols --cwd --run-id --json --help"
  ["forge replace"]="--old --new --paths --glob --regex --ignore-case --check --cwd --run-id --json --help"
  ["forge schema"]="--command --cwd --run-id --json --help"
  ["forge search"]="--pattern --paths --glob --ignore-case --literal --limit --cwd --run-id --json --help"
  ["forge session list"]="--cwd --run-id --json --help"
  ["forge session load"]="--cwd --run-id --json --help"
  ["forge session save"]="--phase --module-status --completed --total --state --cwd --run-id --json --help"
  ["forge state export"]="--dir --cwd --run-id --json --help"
  ["forge state log"]="--limit --cwd --run-id --json --help"
  ["forge state show"]="--path --cwd --run-id --json --help"
  ["forge state sync"]="--remote --dry-run --cwd --run-id --json --help"
  ["forge stats"]="--cwd --run-id --json --help"
  ["forge undo"]="--checkpoint --list --redo --yes --cwd --run-id --json --help"
  ["forge validate"]="--module --cmd --file --contract --plan --timeout --max-attempts --cwd --run-id --json --help"
  ["forge write"]="--path --content --overwrite --cwd --run-id --json --help"
)
declare -gA _forge_choices=(
  ["forge hooks install --hook"]="pre-push"
  ["forge iter update --status"]="passed failed error"
  ["forge logs --phase"]="planning execution validation review retry memory session tool_call plan_validation"
  ["forge logs --severity"]="info warn error"
  ["forge loop hook --agent"]="claude codex gemini"
  ["forge loop install --agent"]="claude codex gemini opencode"
  ["forge memory recall --category"]="convention failure_pattern success_pattern test_command architecture dependency tool_usage"
  ["forge memory recall --scope"]="project global all"
  ["forge memory save --category"]="convention failure_pattern success_pattern test_command architecture dependency tool_usage"
  ["forge memory save --scope"]="project global"
  ["forge plan install-hook --agent"]="claude codex gemini opencode"
  ["forge plan journal --verb"]="plan_unit_entered plan_advance plan_completed plan_breach_refused plan_budget_breach plan_breach_acknowledged plan_paused plan_resumed plan_ended"
  ["forge plan journal --filter"]="plans"
  ["forge plan preflight --surface"]="artifacts_only local_branch remote_branch_pr"
  ["forge plan preflight --hook"]="claude codex gemini opencode"
)
_forge() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local prog=${COMP_WORDS[0]##*/} path=forge i w
  [[ $prog == forge-* ]] && path="forge ${prog#forge-}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    [[ $w == -* ]] && break
    if [[ -n ${_forge_subs["$path"]+x} && " ${_forge_subs["$path"]} " == *" $w "* ]]; then
      path="$path $w"
    else
      break
    fi
  done
  if [[ -n ${_forge_choices["$path $prev"]+x} ]]; then
    COMPREPLY=($(compgen -W "${_forge_choices["$path $prev"]}" -- "$cur"))
  elif [[ $cur == -* && -n ${_forge_opts["$path"]+x} ]]; then
    COMPREPLY=($(compgen -W "${_forge_opts["$path"]}" -- "$cur"))
  elif [[ -n ${_forge_subs["$path"]+x} ]]; then
    COMPREPLY=($(compgen -W "${_forge_subs["$path"]}" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -F _forge forge forge-agent forge-checkpoint forge-diff forge-edit forge-hooks forge-init forge-iter forge-logs forge-loop forge-ls forge-mcp forge-memory forge-patch forge-plan forge-read forge-replace forge-schema forge-search forge-session forge-state forge-stats forge-undo forge-validate forge-write
