// git, gh and forge command lines as the gate reads them: the surface each reaches, git config's writes, forge's own plan lifecycle.
import { posix } from 'node:path';
import type { Arg, Judge } from './shell-judge';
import {
  FORGE_LIFECYCLE,
  FORGE_VALUED_GLOBALS,
  FORGE_WRITES,
  GH_READS,
  GIT_READS,
  GIT_SUBCOMMANDS,
  GIT_VALUED_GLOBALS,
} from './shell-commands';

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

export function judgeForge(j: Judge, rest: Arg[]): void {
  j.readOnly = false;
  const words: string[] = [];
  const paths: Arg[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a.value === null) {
      if (words.length < 2) {
        j.cannot(`forge '${a.text}'`);
        return;
      }
      continue;
    }
    if (a.value.startsWith('-')) {
      const [opt, inline] = a.value.includes('=')
        ? [a.value.slice(0, a.value.indexOf('=')), a.value.slice(a.value.indexOf('=') + 1)]
        : [a.value, null];
      if (opt === '--path' || opt === '-C' || opt === '--cwd') {
        const value = inline ?? rest[++i]?.value ?? null;
        paths.push({ text: value ?? a.text, value, glob: false });
      } else if (FORGE_VALUED_GLOBALS.has(opt) && inline === null) i++;
      continue;
    }
    words.push(a.value);
  }
  const command = words.slice(0, 2).join(' ');
  const lifecycle = FORGE_LIFECYCLE.find((c) => command === c || command.startsWith(`${c} `));
  if (lifecycle) j.lifecycle ??= `forge ${lifecycle}`;
  if (words[0] === 'mcp') {
    j.cannot('forge mcp (its tool calls come from its input)');
    return;
  }
  const writes = FORGE_WRITES.has(words[0] ?? '');
  if (writes && !paths.length) {
    j.cannot(`forge ${words[0]} reading its request from its input`);
    return;
  }
  for (const p of paths) j.path(p, writes ? 'write' : 'read');
}
