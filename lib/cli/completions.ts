// Renders bash, zsh and fish completion scripts from the declarations (commands, subcommands, options, choices).
import { COMMON_ARGS, isGroup, type ArgSpec, type ArgsSpec, type CommandSpec, type Entry } from './declare';
import { leaves } from './registry';

const HEADER = 'generated from the command declarations by `make completions`; do not edit';

function allArgs(c: CommandSpec<any>): Array<[string, ArgSpec]> {
  return [...Object.entries(c.args as ArgsSpec), ...Object.entries(COMMON_ARGS as ArgsSpec)];
}

/** Program names completion is registered for: forge and every forge-<cmd>. */
export function programs(entries: readonly Entry[]): string[] {
  return ['forge', ...entries.map((e) => `forge-${e.name}`)];
}

/** What `forge --⇥` offers: the common options typed before a command. */
const LEADING_WORDS = ['-C', '--cwd', '--json', '--run-id', '--color', '--no-color', '--help', '--version'];

export function bashCompletion(entries: readonly Entry[]): string {
  // Keys are command paths from the program name: "forge", "forge memory", "forge memory save".
  const subs = [`  ["forge"]="${entries.map((e) => e.name).join(' ')}"`];
  for (const e of entries) if (isGroup(e)) subs.push(`  ["forge ${e.name}"]="${e.commands.map((c) => c.name.split(' ')[1]).join(' ')}"`);
  const opts = leaves(entries).map(
    (c) =>
      `  ["forge ${c.name}"]="${allArgs(c)
        .map(([n]) => `--${n}`)
        .join(' ')}"`,
  );
  const choices: string[] = [];
  for (const c of leaves(entries))
    for (const [n, s] of allArgs(c)) if (s.choices) choices.push(`  ["forge ${c.name} --${n}"]="${s.choices.join(' ')}"`);
  return `# bash completion for forge — ${HEADER}
declare -gA _forge_subs=(
${subs.join('\n')}
)
declare -gA _forge_opts=(
${opts.join('\n')}
)
declare -gA _forge_choices=(
${choices.join('\n')}
)
_forge_leading="${LEADING_WORDS.join(' ')}"
# Files and directories under $1 (the --cwd given as typed, else here) starting with $2; a directory
# ends with / and takes no space after it, and each name is quoted as the shell reads it back.
_forge_files() {
  local dir=\${1:-.} word=$2 only=$3 f
  word=\${word//\\\\ / }
  [[ $word == [\\"\\']* ]] && word=\${word:1}
  dir=\${dir//\\\\ / }
  [[ $dir == [\\"\\']*[\\"\\'] ]] && dir=\${dir:1:-1}
  [[ $dir == "~"* ]] && dir=$HOME\${dir:1}
  COMPREPLY=()
  while IFS= read -r f; do
    if [[ -d $f && $f == /* || -d $dir/$f ]]; then f+=/; elif [[ -n $only ]]; then continue; fi
    COMPREPLY+=("$(printf '%q' "$f")")
  done < <(cd -- "$dir" 2>/dev/null && compgen -f -- "$word")
  [[ \${#COMPREPLY[@]} == 1 && \${COMPREPLY[0]} == */ ]] && compopt -o nospace 2>/dev/null
  return 0
}
_forge() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]}
  local prog=\${COMP_WORDS[0]##*/} path=forge i w dir= found=1
  [[ $prog == forge-* ]] && path="forge \${prog#forge-}"
  # The command path, skipping options (those before the command included); --cwd/-C is kept for files.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    case $w in
      --) break ;;
      -C | --cwd) ((i + 1 < COMP_CWORD)) && dir=\${COMP_WORDS[i + 1]}; ((i++)); continue ;;
      -C?*) dir=\${w#-C}; continue ;;
      --cwd=*) dir=\${w#--cwd=}; continue ;;
      --run-id) ((i++)); continue ;;
      -*) continue ;;
    esac
    if ((found)) && [[ -n \${_forge_subs["$path"]+x} && " \${_forge_subs["$path"]} " == *" $w "* ]]; then
      path="$path $w"
    else
      found=0
    fi
  done
  if [[ $prev == -C || $prev == --cwd ]]; then
    _forge_files "" "$cur" dirs
  elif [[ -n \${_forge_choices["$path $prev"]+x} ]]; then
    mapfile -t COMPREPLY < <(compgen -W "\${_forge_choices["$path $prev"]}" -- "$cur")
  elif [[ $cur == -* ]]; then
    if [[ -n \${_forge_opts["$path"]+x} ]]; then w=\${_forge_opts["$path"]}; else w=$_forge_leading; fi
    mapfile -t COMPREPLY < <(compgen -W "$w" -- "$cur")
  elif [[ -n \${_forge_subs["$path"]+x} ]]; then
    mapfile -t COMPREPLY < <(compgen -W "\${_forge_subs["$path"]}" -- "$cur")
  else
    _forge_files "$dir" "$cur"
  fi
}
complete -F _forge ${programs(entries).join(' ')}
`;
}

