// Renders bash, zsh and fish completion scripts from the declarations (commands, subcommands, options, choices).
import { COMMON_ARGS, isGroup, takesNextWord, type ArgSpec, type ArgsSpec, type CommandSpec, type Entry } from './declare';
import { leaves } from './registry';
import { positionals } from './usage';

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

/** What the completions know of one command path ("forge" for the words before a command): read the way its parser reads argv. */
export interface Completable {
  path: string;
  /** The words of the options that take the next word as their value (--name, and -x for a one-letter alias): a value is not a positional. */
  takes: string[];
  /** Each option's declared choices, by its --name: offered after it, or after --name=. */
  choices: Array<[string, readonly string[]]>;
  /** Each positional's declared choices, by its place (0 the first); a place without choices completes file names. */
  positional: Array<[number, readonly string[]]>;
  /** The place of a positional with choices that takes every word from there on (an array, or rest). */
  rest?: number;
}

function completable(path: string, args: Array<[string, ArgSpec]>, commandNames: readonly string[] = []): Completable {
  const takes = args
    .filter(([n, s]) => takesNextWord(n, s))
    .flatMap(([n, s]) => [`--${n}`, ...(s.alias ? [s.alias.length === 1 ? `-${s.alias}` : `--${s.alias}`] : [])]);
  const choices = args.filter(([, s]) => s.choices).map(([n, s]): [string, readonly string[]] => [`--${n}`, s.choices!]);
  const positional: Array<[number, readonly string[]]> = [];
  let rest: number | undefined;
  positionals(Object.fromEntries(args)).forEach(([, s], i) => {
    const words = s.completesCommands ? commandNames : s.choices;
    if (!words) return;
    positional.push([i, words]);
    if (s.type === 'array' || s.rest) rest = i;
  });
  return { path, takes, choices, positional, ...(rest === undefined ? {} : { rest }) };
}

/** The words before a command (its common options), then every command. */
export function completables(entries: readonly Entry[]): Completable[] {
  return [
    completable('forge', Object.entries(COMMON_ARGS as ArgsSpec)),
    ...leaves(entries).map((c) =>
      completable(
        `forge ${c.name}`,
        allArgs(c),
        leaves(entries).map((l) => l.name.replace(/ /g, '_')),
      ),
    ),
  ];
}

/** A bash associative array's lines: ["key"]="words". */
const bashRows = (rows: Array<[string, string]>) => rows.map(([k, v]) => `  ["${k}"]="${v}"`).join('\n');

