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

export function bashCompletion(entries: readonly Entry[]): string {
  // Keys are command paths from the program name: "forge", "forge memory", "forge memory save".
  const subs = [`  ["forge"]="${entries.map((e) => e.name).join(' ')}"`];
  for (const e of entries) if (isGroup(e)) subs.push(`  ["forge ${e.name}"]="${e.commands.map((c) => c.name.split(' ')[1]).join(' ')}"`);
  const opts = leaves(entries).map((c) => `  ["forge ${c.name}"]="${allArgs(c).map(([n]) => `--${n}`).join(' ')}"`);
  const choices: string[] = [];
  for (const c of leaves(entries)) for (const [n, s] of allArgs(c)) if (s.choices) choices.push(`  ["forge ${c.name} --${n}"]="${s.choices.join(' ')}"`);
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
_forge() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]}
  local prog=\${COMP_WORDS[0]##*/} path=forge i w
  [[ $prog == forge-* ]] && path="forge \${prog#forge-}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    [[ $w == -* ]] && break
    if [[ -n \${_forge_subs["$path"]+x} && " \${_forge_subs["$path"]} " == *" $w "* ]]; then
      path="$path $w"
    else
      break
    fi
  done
  if [[ -n \${_forge_choices["$path $prev"]+x} ]]; then
    COMPREPLY=($(compgen -W "\${_forge_choices["$path $prev"]}" -- "$cur"))
  elif [[ $cur == -* && -n \${_forge_opts["$path"]+x} ]]; then
    COMPREPLY=($(compgen -W "\${_forge_opts["$path"]}" -- "$cur"))
  elif [[ -n \${_forge_subs["$path"]+x} ]]; then
    COMPREPLY=($(compgen -W "\${_forge_subs["$path"]}" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -F _forge ${programs(entries).join(' ')}
`;
}

export function zshCompletion(entries: readonly Entry[]): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const subs = [`    forge ${q(entries.map((e) => `${e.name}:${e.summary.replace(/:/g, '\\:')}`).join('\n'))}`];
  for (const e of entries) if (isGroup(e)) subs.push(`    ${q(`forge ${e.name}`)} ${q(e.commands.map((c) => `${c.name.split(' ')[1]}:${c.summary.replace(/:/g, '\\:')}`).join('\n'))}`);
  const opts = leaves(entries).map((c) => `    ${q(`forge ${c.name}`)} ${q(allArgs(c).map(([n, s]) => `--${n}${s.choices ? `:(${s.choices.join(' ')})` : ''}`).join('\n'))}`);
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
  local prog=\${words[1]:t} path=forge w i
  [[ $prog == forge-* ]] && path="forge \${prog#forge-}"
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    [[ $w == -* ]] && break
    if (( \${+subs[$path]} )) && [[ $'\\n'\${subs[$path]}$'\\n' == *$'\\n'$w:* ]]; then
      path="$path $w"
    else
      break
    fi
  done
  local prev=\${words[CURRENT-1]} line
  for line in \${(f)opts[$path]}; do
    if [[ $line == $prev:* ]]; then
      local choices=\${\${line#*:\\(}%\\)}
      compadd -- \${=choices}
      return
    fi
  done
  if [[ \${words[CURRENT]} == -* ]] && (( \${+opts[$path]} )); then
    compadd -- \${\${(f)opts[$path]}%%:*}
  elif (( \${+subs[$path]} )); then
    local -a described=(\${(f)subs[$path]})
    _describe command described
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
          lines.push(`complete -c ${prog} -n ${q([...conds, `not __fish_seen_subcommand_from ${names}`].join('; and '))} -a ${sub} -d ${q(c.summary)}`);
          conds.push(`__fish_seen_subcommand_from ${sub}`);
        }
        const cond = conds.length ? ` -n ${q(conds.join('; and '))}` : '';
        for (const [n, s] of allArgs(c)) {
          const value = s.type === 'boolean' ? '' : s.choices ? ` -x -a ${q(s.choices.join(' '))}` : ' -r';
          lines.push(`complete -c ${prog}${cond} -l ${n}${s.alias ? ` -s ${s.alias}` : ''}${value} -d ${q(s.description)}`);
        }
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