/** The zsh script's two tables as assignment lines: each command path's subcommands (name:summary) and each command's options (--name, or --name:(choices)). */
function zshTables(entries: readonly Entry[]): { subs: string[]; opts: string[] } {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const subs = [`    forge ${q(entries.map((e) => `${e.name}:${e.summary.replace(/:/g, '\\:')}`).join('\n'))}`];
  for (const e of entries)
    if (isGroup(e))
      subs.push(
        `    ${q(`forge ${e.name}`)} ${q(e.commands.map((c) => `${c.name.split(' ')[1]}:${c.summary.replace(/:/g, '\\:')}`).join('\n'))}`,
      );
  const opts = leaves(entries).map(
    (c) =>
      `    ${q(`forge ${c.name}`)} ${q(
        allArgs(c)
          .map(([n, s]) => `--${n}${s.choices ? `:(${s.choices.join(' ')})` : ''}`)
          .join('\n'),
      )}`,
  );
  return { subs, opts };
}

export function zshCompletion(entries: readonly Entry[]): string {
  const { subs, opts } = zshTables(entries);
  return `#compdef ${programs(entries).join(' ')}
# zsh completion for forge — ${HEADER}
_forge() {
  local -A subs opts
  subs=(
${subs.join('\n')}
  )
  opts=(
${opts.join('\n')}
  )
  local prog=\${words[1]:t} path=forge w i dir= found=1
  [[ $prog == forge-* ]] && path="forge \${prog#forge-}"
  # The command path, skipping options (those before the command included); --cwd/-C is kept for files.
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    case $w in
      --) break ;;
      -C | --cwd) (( i + 1 < CURRENT )) && dir=\${words[i+1]}; (( i++ )); continue ;;
      -C?*) dir=\${w#-C}; continue ;;
      --cwd=*) dir=\${w#--cwd=}; continue ;;
      --run-id) (( i++ )); continue ;;
      -*) continue ;;
    esac
    if (( found && \${+subs[$path]} )) && [[ $'\\n'\${subs[$path]}$'\\n' == *$'\\n'"$w":* ]]; then
      path="$path $w"
    else
      found=0
    fi
  done
  # The directory as the shell will read it: quotes and backslashes off, ~ expanded, made absolute
  # (_files -W takes a relative one from /, not from here).
  if [[ -n $dir ]]; then
    dir=\${(Q)dir}
    dir=\${~dir}
    dir=\${dir:a}
  fi
  local prev=\${words[CURRENT-1]} cur=\${words[CURRENT]} line option
  # --name=value: the value completes as it would after --name.
  if [[ $cur == --?*=* ]]; then
    option=\${cur%%=*}
    compset -P '*='
  else
    option=$prev
  fi
  if [[ $option == -C || $option == --cwd ]]; then
    _files -/
    return
  fi
  for line in \${(f)opts[$path]}; do
    if [[ $line == "$option":* ]]; then
      local choices=\${\${line#*:\\(}%\\)}
      compadd -- \${=choices}
      return
    fi
  done
  if [[ $cur == -* ]]; then
    if (( \${+opts[$path]} )); then compadd -- \${\${(f)opts[$path]}%%:*}; else compadd -- ${LEADING_WORDS.join(' ')}; fi
  elif (( \${+subs[$path]} )); then
    local -a described=(\${(f)subs[$path]})
    _describe command described
  elif [[ -n $dir ]]; then
    _files -W "$dir"
  else
    _files
  fi
}
_forge "$@"
`;
}