export function bashCompletion(entries: readonly Entry[]): string {
  // Keys are command paths from the program name: "forge", "forge memory", "forge memory save".
  const subs: Array<[string, string]> = [['forge', entries.map((e) => e.name).join(' ')]];
  for (const e of entries) if (isGroup(e)) subs.push([`forge ${e.name}`, e.commands.map((c) => c.name.split(' ')[1]).join(' ')]);
  const opts = leaves(entries).map((c): [string, string] => [
    `forge ${c.name}`,
    allArgs(c)
      .map(([n]) => `--${n}`)
      .join(' '),
  ]);
  const all = completables(entries);
  const takes = all.map((t): [string, string] => [t.path, t.takes.join(' ')]);
  const choices = all.flatMap((t) => t.choices.map(([o, c]): [string, string] => [`${t.path} ${o}`, c.join(' ')]));
  const pos = all.flatMap((t) => t.positional.map(([i, c]): [string, string] => [`${t.path} ${i}`, c.join(' ')]));
  const rest = all.flatMap((t): Array<[string, string]> => (t.rest === undefined ? [] : [[t.path, String(t.rest)]]));
  return `# bash completion for forge — ${HEADER}
# Each command path's subcommands; each command's options.
declare -gA _forge_subs=(
${bashRows(subs)}
)
declare -gA _forge_opts=(
${bashRows(opts)}
)
# The options that take the next word as their value ("forge": those before a command); an option's
# choices; a positional's choices by its place (0 the first), and the place of one that takes every word after it.
declare -gA _forge_takes=(
${bashRows(takes)}
)
declare -gA _forge_choices=(
${bashRows(choices)}
)
declare -gA _forge_pos=(
${bashRows(pos)}
)
declare -gA _forge_rest=(
${bashRows(rest)}
)
_forge_leading="${LEADING_WORDS.join(' ')}"
# Files and directories under $1 (the --cwd given as typed, else here) starting with $2; a directory
# ends with / and takes no space after it, and each name is quoted as the shell reads it back.
# Never git's own files (.git in any case, and what is in it): every file tool refuses them.
_forge_files() {
  local dir=\${1:-.} word=$2 only=$3 f low
  word=\${word//\\\\ / }
  [[ $word == [\\"\\']* ]] && word=\${word:1}
  dir=\${dir//\\\\ / }
  [[ $dir == [\\"\\']*[\\"\\'] ]] && dir=\${dir:1:-1}
  [[ $dir == "~"* ]] && dir=$HOME\${dir:1}
  COMPREPLY=()
  while IFS= read -r f; do
    low=\${f,,}
    [[ $low == .git || $low == .git/* || $low == */.git || $low == */.git/* ]] && continue
    if [[ -d $f && $f == /* || -d $dir/$f ]]; then f+=/; elif [[ -n $only ]]; then continue; fi
    COMPREPLY+=("$(printf '%q' "$f")")
  done < <(cd -- "$dir" 2>/dev/null && compgen -f -- "$word")
  [[ \${#COMPREPLY[@]} == 1 && \${COMPREPLY[0]} == */ ]] && compopt -o nospace 2>/dev/null
  return 0
}
# The words as forge reads them, into _forge_words and _forge_cword: bash splits --name=value at the =
# (it is in COMP_WORDBREAKS), so --name, = and value are joined again. _forge_split says the word
# completed was one of those, so that only what follows its = is replaced.
_forge_join() {
  local i start w n=\${#COMP_WORDS[@]}
  _forge_words=() _forge_cword=0 _forge_split=0
  for ((i = 0; i < n; i++)); do
    start=$i w=\${COMP_WORDS[i]}
    if [[ $w == = && \${#_forge_words[@]} -gt 1 && \${_forge_words[-1]} == --?* && \${_forge_words[-1]} != *=* ]]; then
      ((i + 1 < n && COMP_CWORD != start)) && w+=\${COMP_WORDS[++i]}
      _forge_words[-1]+=$w
      ((COMP_CWORD >= start && COMP_CWORD <= i)) && _forge_split=1
    else
      _forge_words+=("$w")
    fi
    ((COMP_CWORD >= start && COMP_CWORD <= i)) && _forge_cword=$((\${#_forge_words[@]} - 1))
  done
}
_forge() {
  local prog=\${COMP_WORDS[0]##*/} path=forge i w key dir= npos=0 dashes=0 value= prefix=
  local -a _forge_words
  local _forge_cword _forge_split
  [[ $prog == forge-* ]] && path="forge \${prog#forge-}"
  _forge_join
  local cur=\${_forge_words[_forge_cword]}
  # The command path, then its positionals, counted as forge counts them: options are skipped, those
  # before the command too, with the word each takes; -C/--cwd is kept for file names.
  for ((i = 1; i < _forge_cword; i++)); do
    w=\${_forge_words[i]}
    if ((dashes)); then ((npos++)); continue; fi
    case $w in
      --) dashes=1; continue ;;
      -C?*) dir=\${w#-C}; continue ;;
      --cwd=*) dir=\${w#--cwd=}; continue ;;
      -*)
        key=$path; [[ -n \${_forge_takes["$path"]+x} ]] || key=forge
        if [[ " \${_forge_takes["$key"]} " == *" $w "* ]]; then
          if ((i + 1 == _forge_cword)); then value=$w; elif [[ $w == -C || $w == --cwd ]]; then dir=\${_forge_words[i + 1]}; fi
          ((i++))
        fi
        continue ;;
    esac
    if ((npos == 0)) && [[ -n \${_forge_subs["$path"]+x} && " \${_forge_subs["$path"]} " == *" $w "* ]]; then
      path="$path $w"
    else
      ((npos++))
    fi
  done
  key=$path; [[ -n \${_forge_takes["$path"]+x} ]] || key=forge
  # --name=value: the value completes as it would after --name (--color's only this way: a bare --color is always).
  if [[ -z $value && $dashes == 0 && $cur == --?*=* ]]; then
    value=\${cur%%=*} prefix=\${cur%%=*}= cur=\${cur#*=}
    [[ -n \${_forge_choices["$key $value"]+x} || " \${_forge_takes["$key"]} " == *" $value "* ]] || return 0
  fi
  if [[ -n $value ]]; then
    if [[ $value == -C || $value == --cwd ]]; then
      _forge_files "" "$cur" dirs
    elif [[ -n \${_forge_choices["$key $value"]+x} ]]; then
      mapfile -t COMPREPLY < <(compgen -W "\${_forge_choices["$key $value"]}" -- "$cur")
    else
      _forge_files "$dir" "$cur"
    fi
    # Where the = did not split the word, the whole word is replaced: --name= goes back in front.
    ((_forge_split)) || [[ -z $prefix ]] || COMPREPLY=("\${COMPREPLY[@]/#/$prefix}")
  elif [[ $cur == -* && $dashes == 0 ]]; then
    if [[ -n \${_forge_opts["$path"]+x} ]]; then w=\${_forge_opts["$path"]}; else w=$_forge_leading; fi
    mapfile -t COMPREPLY < <(compgen -W "$w" -- "$cur")
  elif ((npos == 0 && dashes == 0)) && [[ -n \${_forge_subs["$path"]+x} ]]; then
    mapfile -t COMPREPLY < <(compgen -W "\${_forge_subs["$path"]}" -- "$cur")
  else
    # A positional: its declared choices, else file names.
    key="$path $npos"
    [[ -z \${_forge_pos["$key"]+x} && -n \${_forge_rest["$path"]+x} ]] && ((npos > \${_forge_rest["$path"]})) && key="$path \${_forge_rest["$path"]}"
    if [[ -n \${_forge_pos["$key"]+x} ]]; then
      mapfile -t COMPREPLY < <(compgen -W "\${_forge_pos["$key"]}" -- "$cur")
    else
      _forge_files "$dir" "$cur"
    fi
  fi
}
complete -F _forge ${programs(entries).join(' ')}
`;
}

