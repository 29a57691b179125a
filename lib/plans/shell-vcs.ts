// git, gh and forge command lines as the gate reads them: the surface each reaches, git config's writes, forge's own plan lifecycle.
import { posix } from 'node:path';
import type { Arg, Judge } from './shell-judge';
import { COMMON_VALUED } from './forge-args.gen';
import { forgeArgsOf, forgeEffects, judgedArgs, list, splitFlag } from './forge-effects';
import { GH_READS, GIT_READS, GIT_SUBCOMMANDS, GIT_VALUED_GLOBALS } from './shell-commands';

export function judgeGh(j: Judge, _name: string, rest: Arg[]): void {
  const words = rest.filter((a) => !a.value?.startsWith('-'));
  const reads = words.slice(0, 2).some((a) => a.value !== null && GH_READS.has(a.value)) || words.length === 0;
  j.readOnly = false;
  if (words[0]?.value === 'api' || !reads) j.reach('remote_branch_pr');
}

export function judgeGit(j: Judge, rest: Arg[]): void {
  let i = 0;
  // Where git runs (-C) and its git dir (--git-dir): what `git config` writes.
  let at = '.';
  let gitDir: string | null = null;
  for (; i < rest.length; i++) {
    const a = rest[i]!;
    if (a.value === null) {
      j.cannot(`git option '${a.text}'`);
      return;
    }
    if (!a.value.startsWith('-')) break;
    const [opt, inlineValue] = a.value.includes('=')
      ? [a.value.slice(0, a.value.indexOf('=')), a.value.slice(a.value.indexOf('=') + 1)]
      : [a.value, null];
    const value = inlineValue ?? (GIT_VALUED_GLOBALS.has(opt) ? (rest[++i]?.value ?? null) : null);
    if (GIT_VALUED_GLOBALS.has(opt) && value === null) {
      j.cannot(`git ${opt} '${rest[i]?.text ?? ''}'`);
      return;
    }
    if (opt === '-c' && /^alias\./i.test(value!)) {
      j.cannot(`git -c ${value} (an alias defined on the command line)`);
      return;
    }
    if (opt === '-c' && /^core\.(hookspath|fsmonitor|sshcommand|pager|editor)|^(credential|protocol)\./i.test(value!)) {
      j.cannot(`git -c ${value} (runs a command of its own)`);
      return;
    }
    if (opt === '-C') at = posix.join(at, value!);
    if (opt === '--git-dir') gitDir = posix.join(at, value!);
  }
  const sub = rest[i]?.value ?? undefined;
  const reads = sub !== undefined && GIT_READS.has(sub) && !rest.some((a) => a.value === '--output' || a.value?.startsWith('--output='));
  if (reads) j.words.add('read');
  else j.readOnly = false;
  if (!sub) return;
  const args = rest.slice(i + 1);
  if (args.some((a) => (a.value === null ? /refs\/forge/.test(a.text) : /refs\/forge|^forge\//.test(a.value))) || /refs\/forge/.test(sub))
    j.lifecycle ??= `git ${sub} on refs/forge/ (forge's state ref)`;
  const surface = GIT_SUBCOMMANDS[sub];
  if (!surface) {
    j.cannot(`git ${sub} (an alias or a program git-${sub}: what it does is unknown)`);
    return;
  }
  j.reach(surface);
  if (sub === 'config' && gitConfigWrites(args)) {
    const file = args.findIndex((a) => a.value === '-f' || a.value === '--file');
    if (args.some((a) => a.value === '--global' || a.value === '--system'))
      j.path({ text: '~/.gitconfig', value: '~/.gitconfig', glob: false }, 'write');
    else if (file >= 0 && args[file + 1]) j.path(args[file + 1]!, 'write');
    else {
      const config = gitDir ? posix.join(gitDir, 'config') : posix.join(at, '.git/config');
      j.path({ text: config, value: config, glob: false }, 'write');
    }
  }
}

/** `git config` sets or unsets unless it only gets or lists. */
function gitConfigWrites(args: Arg[]): boolean {
  const words = args.map((a) => a.value ?? '');
  if (
    words.some((w) =>
      /^(--get|--get-all|--get-regexp|--get-urlmatch|-l|--list|--show-origin|--show-scope|--get-color|--get-colorbool)$/.test(w),
    )
  )
    return false;
  if (words.some((w) => /^(--unset|--unset-all|--add|--replace-all|--rename-section|--remove-section|-e|--edit)$/.test(w))) return true;
  const verb = words.find((w) => !w.startsWith('-'));
  if (verb === 'get' || verb === 'list') return false;
  // `git config key` alone reads; `git config key value` (or set/unset/edit) writes.
  return words.filter((w) => !w.startsWith('-')).length !== 1 || verb === 'edit';
}

/** How the shell reader judges what a forge command runs in turn: shell code (validate --cmd) and a program's words (loop run -- …). */
export interface Runs {
  code(text: string, what: string): void;
  program(words: Arg[]): void;
}

/** Words forge takes without a command: its help and version. */
const NO_COMMAND = new Set(['help', 'version']);

/**
 * A forge command line, read by the declarations (lib/plans/forge-args.gen.ts) and judged by what
 * the command does with its arguments (lib/plans/forge-effects.ts): the same reading as forge's MCP
 * tools and forge agent's tools get.
 */
export function judgeForge(j: Judge, rest: Arg[], runs: Runs): void {
  j.readOnly = false;
  // A word made by an expansion stands as a marker: where the gate judges it, it cannot be judged.
  const words = rest.map((a, i) => a.value ?? `\0${i}`);
  const made = (value: string) => (value.startsWith('\0') ? rest[Number(value.slice(1))]! : null);
  let cwd: string | null = null;
  let i = 0;
  // Common options may come before the command: forge -C DIR read x.
  for (; i < words.length && words[i]!.startsWith('-'); i++) {
    const [flag, inline] = splitFlag(words[i]!, VALUED_GLOBALS);
    const value = inline ?? (VALUED_GLOBALS.has(flag) ? (words[++i] ?? '') : null);
    if ((flag === '-C' || flag === '--cwd') && value !== null) cwd = value;
  }
  if (i >= words.length || NO_COMMAND.has(words[i]!)) return;
  const { command, args, at } = forgeArgsOf(words.slice(i));
  const expanded = words
    .slice(i, i + (command ? at : 2))
    .map(made)
    .find(Boolean);
  if (!command || expanded) {
    j.cannot(expanded ? `forge '${expanded.text}' (a command made by an expansion)` : `forge '${rest[i]!.text}' (not a command forge has)`);
    return;
  }
  if (typeof args.cwd === 'string') cwd = args.cwd;
  for (const name of [...judgedArgs(command), ...(cwd !== null ? ['cwd'] : [])]) {
    const byExpansion = list(name === 'cwd' ? (cwd ?? '') : args[name])
      .map(made)
      .find(Boolean);
    if (byExpansion) {
      j.cannot(`'${byExpansion.text}' given to forge ${command} (made by an expansion)`);
      return;
    }
  }
  const effects = forgeEffects(command, args);
  if (effects.lifecycle) j.lifecycle ??= effects.lifecycle;
  if (effects.cannot) {
    j.cannot(effects.cannot);
    return;
  }
  const judge = () => {
    j.reach(effects.surface);
    for (const p of effects.reads) j.path({ text: p, value: p, glob: false }, 'read');
    for (const p of effects.writes) j.path({ text: p, value: p, glob: false }, 'write');
    for (const code of effects.code) runs.code(code, `the command forge ${command} runs`);
    for (const program of effects.programs) runs.program(program.map((w) => ({ text: w, value: w, glob: false })));
  };
  if (cwd === null) judge();
  else
    j.inSubshell(() => {
      const dir = cwd!;
      j.dirs = new Set([...j.dirs].map((d) => (dir.startsWith('/') || dir.startsWith('~') ? dir : posix.join(d, dir))));
      judge();
    });
}

const VALUED_GLOBALS: ReadonlySet<string> = new Set(COMMON_VALUED);