export function fishCompletion(entries: readonly Entry[]): string {
  const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const lines = [`# fish completion for forge — ${HEADER}`];
  for (const prog of programs(entries)) {
    const own = prog === 'forge' ? null : prog.slice('forge-'.length);
    const scoped = own ? entries.filter((e) => e.name === own) : entries;
    lines.push(`complete -c ${prog} -f`);
    if (!own) {
      lines.push(
        `complete -c ${prog} -n '__fish_use_subcommand' -s C -l cwd -xa '(__fish_complete_directories)' -d ${q(COMMON_ARGS.cwd.description)}`,
      );
      for (const [n, s] of Object.entries(COMMON_ARGS as ArgsSpec)) {
        if (n === 'cwd') continue;
        const value = s.type === 'boolean' ? '' : s.choices ? ` -x -a ${q(s.choices.join(' '))}` : ' -x';
        lines.push(
          `complete -c ${prog} -n '__fish_use_subcommand' -l ${n}${s.alias ? ` -s ${s.alias}` : ''}${value} -d ${q(s.description)}`,
        );
      }
      lines.push(`complete -c ${prog} -n '__fish_use_subcommand' -l version -d 'Print the version.'`);
    }
    for (const e of scoped) {
      const top = own ? '' : e.name;
      if (!own) lines.push(`complete -c ${prog} -n '__fish_use_subcommand' -a ${e.name} -d ${q(e.summary)}`);
      const cmds: CommandSpec<any>[] = isGroup(e) ? e.commands : [e];
      const subNames = isGroup(e) ? e.commands.map((c) => c.name.split(' ')[1]!) : [];
      for (const c of cmds) {
        const sub = isGroup(e) ? c.name.split(' ')[1]! : '';
        const conds: string[] = [];
        if (top) conds.push(`__fish_seen_subcommand_from ${top}`);
        if (sub) {
          const names = subNames.join(' ');
          lines.push(
            `complete -c ${prog} -n ${q([...conds, `not __fish_seen_subcommand_from ${names}`].join('; and '))} -a ${sub} -d ${q(c.summary)}`,
          );
          conds.push(`__fish_seen_subcommand_from ${sub}`);
        }
        const cond = conds.length ? ` -n ${q(conds.join('; and '))}` : '';
        for (const [n, s] of allArgs(c)) {
          const value =
            s.type === 'boolean'
              ? ''
              : s.choices
                ? ` -x -a ${q(s.choices.join(' '))}`
                : n === 'cwd'
                  ? ` -xa '(__fish_complete_directories)'`
                  : ' -r';
          lines.push(`complete -c ${prog}${cond} -l ${n}${s.alias ? ` -s ${s.alias}` : ''}${value} -d ${q(s.description)}`);
        }
        // A command that takes words (a path, a pattern, a task) gets file names offered for them.
        const positional = Object.values(c.args as ArgsSpec).find((a) => a.positional);
        if (positional?.choices) lines.push(`complete -c ${prog}${cond} -x -a ${q(positional.choices.join(' '))}`);
        else if (positional) lines.push(`complete -c ${prog}${cond} -F`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
