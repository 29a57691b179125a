// The judgement a shell command line builds as the gate reads it: surface, paths read and written, what cannot be judged.
import { posix } from 'node:path';
import type { Word } from 'unbash';
import type { Surface } from './markdown';
import { NOWHERE, type ProgramSpec } from './shell-commands';

const ORDER: Record<Surface, number> = { artifacts_only: 0, local_branch: 1, remote_branch_pr: 2 };
/** Shell code nested deeper than this (sh -c "sh -c …") is not judged. */
export const MAX_DEPTH = 6;

/** One word as the gate reads it: its value when literal (quotes removed), a glob's pattern, or null when an expansion makes it. */
export interface Arg {
  text: string;
  value: string | null;
  glob: boolean;
}

export function argOf(word: Word): Arg {
  let literal = true;
  let glob = false;
  const visit = (parts: readonly { type: string; parts?: readonly unknown[] }[] | undefined) => {
    for (const p of parts ?? []) {
      if (p.type === 'Glob' || p.type === 'ExtendedGlob' || p.type === 'BraceExpansion') glob = true;
      else if (p.type === 'DoubleQuoted' || p.type === 'LocaleString') visit(p.parts as typeof parts);
      else if (p.type !== 'Literal' && p.type !== 'SingleQuoted' && p.type !== 'AnsiCQuoted') literal = false;
    }
  };
  visit(word.parts as never);
  return { text: word.text, value: literal ? word.value : null, glob: literal && glob };
}

export class Judge {
  surface: Surface = 'artifacts_only';
  readonly reads = new Set<string>();
  readonly writes = new Set<string>();
  lifecycle: string | null = null;
  unjudged: string | null = null;
  readOnly = true;
  readonly words = new Set<string>();
  /**
   * Where the next command may run: the starting directory ('.'), changed by a `cd`, and widened
   * where a `cd` may have failed (after `;`, `||`). A path is judged from each of them.
   */
  dirs = new Set<string>(['.']);
  /** Runs `body` in a subshell: a `cd` inside it does not outlast it. */
  inSubshell(body: () => void): void {
    const before = this.dirs;
    this.dirs = new Set(before);
    body();
    this.dirs = before;
  }
  /** Widens where the next command may run by where it could run before (the `cd` before it may have failed). */
  widen(before: ReadonlySet<string>): void {
    this.dirs = new Set([...this.dirs, ...before]);
  }

  reach(s: Surface): void {
    if (ORDER[s] > ORDER[this.surface]) this.surface = s;
  }
  cannot(part: string): void {
    this.unjudged ??= part;
    this.readOnly = false;
  }
  /** A path word: a glob reads or writes its literal directory whole; an expansion cannot be judged. */
  path(arg: Arg, kind: 'read' | 'write'): void {
    if (arg.value === null) {
      this.cannot(`'${arg.text}' (a path made by an expansion)`);
      return;
    }
    let p = arg.value;
    if (arg.glob) {
      const i = p.search(/[*?[{]/);
      const slash = p.lastIndexOf('/', i);
      p = slash < 0 ? './' : `${p.slice(0, slash) || '/'}/`;
    }
    if (kind === 'write' && NOWHERE.has(p)) return;
    if (kind === 'write') this.readOnly = false;
    const whole = p.endsWith('/');
    for (const dir of this.dirs) {
      const joined = (p.startsWith('/') || p.startsWith('~') ? p : posix.join(dir, p)).replace(/(.)\/+$/, '$1');
      const full = joined === '.' ? './' : whole && joined !== '/' ? `${joined}/` : joined;
      (kind === 'read' ? this.reads : this.writes).add(full);
    }
  }
}

/** Splits a program's words into positional words, reading `-x VALUE` and `--opt=value` as options (after `--`, all positional). */
export function positionals(args: Arg[], spec: ProgramSpec): { words: Arg[]; given: Set<string> } {
  const valued = new Set(spec.valued ?? []);
  const words: Arg[] = [];
  const given = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') {
      words.push(...args.slice(i + 1));
      break;
    }
    if (v?.startsWith('-') && v !== '-') {
      const name = v.includes('=') ? v.slice(0, v.indexOf('=')) : v;
      given.add(name);
      // A cluster of short flags (-rn) gives each of them.
      if (/^-[A-Za-z]{2,}$/.test(v) && !valued.has(v)) for (const f of v.slice(1)) given.add(`-${f}`);
      if (valued.has(name) && !v.includes('=')) i++;
      continue;
    }
    words.push(args[i]!);
  }
  const skip = spec.skipGivenBy?.some((o) => given.has(o)) ? 0 : (spec.skip ?? 0);
  return { words: words.slice(skip), given };
}

export const base = (program: string) => program.slice(program.lastIndexOf('/') + 1);