/** A zsh associative array's lines: 'key' 'value', each single-quoted. */
function zshRows(rows: Array<[string, string]>): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return rows.map(([k, v]) => `    ${q(k)} ${q(v)}`).join('\n');
}

/** The zsh script's tables: each command path's subcommands (name:summary, for _describe) and each command's options, a line each. */
function zshTables(entries: readonly Entry[]): { subs: string; opts: string } {
  const described = (name: string, summary: string) => `${name}:${summary.replace(/:/g, '\\:')}`;
  const subs: Array<[string, string]> = [['forge', entries.map((e) => described(e.name, e.summary)).join('\n')]];
  for (const e of entries)
    if (isGroup(e)) subs.push([`forge ${e.name}`, e.commands.map((c) => described(c.name.split(' ')[1]!, c.summary)).join('\n')]);
  const opts = leaves(entries).map((c): [string, string] => [
    `forge ${c.name}`,
    allArgs(c)
      .map(([n]) => `--${n}`)
      .join('\n'),
  ]);
  return { subs: zshRows(subs), opts: zshRows(opts) };
}

export function zshCompletion(entries: readonly Entry[]): string {
  const { subs, opts } = zshTables(entries);
  const all = completables(entries);
  const takes = zshRows(all.map((t): [string, string] => [t.path, t.takes.join(' ')]));
  const choices = zshRows(all.flatMap((t) => t.choices.map(([o, c]): [string, string] => [`${t.path} ${o}`, c.join(' ')])));
  const pos = zshRows(all.flatMap((t) => t.positional.map(([i, c]): [string, string] => [`${t.path} ${i}`, c.join(' ')])));
  const rest = zshRows(all.flatMap((t): Array<[string, string]> => (t.rest === undefined ? [] : [[t.path, String(t.rest)]])));
  return `#compdef ${programs(entries).join(' ')}
# zsh completion for forge — ${HEADER}
# File and directory names for forge (-/: directories only; $1: the directory they are relative to), never
# git's own files (.git in any case, and what is in it): every file tool refuses them.
__forge_files() {
  [[ \${(L)PREFIX} == (|*/).git(|/*) ]] && return 1
  if [[ $1 == -/ ]]; then
    _path_files -g '*~(*/)#(#i).git(-/)'
  elif [[ -n $1 ]]; then
    _path_files -W "$1" -g '*~(*/)#(#i).git'
  else
    _path_files -g '*~(*/)#(#i).git'
  fi
}
_forge() {
  # Each command path's subcommands; each command's options; the options that take the next word as
  # their value ("forge": those before a command); an option's choices; a positional's choices by its
  # place (0 the first), and the place of one that takes every word after it.
  local -A subs opts takes choices pos rest
  subs=(
${subs}
  )
  opts=(
${opts}
  )
  takes=(
${takes}
  )
  choices=(
${choices}
  )
  pos=(
${pos}
  )
  rest=(
${rest}
  )
  local prog=\${words[1]:t} at=forge w i key dir= npos=0 dashes=0 value=
  [[ $prog == forge-* ]] && at="forge \${prog#forge-}"
  # The command path, then its positionals, counted as forge counts them: options are skipped, those
  # before the command too, with the word each takes; -C/--cwd is kept for file names.
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    if (( dashes )); then (( npos++ )); continue; fi
    case $w in
      --) dashes=1; continue ;;
      -C?*) dir=\${w#-C}; continue ;;
      --cwd=*) dir=\${w#--cwd=}; continue ;;
      -*)
        key=$at; (( \${+takes[$at]} )) || key=forge
        if [[ " \${takes[$key]} " == *" $w "* ]]; then
          if (( i + 1 == CURRENT )); then value=$w; elif [[ $w == -C || $w == --cwd ]]; then dir=\${words[i+1]}; fi
          (( i++ ))
        fi
        continue ;;
    esac
    if (( npos == 0 && \${+subs[$at]} )) && [[ $'\\n'\${subs[$at]}$'\\n' == *$'\\n'"$w":* ]]; then
      at="$at $w"
    else
      (( npos++ ))
    fi
  done
  # The directory as the shell will read it: quotes and backslashes off, ~ expanded, made absolute
  # (_path_files -W takes a relative one from /, not from here).
  if [[ -n $dir ]]; then
    dir=\${(Q)dir}
    dir=\${~dir}
    dir=\${dir:a}
  fi
  local cur=\${words[CURRENT]}
  key=$at; (( \${+takes[$at]} )) || key=forge
  # --name=value: the value completes as it would after --name (--color's only this way: a bare --color is always).
  if [[ -z $value && $dashes == 0 && $cur == --?*=* ]]; then
    value=\${cur%%=*}
    compset -P '--[^=]#='
    (( \${+choices[$key $value]} )) || [[ " \${takes[$key]} " == *" $value "* ]] || return 1
  fi
  if [[ -n $value ]]; then
    if [[ $value == -C || $value == --cwd ]]; then
      __forge_files -/
    elif (( \${+choices[$key $value]} )); then
      compadd -- \${=choices[$key $value]}
    else
      __forge_files "$dir"
    fi
  elif [[ $cur == -* && $dashes == 0 ]]; then
    if (( \${+opts[$at]} )); then compadd -- \${(f)opts[$at]}; else compadd -- ${LEADING_WORDS.join(' ')}; fi
  elif (( npos == 0 && dashes == 0 && \${+subs[$at]} )); then
    local -a described=(\${(f)subs[$at]})
    _describe command described
  else
    # A positional: its declared choices, else file names.
    key="$at $npos"
    (( ! \${+pos[$key]} && \${+rest[$at]} )) && (( npos > \${rest[$at]} )) && key="$at \${rest[$at]}"
    if (( \${+pos[$key]} )); then compadd -- \${=pos[$key]}; else __forge_files "$dir"; fi
  fi
}
_forge "$@"
`;
}

