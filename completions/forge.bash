# bash completion for forge — generated from the command declarations by `make completions`; do not edit
# Each command path's subcommands; each command's options.
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
  ["forge eval"]="--task --agent --runs --parallel --endpoint --model --profile --suite --list --compare --keep --report --cwd --run-id --json --color --help"
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
# The options that take the next word as their value ("forge": those before a command); an option's
# choices; a positional's choices by its place (0 the first), and the place of one that takes every word after it.
declare -gA _forge_takes=(
  ["forge"]="--cwd -C --run-id"
  ["forge agent"]="--task --endpoint --model --profile --api-key-env --max-turns --stall-seconds --budget --session --rollback --planner-model --parallel --attach --detach --image --cwd -C --run-id"
  ["forge checkpoint"]="--message --cwd -C --run-id"
  ["forge completion"]="--shell --cwd -C --run-id"
  ["forge diff"]="--checkpoint --cwd -C --run-id"
  ["forge edit"]="--path --old --new --anchor --lines --after --before --edits --cwd -C --run-id"
  ["forge eval"]="--task --agent --runs --parallel --endpoint --model --profile --suite --report --cwd -C --run-id"
  ["forge hooks install"]="--hook --cwd -C --run-id"
  ["forge hooks list"]="--profile --cwd -C --run-id"
  ["forge init"]="--cwd -C --run-id"
  ["forge iter get"]="--module --cwd -C --run-id"
  ["forge iter reset"]="--module --cwd -C --run-id"
  ["forge iter update"]="--module --status --score --issue --root-cause --cwd -C --run-id"
  ["forge logs"]="--module --phase --severity --limit --cwd -C --run-id"
  ["forge loop cancel"]="--cwd -C --run-id"
  ["forge loop hook"]="--agent --payload --cwd -C --run-id"
  ["forge loop install"]="--agent --settings --cwd -C --run-id"
  ["forge loop pause"]="--reason --cwd -C --run-id"
  ["forge loop resume"]="--cwd -C --run-id"
  ["forge loop run"]="--prompt-file --prompt --max-iterations --completion-promise --done-when --done-when-timeout --agent --cwd -C --run-id"
  ["forge loop start"]="--prompt-file --prompt --max-iterations --completion-promise --done-when --done-when-timeout --agent --session --cwd -C --run-id"
  ["forge loop status"]="--cwd -C --run-id"
  ["forge ls"]="--glob --limit --cwd -C --run-id"
  ["forge mcp"]="--toolsets --tools --cwd -C --run-id"
  ["forge memory recall"]="--query --category --scope --limit --cwd -C --run-id"
  ["forge memory save"]="--pattern --category --confidence --tag --scope --cwd -C --run-id"
  ["forge patch"]="--diff --file --cwd -C --run-id"
  ["forge plan ack"]="--plan-id --cwd -C --run-id"
  ["forge plan activate"]="--path --cwd -C --run-id"
  ["forge plan advance"]="--plan-id --evidence --timeout --cwd -C --run-id"
  ["forge plan check"]="--path --cwd -C --run-id"
  ["forge plan end"]="--plan-id --reason --cwd -C --run-id"
  ["forge plan install-hook"]="--agent --settings --cwd -C --run-id"
  ["forge plan journal"]="--plan-id --verb --filter --limit --cwd -C --run-id"
  ["forge plan new"]="--slug --date --cwd -C --run-id"
  ["forge plan pause"]="--plan-id --reason --cwd -C --run-id"
  ["forge plan preflight"]="--tool --path --tokens --command --surface --hook --payload --cwd -C --run-id"
  ["forge plan resume"]="--plan-id --cwd -C --run-id"
  ["forge plan status"]="--cwd -C --run-id"
  ["forge read"]="--path --start --end --cwd -C --run-id"
  ["forge replace"]="--old --new --paths --glob --cwd -C --run-id"
  ["forge schema"]="--command --cwd -C --run-id"
  ["forge search"]="--pattern --paths --glob --limit --cwd -C --run-id"
  ["forge session list"]="--cwd -C --run-id"
  ["forge session load"]="--cwd -C --run-id"
  ["forge session save"]="--phase --module-status --completed --total --state --cwd -C --run-id"
  ["forge state export"]="--dir --cwd -C --run-id"
  ["forge state log"]="--limit --cwd -C --run-id"
  ["forge state show"]="--path --cwd -C --run-id"
  ["forge state sync"]="--remote --cwd -C --run-id"
  ["forge stats"]="--cwd -C --run-id"
  ["forge undo"]="--checkpoint --cwd -C --run-id"
  ["forge validate"]="--module --cmd --file --contract --plan --timeout --max-attempts --cwd -C --run-id"
  ["forge write"]="--path --content --cwd -C --run-id"
)
declare -gA _forge_choices=(
  ["forge --color"]="auto always never"
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
declare -gA _forge_pos=(
  ["forge completion 0"]="bash zsh fish"
  ["forge hooks install 0"]="pre-push"
  ["forge loop hook 0"]="claude codex gemini"
  ["forge loop install 0"]="claude codex gemini opencode"
  ["forge plan install-hook 0"]="claude codex gemini opencode"
  ["forge schema 0"]="agent checkpoint completion diff edit eval hooks_install hooks_list init iter_get iter_reset iter_update logs loop_cancel loop_hook loop_install loop_pause loop_resume loop_run loop_start loop_status ls mcp memory_recall memory_save patch plan_ack plan_activate plan_advance plan_check plan_end plan_install-hook plan_journal plan_new plan_pause plan_preflight plan_resume plan_status read replace schema search session_list session_load session_save state_export state_log state_show state_sync stats undo validate write"
)
declare -gA _forge_rest=(
  ["forge schema"]="0"
)
_forge_leading="-C --cwd --json --run-id --color --no-color --help --version"
# Files and directories under $1 (the --cwd given as typed, else here) starting with $2; a directory
# ends with / and takes no space after it, and each name is quoted as the shell reads it back.
# Never git's own files (.git in any case, and what is in it): every file tool refuses them.
_forge_files() {
  local dir=${1:-.} word=$2 only=$3 f low
  word=${word//\\ / }
  [[ $word == [\"\']* ]] && word=${word:1}
  dir=${dir//\\ / }
  [[ $dir == [\"\']*[\"\'] ]] && dir=${dir:1:-1}
  [[ $dir == "~"* ]] && dir=$HOME${dir:1}
  COMPREPLY=()
  while IFS= read -r f; do
    low=${f,,}
    [[ $low == .git || $low == .git/* || $low == */.git || $low == */.git/* ]] && continue
    if [[ -d $f && $f == /* || -d $dir/$f ]]; then f+=/; elif [[ -n $only ]]; then continue; fi
    COMPREPLY+=("$(printf '%q' "$f")")
  done < <(cd -- "$dir" 2>/dev/null && compgen -f -- "$word")
  [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == */ ]] && compopt -o nospace 2>/dev/null
  return 0
}
# The words as forge reads them, into _forge_words and _forge_cword: bash splits --name=value at the =
# (it is in COMP_WORDBREAKS), so --name, = and value are joined again. _forge_split says the word
# completed was one of those, so that only what follows its = is replaced.
_forge_join() {
  local i start w n=${#COMP_WORDS[@]}
  _forge_words=() _forge_cword=0 _forge_split=0
  for ((i = 0; i < n; i++)); do
    start=$i w=${COMP_WORDS[i]}
    if [[ $w == = && ${#_forge_words[@]} -gt 1 && ${_forge_words[-1]} == --?* && ${_forge_words[-1]} != *=* ]]; then
      ((i + 1 < n && COMP_CWORD != start)) && w+=${COMP_WORDS[++i]}
      _forge_words[-1]+=$w
      ((COMP_CWORD >= start && COMP_CWORD <= i)) && _forge_split=1
    else
      _forge_words+=("$w")
    fi
    ((COMP_CWORD >= start && COMP_CWORD <= i)) && _forge_cword=$((${#_forge_words[@]} - 1))
  done
}
_forge() {
  local prog=${COMP_WORDS[0]##*/} path=forge i w key dir= npos=0 dashes=0 value= prefix=
  local -a _forge_words
  local _forge_cword _forge_split
  [[ $prog == forge-* ]] && path="forge ${prog#forge-}"
  _forge_join
  local cur=${_forge_words[_forge_cword]}
  # The command path, then its positionals, counted as forge counts them: options are skipped, those
  # before the command too, with the word each takes; -C/--cwd is kept for file names.
  for ((i = 1; i < _forge_cword; i++)); do
    w=${_forge_words[i]}
    if ((dashes)); then ((npos++)); continue; fi
    case $w in
      --) dashes=1; continue ;;
      -C?*) dir=${w#-C}; continue ;;
      --cwd=*) dir=${w#--cwd=}; continue ;;
      -*)
        key=$path; [[ -n ${_forge_takes["$path"]+x} ]] || key=forge
        if [[ " ${_forge_takes["$key"]} " == *" $w "* ]]; then
          if ((i + 1 == _forge_cword)); then value=$w; elif [[ $w == -C || $w == --cwd ]]; then dir=${_forge_words[i + 1]}; fi
          ((i++))
        fi
        continue ;;
    esac
    if ((npos == 0)) && [[ -n ${_forge_subs["$path"]+x} && " ${_forge_subs["$path"]} " == *" $w "* ]]; then
      path="$path $w"
    else
      ((npos++))
    fi
  done
  key=$path; [[ -n ${_forge_takes["$path"]+x} ]] || key=forge
  # --name=value: the value completes as it would after --name (--color's only this way: a bare --color is always).
  if [[ -z $value && $dashes == 0 && $cur == --?*=* ]]; then
    value=${cur%%=*} prefix=${cur%%=*}= cur=${cur#*=}
    [[ -n ${_forge_choices["$key $value"]+x} || " ${_forge_takes["$key"]} " == *" $value "* ]] || return 0
  fi
  if [[ -n $value ]]; then
    if [[ $value == -C || $value == --cwd ]]; then
      _forge_files "" "$cur" dirs
    elif [[ -n ${_forge_choices["$key $value"]+x} ]]; then
      mapfile -t COMPREPLY < <(compgen -W "${_forge_choices["$key $value"]}" -- "$cur")
    else
      _forge_files "$dir" "$cur"
    fi
    # Where the = did not split the word, the whole word is replaced: --name= goes back in front.
    ((_forge_split)) || [[ -z $prefix ]] || COMPREPLY=("${COMPREPLY[@]/#/$prefix}")
  elif [[ $cur == -* && $dashes == 0 ]]; then
    if [[ -n ${_forge_opts["$path"]+x} ]]; then w=${_forge_opts["$path"]}; else w=$_forge_leading; fi
    mapfile -t COMPREPLY < <(compgen -W "$w" -- "$cur")
  elif ((npos == 0 && dashes == 0)) && [[ -n ${_forge_subs["$path"]+x} ]]; then
    mapfile -t COMPREPLY < <(compgen -W "${_forge_subs["$path"]}" -- "$cur")
  else
    # A positional: its declared choices, else file names.
    key="$path $npos"
    [[ -z ${_forge_pos["$key"]+x} && -n ${_forge_rest["$path"]+x} ]] && ((npos > ${_forge_rest["$path"]})) && key="$path ${_forge_rest["$path"]}"
    if [[ -n ${_forge_pos["$key"]+x} ]]; then
      mapfile -t COMPREPLY < <(compgen -W "${_forge_pos["$key"]}" -- "$cur")
    else
      _forge_files "$dir" "$cur"
    fi
  fi
}
complete -F _forge forge forge-agent forge-checkpoint forge-completion forge-diff forge-edit forge-eval forge-hooks forge-init forge-iter forge-logs forge-loop forge-ls forge-mcp forge-memory forge-patch forge-plan forge-read forge-replace forge-schema forge-search forge-session forge-state forge-stats forge-undo forge-validate forge-write
