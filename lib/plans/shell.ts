// A shell command line as the plan gate judges it: read by a bash parser (unbash), never by patterns — what it reaches, reads, writes, and what cannot be judged.
import { posix } from 'node:path';
import {
  type AndOr,
  type Command,
  type CompoundList,
  forEachChild,
  parse,
  type Pipeline,
  type Redirect,
  type SyntaxNode,
  type Word,
} from 'unbash';
import type { Surface } from './markdown';
import { EXEC_RUNNERS, INTERPRETERS, PURE_PROGRAMS, READ_PROGRAMS, SHELLS, WRAPPERS, WRITE_PROGRAMS } from './shell-commands';
import { type Arg, argOf, base, Judge, MAX_DEPTH, positionals } from './shell-judge';
import { judgeForge, judgeGh, judgeGit, type Runs } from './shell-vcs';

export interface ShellEffects {
  /** The widest surface a command of it reaches. */
  surface: Surface;
  /** Paths it reads, relative to where it runs (or absolute, or starting with `~`); a directory read whole ends in '/'. */
  reads: string[];
  /** Paths it changes, written the same way. */
  writes: string[];
  /** The part that would end, pause, resume or replace the plan, or touch forge's state ref; null when none. */
  lifecycle: string | null;
  /** The first part whose effect cannot be judged from the command line (a command name from a variable, eval of one, code inline); null when none. */
  unjudged: string | null;
  /** When every command only reads: the plan words they amount to (read, search, ls); null otherwise. */
  readWords: string[] | null;
}

type Ctx = { stdinCode: boolean; depth: number };
type Handler = (j: Judge, name: string, rest: Arg[], ctx: Ctx) => void;

/** The words after a wrapper's own options (env's assignments, timeout's duration): the command it runs; null when one cannot be read. */
function unwrap(j: Judge, name: string, rest: Arg[]): Arg[] | null {
  const wrapper = WRAPPERS[name]!;
  const valued = new Set(wrapper.valued);
  let positional = wrapper.positional ?? 0;
  for (let i = 0; i < rest.length; i++) {
    const v = rest[i]!.value;
    if (v === null) {
      j.cannot(`'${rest[i]!.text}' after ${name}`);
      return null;
    }
    if (v === '--') return rest.slice(i + 1);
    if (name === 'command' && (v === '-v' || v === '-V')) return []; // a lookup: runs nothing
    if (v.startsWith('-')) {
      if (valued.has(v)) i++;
      continue;
    }
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) continue;
    if (positional > 0) {
      positional--;
      continue;
    }
    return rest.slice(i);
  }
  return [];
}

function judgeEval(j: Judge, _name: string, rest: Arg[], ctx: Ctx): void {
  if (rest.some((a) => a.value === null)) j.cannot(`eval of '${rest.map((a) => a.text).join(' ')}'`);
  else judgeCode(j, rest.map((a) => a.value).join(' '), ctx.depth + 1, 'eval');
}

function judgeDd(j: Judge, _name: string, rest: Arg[]): void {
  j.readOnly = false;
  for (const a of rest) {
    if (a.value === null) {
      j.cannot(`'${a.text}' given to dd`);
      return;
    }
    if (a.value.startsWith('of=')) j.path({ ...a, value: a.value.slice(3) }, 'write');
    if (a.value.startsWith('if=')) j.path({ ...a, value: a.value.slice(3) }, 'read');
  }
}

/** A `cd` adds where later commands may run: their paths are judged from every such directory. */
function judgeCd(j: Judge, _name: string, rest: Arg[]): void {
  const to = rest.find((a) => a.value !== '--' && !a.value?.startsWith('-'));
  if (!to) j.dirs = new Set(['~']);
  else if (to.value === null) j.cannot(`cd to '${to.text}'`);
  else {
    const target = to.value;
    j.dirs = new Set([...j.dirs].map((d) => (target.startsWith('/') || target.startsWith('~') ? target : posix.join(d, target))));
  }
}