/** The fish script's functions: file names without git's own, and which positional the word completed is. */
const FISH_FUNCTIONS = `# File and directory names for forge, never git's own files (.git in any case, and what is in it): every file tool refuses them.
function __forge_files
    __fish_complete_path (commandline -ct) | string match -rvi -- '(^|/)\\.git(/|\\t|$)'
end
function __forge_dirs
    __fish_complete_directories (commandline -ct) | string match -rvi -- '(^|/)\\.git(/|\\t|$)'
end
# Whether the word completed is positional N of the command (N+: N or a later one), counted as forge
# counts them past its D command words: the rest of the arguments are the options that take the next word.
function __forge_at
    set -l depth $argv[1]
    set -l want $argv[2]
    set -l takes $argv[3..-1]
    set -l place 0
    set -l skip 0
    set -l dashes 0
    for w in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        if test $dashes = 0
            switch $w
                case --
                    set dashes 1
                    continue
                case '-*'
                    contains -- $w $takes; and set skip 1
                    continue
            end
        end
        if test $depth -gt 0
            set depth (math $depth - 1)
            continue
        end
        set place (math $place + 1)
    end
    if string match -q -- '*+' $want
        test $place -ge (string trim -r -c + -- $want)
    else
        test $place = $want
    end
end`;

const fishQ = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** What fish offers after an option: nothing (a flag), its choices (after --color= only: a bare --color takes no word), directories for --cwd, else file names. */
function fishValue(name: string, spec: ArgSpec): string {
  if (spec.type === 'boolean') return '';
  if (spec.choices) return takesNextWord(name, spec) ? ` -x -a ${fishQ(spec.choices.join(' '))}` : ` -a ${fishQ(spec.choices.join(' '))}`;
  return name === 'cwd' ? ` -xa '(__forge_dirs)'` : ` -xa '(__forge_files)'`;
}