/** An interpreter judged as any program, unless its code comes inline or from its input. */
function judgeInterpreter(j: Judge, name: string, rest: Arg[], ctx: Ctx): void {
  const inline = INTERPRETERS[name] ?? INTERPRETERS.python3!;
  const code = rest.find((a) => a.value !== null && inline.includes(a.value));
  if (code) j.cannot(`the ${name} code given inline (${code.value})`);
  else if (!rest.some((a) => a.value !== null && !a.value.startsWith('-')) && ctx.stdinCode)
    j.cannot(`the ${name} code read from its input`);
  else judgeProgram(j, name, rest, ctx);
}

/** What a forge command runs is judged as code and commands of this command line, one level deeper. */
const forgeRuns = (j: Judge, ctx: Ctx): Runs => ({
  code: (text, what) => judgeCode(j, text, ctx.depth + 1, what),
  program: (words) => judgeWords(j, words, { ...ctx, depth: ctx.depth + 1 }),
});

/** Programs read by a judge of their own. */
const HANDLERS: Readonly<Record<string, Handler>> = {
  forge: (j, _n, rest, ctx) => judgeForge(j, rest, forgeRuns(j, ctx)),
  'forge.js': (j, _n, rest, ctx) => judgeForge(j, rest, forgeRuns(j, ctx)),
  git: (j, _n, rest) => judgeGit(j, rest),
  gh: judgeGh,
  glab: judgeGh,
  hub: judgeGh,
  eval: judgeEval,
  trap: judgeTrap,
  awk: (j, _n, rest) => judgeAwk(j, rest),
  gawk: (j, _n, rest) => judgeAwk(j, rest),
  mawk: (j, _n, rest) => judgeAwk(j, rest),
  nawk: (j, _n, rest) => judgeAwk(j, rest),
  sed: (j, _n, rest) => judgeSed(j, rest),
  find: (j, _n, rest, ctx) => judgeFind(j, rest, ctx),
  xargs: (j, _n, rest, ctx) => judgeXargs(j, rest, ctx),
  dd: judgeDd,
  cd: judgeCd,
  pushd: judgeCd,
  ...Object.fromEntries([...SHELLS].map((sh) => [sh, judgeShell])),
  ...Object.fromEntries(Object.keys(INTERPRETERS).map((i) => [i, judgeInterpreter])),
};

/** Reads one simple command (already split into words), and anything it runs in turn. */
function judgeWords(j: Judge, args: Arg[], ctx: Ctx): void {
  const first = args[0];
  if (!first) return;
  if (first.value === null) {
    j.cannot(`the command name '${first.text}'`);
    return;
  }
  const name = base(first.value);
  const rest = args.slice(1);
  if (WRAPPERS[name]) {
    const inner = unwrap(j, name, rest);
    if (inner) judgeWords(j, inner, ctx);
    return;
  }
  const runner = EXEC_RUNNERS[name];
  if (runner && rest[0]?.value && runner.includes(rest[0].value)) {
    const after = rest.slice(1);
    const dash = after.findIndex((a) => a.value === '--');
    judgeWords(j, dash >= 0 ? after.slice(dash + 1) : after.filter((a) => !a.value?.startsWith('-')), ctx);
    return;
  }
  // `node dist/forge.js …` is forge.
  if ((name === 'node' || name === 'nodejs') && rest[0]?.value && /^forge(\.[cm]?js)?$/.test(base(rest[0].value))) {
    judgeForge(j, rest.slice(1), forgeRuns(j, ctx));
    return;
  }
  const handler = HANDLERS[name] ?? (/^python\d(\.\d+)?$/.test(name) ? judgeInterpreter : judgeProgram);
  handler(j, name, rest, ctx);
}

/** A program by the tables: one that reads, one that writes, one that touches nothing, else one that runs code the plan trusts. */
function judgeProgram(j: Judge, name: string, rest: Arg[], ctx: Ctx): void {
  const reader = READ_PROGRAMS[name];
  if (reader) {
    j.words.add(reader.word);
    const { words, given } = positionals(rest, reader);
    const recursive = reader.readsCwd || given.has('-r') || given.has('-R') || given.has('--recursive');
    if (!words.length && recursive && !ctx.stdinCode) j.path({ text: '.', value: './', glob: false }, 'read');
    for (const w of words) j.path(w.value !== null && recursive && !w.glob ? { ...w, value: `${w.value.replace(/\/$/, '')}/` } : w, 'read');
    if (name === 'sort' && given.has('-o')) j.cannot("sort's -o output file");
    return;
  }
  const writer = WRITE_PROGRAMS[name];
  if (writer) {
    j.readOnly = false;
    const { words } = positionals(rest, writer);
    const targetAt = writer.target ? rest.findIndex((a) => a.value === writer.target) : -1;
    if (targetAt >= 0 && rest[targetAt + 1]) j.path(rest[targetAt + 1]!, 'write');
    words.forEach((w, i) => {
      const last = i === words.length - 1 && targetAt < 0;
      j.path(w, writer.writes === 'all' || writer.writes === 'all-moved' || last ? 'write' : 'read');
    });
    return;
  }
  if (PURE_PROGRAMS.has(name)) return;
  // Any other program runs code the plan trusts (a test runner, a build, a script): forge judges its
  // command line, not what it does. A word naming git, gh or forge starts a command it may run (watch, parallel…).
  j.readOnly = false;
  const nested = rest.findIndex((a) => a.value !== null && NESTED.has(base(a.value)));
  if (nested >= 0) judgeWords(j, rest.slice(nested), ctx);
  // A word that is itself a command line for one of them is code the program may run (watch 'git push', su -c, script -c).
  for (const a of rest) {
    const first = a.value?.trim().split(/\s+/)[0];
    if (
      a.value !== null &&
      /\s/.test(a.value.trim()) &&
      first &&
      (NESTED.has(base(first)) || WRITE_PROGRAMS[base(first)] || SHELLS.has(base(first)))
    )
      judgeCode(j, a.value, ctx.depth + 1, `'${a.text}' given to ${name}`);
  }
}

/** Programs whose command, met among another program's words, forge judges as a command that program may run. */
const NESTED: ReadonlySet<string> = new Set(['git', 'gh', 'glab', 'forge']);

/** `trap 'code' SIGNAL`: the code runs later, in this shell. */
function judgeTrap(j: Judge, _name: string, rest: Arg[], ctx: Ctx): void {
  const code = rest.find((a) => a.value === null || !a.value.startsWith('-'));
  if (!code || rest.some((a) => a.value === '-p' || a.value === '-l')) return;
  if (code.value === null) j.cannot(`the trap code '${code.text}'`);
  else judgeCode(j, code.value, ctx.depth + 1, 'trap');
}

function judgeShell(j: Judge, name: string, rest: Arg[], ctx: Ctx): void {
  j.readOnly = false;
  const c = rest.findIndex((a) => a.value !== null && /^-[a-z]*c[a-z]*$/.test(a.value));
  if (c >= 0) {
    const code = rest[c + 1];
    if (!code || code.value === null) {
      j.cannot(`the ${name} -c code '${code?.text ?? ''}'`);
      return;
    }
    judgeCode(j, code.value, ctx.depth + 1, `${name} -c`);
    return;
  }
  const script = rest.find((a) => a.value !== null && !a.value.startsWith('-'));
  if (script) {
    j.path(script, 'read');
    return;
  }
  if (ctx.stdinCode) j.cannot(`the ${name} code read from its input`);
}

function judgeAwk(j: Judge, rest: Arg[]): void {
  const { words } = positionals(rest, { valued: ['-F', '-v', '-f', '--field-separator', '--assign', '--file'] });
  const program = rest.some((a) => a.value === '-f') ? null : words.shift();
  if (program && program.value === null) {
    j.cannot(`the awk program '${program.text}'`);
    return;
  }
  // An awk program can run commands and write files: one that may is not judged.
  if (program?.value && /system\s*\(|\|\s*(getline|")|\bprint[f]?\b[^;}]*>|getline\s*</.test(program.value)) {
    j.cannot(`the awk program '${program.value}', which runs commands or writes files`);
    return;
  }
  j.words.add('read');
  for (const w of words) if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value ?? '')) j.path(w, 'read');
}