/** A command's positionals: each place's declared choices, and file names at every other place. */
function fishPositionals(prog: string, conds: string[], depth: number, t: Completable, hasPositional: boolean): string[] {
  if (!hasPositional) return [];
  const lines: string[] = [];
  const at = (i: number) => `__forge_at ${depth} ${i}${i === t.rest ? '+' : ''} ${t.takes.join(' ')}`;
  for (const [i, choices] of t.positional)
    lines.push(`complete -c ${prog} -n ${fishQ([...conds, at(i)].join('; and '))} -x -a ${fishQ(choices.join(' '))}`);
  const elsewhere = [...conds, ...t.positional.map(([i]) => `not ${at(i)}`)];
  lines.push(`complete -c ${prog}${elsewhere.length ? ` -n ${fishQ(elsewhere.join('; and '))}` : ''} -a '(__forge_files)'`);
  return lines;
}

export function fishCompletion(entries: readonly Entry[]): string {
  const q = fishQ;
  const byPath = new Map(completables(entries).map((t) => [t.path, t]));
  const lines = [`# fish completion for forge — ${HEADER}`, FISH_FUNCTIONS];
  for (const prog of programs(entries)) {
    const own = prog === 'forge' ? null : prog.slice('forge-'.length);
    const scoped = own ? entries.filter((e) => e.name === own) : entries;
    lines.push(`complete -c ${prog} -f`);
    if (!own) {
      for (const [n, s] of Object.entries(COMMON_ARGS as ArgsSpec))
        lines.push(
          `complete -c ${prog} -n '__fish_use_subcommand' -l ${n}${s.alias ? ` -s ${s.alias}` : ''}${fishValue(n, s)} -d ${q(s.description)}`,
        );
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
        for (const [n, s] of allArgs(c))
          lines.push(`complete -c ${prog}${cond} -l ${n}${s.alias ? ` -s ${s.alias}` : ''}${fishValue(n, s)} -d ${q(s.description)}`);
        // A command that takes words (a path, a pattern, a task) gets their choices, or file names, offered for them.
        const depth = (top ? 1 : 0) + (sub ? 1 : 0);
        lines.push(...fishPositionals(prog, conds, depth, byPath.get(`forge ${c.name}`)!, positionals(c.args).length > 0));
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