function judgeSed(j: Judge, rest: Arg[]): void {
  const inPlace = rest.some((a) => a.value !== null && /^(-i|--in-place)/.test(a.value));
  const { words, given } = positionals(
    rest.filter((a) => !(a.value !== null && /^(-i.+|--in-place=.*)$/.test(a.value))),
    { valued: ['-e', '-f', '--expression', '--file', '-l'] },
  );
  const scripts = given.has('-e') || given.has('-f') || given.has('--expression') || given.has('--file') ? [] : words.splice(0, 1);
  for (const s of scripts)
    if (s.value === null || /(^|;|\n)\s*[0-9,$/]*\s*[we]\b/.test(s.value)) {
      j.cannot(`the sed script '${s.text}'`);
      return;
    }
  if (inPlace) j.readOnly = false;
  else j.words.add('read');
  for (const w of words) j.path(w, inPlace ? 'write' : 'read');
}

function judgeFind(j: Judge, rest: Arg[], ctx: Ctx): void {
  const start = rest.findIndex((a) => a.value === null || /^[-(!]/.test(a.value));
  const roots = (start < 0 ? rest : rest.slice(0, start)).map((a) =>
    a.value !== null && !a.glob ? { ...a, value: `${a.value.replace(/\/$/, '')}/` } : a,
  );
  const under = roots.length ? roots : [{ text: '.', value: './', glob: false }];
  const expr = start < 0 ? [] : rest.slice(start);
  let changes = false;
  for (let i = 0; i < expr.length; i++) {
    const v = expr[i]!.value;
    if (v === null) continue;
    if (v === '-delete') changes = true;
    if (['-fprint', '-fprint0', '-fprintf', '-fls'].includes(v) && expr[i + 1]) j.path(expr[i + 1]!, 'write');
    if (['-exec', '-execdir', '-ok', '-okdir'].includes(v)) {
      const end = expr.findIndex((a, k) => k > i && (a.value === ';' || a.value === '+'));
      const inner = expr.slice(i + 1, end < 0 ? expr.length : end);
      // Each found file is `{}`: the inner command reads or changes what lies under the roots.
      const sub = new Judge();
      judgeWords(
        sub,
        inner.map((a) => (a.value === '{}' ? { text: '{}', value: 'placeholder', glob: false } : a)),
        ctx,
      );
      merge(j, sub, { writesUnder: sub.writes.size || !sub.readOnly ? under : null });
      i = end < 0 ? expr.length : end;
    }
  }
  j.words.add('ls');
  for (const r of under) j.path(r, changes ? 'write' : 'read');
}

function judgeXargs(j: Judge, rest: Arg[], ctx: Ctx): void {
  const valued = new Set([
    '-I',
    '-i',
    '-n',
    '-P',
    '-d',
    '-L',
    '-l',
    '-s',
    '-a',
    '-E',
    '--max-args',
    '--max-procs',
    '--delimiter',
    '--arg-file',
  ]);
  let i = 0;
  while (i < rest.length && rest[i]!.value?.startsWith('-')) i += valued.has(rest[i]!.value!) ? 2 : 1;
  const inner = rest.slice(i);
  const program = inner[0]?.value ? base(inner[0].value) : 'echo';
  // The words xargs adds come from its input: a program that reads gets paths nobody can see — the whole directory.
  if (READ_PROGRAMS[program]) {
    judgeWords(j, inner, ctx);
    j.path({ text: '.', value: './', glob: false }, 'read');
    return;
  }
  if (PURE_PROGRAMS.has(program)) return;
  j.cannot(`xargs ${inner.map((a) => a.text).join(' ')} (its arguments come from its input)`);
}

/** Folds what a nested command did (find -exec's) into the outer judgement; its writes, when it changes found files, are the roots'. */
function merge(j: Judge, sub: Judge, { writesUnder }: { writesUnder: Arg[] | null }): void {
  j.reach(sub.surface);
  j.lifecycle ??= sub.lifecycle;
  if (sub.unjudged) j.cannot(sub.unjudged);
  if (!sub.readOnly) j.readOnly = false;
  for (const w of sub.words) j.words.add(w);
  for (const r of sub.reads) if (!r.includes('placeholder')) j.reads.add(r);
  for (const w of sub.writes) if (!w.includes('placeholder')) j.writes.add(w);
  for (const r of writesUnder ?? []) j.path(r, 'write');
}

const WRITE_OPERATORS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

function judgeRedirect(j: Judge, r: Redirect): void {
  if (!r.target) return;
  const target = argOf(r.target);
  if ((r.operator === '>&' || r.operator === '<&') && target.value !== null && /^(\d+|-)$/.test(target.value)) return;
  if (WRITE_OPERATORS.has(r.operator) || r.operator === '>&') j.path(target, 'write');
  else if (r.operator === '<') j.path(target, 'read');
}

/** Every simple command in the tree, with whether its input may be code (a pipe, a here-document): loops, functions and substitutions included. */
function walk(j: Judge, node: SyntaxNode, depth: number, stdinCode = false): void {
  if (node.type === 'Pipeline') {
    // Each command of a pipeline runs in a subshell of its own.
    const p = node as Pipeline;
    p.commands.forEach((c, i) => j.inSubshell(() => walk(j, c, depth, i > 0)));
    return;
  }
  if (node.type === 'Subshell') {
    j.inSubshell(() => forEachChild(node, (child) => walk(j, child, depth)));
    return;
  }
  if (node.type === 'Script' || node.type === 'CompoundList') {
    // One statement after another: the next runs where the last left it, or — its cd failing — where it began.
    for (const statement of (node as CompoundList).commands) {
      const before = j.dirs;
      walk(j, statement, depth);
      j.widen(before);
    }
    return;
  }
  if (node.type === 'AndOr') {
    // After `a && b`, b runs only where a succeeded; after `a || b`, also where a failed.
    const list = node as AndOr;
    let before = j.dirs;
    list.commands.forEach((c, i) => {
      if (i > 0 && list.operators[i - 1] === '||') j.widen(before);
      before = j.dirs;
      walk(j, c, depth);
    });
    return;
  }
  if (node.type === 'Command') {
    const c = node as Command;
    const heredoc = c.redirects.some((r) => r.type === 'HereDoc' || r.type === 'HereString');
    for (const r of c.redirects) if (r.type === 'Redirect') judgeRedirect(j, r as Redirect);
    const words = [...(c.name ? [c.name] : []), ...c.args.filter((a): a is Word => a.type === 'Word')];
    judgeWords(j, words.map(argOf), { stdinCode: stdinCode || heredoc, depth });
    // Substitutions inside the words run too.
    forEachChild(c, (child) => walkSubstitutions(j, child, depth));
    return;
  }
  if (node.type === 'Redirected')
    for (const r of (node as { redirects: readonly SyntaxNode[] }).redirects) if (r.type === 'Redirect') judgeRedirect(j, r as Redirect);
  if (node.type === 'Function' || node.type === 'Coproc') j.readOnly = false;
  forEachChild(node, (child) => walk(j, child, depth));
}

function walkSubstitutions(j: Judge, node: SyntaxNode, depth: number): void {
  // A substitution runs in a subshell.
  if (node.type === 'Script' || node.type === 'Statement') {
    j.inSubshell(() => walk(j, node, depth));
    return;
  }
  forEachChild(node, (child) => walkSubstitutions(j, child, depth));
}

function judgeCode(j: Judge, code: string, depth: number, what: string): void {
  if (depth > MAX_DEPTH) {
    j.cannot(`${what} nested ${MAX_DEPTH} deep`);
    return;
  }
  const script = parse(code);
  if (script.errors?.length) {
    j.cannot(`${what}: ${script.errors[0]!.message}`);
    return;
  }
  walk(j, script, depth);
}

/** What a shell command line does, as far as it can be read without running it. */
export function readShell(command: string): ShellEffects {
  const j = new Judge();
  judgeCode(j, command, 0, 'the command line');
  return {
    surface: j.surface,
    reads: [...j.reads],
    writes: [...j.writes],
    lifecycle: j.lifecycle,
    unjudged: j.unjudged,
    readWords: j.readOnly && !j.unjudged && !j.lifecycle ? [...j.words] : null,
  };
}
