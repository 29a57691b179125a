// Fuzz (seeded, bounded, many cases per process of the built binary): NDJSON requests — wrong types, huge numbers, prototype keys, junk lines — to a sample of commands never end in INTERNAL, hang, or change a file not asked for.
import { cpSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import fc from 'fast-check';
import { test } from '../helpers/harness';
import { entries } from '../../commands/index';
import { leaves } from '../../lib/cli/registry';
import { batch, changedFiles, report, root, sample, sandbox, snapshot } from '../helpers/fuzz';
import { READ_ONLY_PATHS, SLOPPY, WEIRD_PATHS } from '../helpers/fuzz-mutations';

// Random and mutated objects, wrong types, huge numbers, prototype keys, long strings, lines that
// are not JSON objects or not UTF-8 — to a sample of commands.

/** A JSON value written raw into the line (a number JSON.stringify cannot make). */
const RAW = (text: string) => `\u0000raw:${text}\u0000`;
const rawJson = (value: unknown) => JSON.stringify(value).replace(/"\\u0000raw:(.*?)\\u0000"/g, '$1');

const HARMLESS_COMMANDS = ['true', 'false', 'exit 3', ':'];
const VALID_RUN_IDS = ['fuzz-1', 'r.2'];
/** Run ids that fail validation without naming a path outside the repository (point 3 of issue 13 covers those). */
const BAD_RUN_IDS = ['', '.', '..', '../x', 'a b', 'x'.repeat(200), 'a\nb'];

/** A very long string: a path far over any file system's limits, a pattern too large for V8 to compile. */
const LONG_TEXT = 'A'.repeat(100_000);

/** An array `depth` levels deep. */
function nested(depth: number): unknown[] {
  let v: unknown[] = [];
  for (let i = 1; i < depth; i++) v = [v];
  return v;
}

/** A value for a request's key; system paths only where the command only reads them. */
function valueArb(key: string, readOnly: boolean): fc.Arbitrary<unknown> {
  const paths = [
    'README.md',
    'src/app.py',
    'docs/notes.txt',
    'crlf.txt',
    'bin.dat',
    'inside-link',
    'missing.txt',
    'src',
    'fuzz-written.txt',
    ...WEIRD_PATHS,
  ];
  const anyPath = fc.constantFrom(...paths, ...(readOnly ? READ_ONLY_PATHS : []));
  const readPath = fc.constantFrom(...paths, ...READ_ONLY_PATHS);
  const plausible: Record<string, fc.Arbitrary<unknown>> = {
    path: anyPath,
    paths: fc.array(anyPath, { maxLength: 3 }),
    file: fc.oneof(readPath, fc.array(readPath, { maxLength: 2 })),
    cmd: fc.array(fc.constantFrom(...HARMLESS_COMMANDS), { maxLength: 2 }),
    pattern: fc.constantFrom('line', '(', '[a-', '\\', '.*', '(a+)+$', 'a{1,65535}', '\\p{L}', '\0', 'def main', '^', ''),
    glob: fc.constantFrom('*.ts', '**', '{a,b', '[', '!(x)', '../**', '/etc/*', ''),
    old: fc.constantFrom('line 3 of the notes', 'return 0', '', '\n', 'x'.repeat(10_000)),
    new: fc.string({ unit: 'binary', maxLength: 50 }),
    content: fc.string({ unit: 'binary', maxLength: 200 }),
    diff: fc.constantFrom(...SLOPPY),
    edits: fc.array(fc.dictionary(fc.constantFrom('lines', 'after', 'before', 'new', 'delete', 'x'), fc.jsonValue({ maxDepth: 1 })), {
      maxLength: 3,
    }),
    anchor: fc.constantFrom('1#abcd', '3#0000', 'x', '99999999999999999999#a'),
    lines: fc.constantFrom('1-2', '2#ab-1#cd', '0-0', '-1', '5-3', 'x'),
    module: fc.constantFrom('m1', 'fuzz', '../m', 'a/b', ''),
    plan: fc.constantFrom('.forge/modules/modules.json', 'docs/plans/good.md', 'missing.json', ...READ_ONLY_PATHS),
    cwd: fc.constantFrom('', '.', 'src', 'missing-dir', '\u0000'),
    'run-id': fc.constantFrom(...VALID_RUN_IDS, ...BAD_RUN_IDS),
  };
  const junk = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(RAW('1e400'), RAW('-1e400'), RAW('99999999999999999999999'), RAW('-0'), RAW('1E-400')),
    fc.constantFrom(-1, 0, 0.5, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, -(2 ** 31), 1e308),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.constantFrom(LONG_TEXT, '\0', 'true', 'false', '1', 'null', '[]', '{}', '{"a":1}'),
    fc.constantFrom(RAW(`${'['.repeat(5000)}${']'.repeat(5000)}`), RAW(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`), nested(40)),
    fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'a'), fc.jsonValue({ maxDepth: 1 })),
  );
  // Random values for cmd would be shell commands, and random run ids could name paths: both stay in their pools.
  if (key === 'cmd' || key === 'run-id' || key === 'runId') return plausible[key === 'runId' ? 'run-id' : key]!;
  return Object.hasOwn(plausible, key) ? fc.oneof({ weight: 3, arbitrary: plausible[key]! }, { weight: 2, arbitrary: junk }) : junk;
}

/** Keys no command has, some of them Object.prototype's own. */
const ALIEN_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', 'unknown', 'PATH'];

/** Lines that are not a JSON object, or not UTF-8; none holds \n or \r (readline ends a line at either). */
const JUNK_LINES: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '[]',
    '[1,2]',
    '1',
    '"s"',
    'null',
    'true',
    '{"a":1}{"b":2}',
    '{"path":"x",}',
    "{'path':'x'}",
    `{"x":${'['.repeat(20_000)}`,
    Buffer.from('\ufeff{}'),
  ),
  fc
    .uint8Array({ minLength: 1, maxLength: 40 })
    .map((b) => Buffer.concat([Buffer.from('{"path":"'), Buffer.from(b.filter((x) => x !== 10 && x !== 13)), Buffer.from('"}')])),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map((t) => t.replace(/[\r\n]/g, ' ')),
);

type Edit = { set: string; value: unknown } | { del: number } | { alien: string; value: unknown };

/**
 * A request: one of the command's valid requests with a few fields set to odd values, removed, or
 * joined by keys it does not have — so most cases get past validation into the command — or a junk line.
 */
function requestArb(
  templates: Array<Record<string, unknown>>,
  keys: string[],
  readOnly: boolean,
): fc.Arbitrary<{ fields?: Record<string, unknown>; text?: string | Buffer }> {
  const settable = [
    ...keys,
    'cwd',
    'run-id',
    ...keys.filter((k) => k.includes('-')).map((k) => k.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())),
  ];
  const edit: fc.Arbitrary<Edit> = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...settable).chain((k) => valueArb(k, readOnly).map((value) => ({ set: k, value }))) },
    { weight: 1, arbitrary: fc.nat().map((del) => ({ del })) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...ALIEN_KEYS), fc.jsonValue({ maxDepth: 2 })).map(([alien, value]) => ({ alien, value })),
    },
  );
  const fields = fc.tuple(fc.constantFrom(...templates), fc.array(edit, { maxLength: 3 })).map(([template, edits]) => {
    const out: Record<string, unknown> = { ...template };
    for (const e of edits) {
      if ('del' in e) delete out[Object.keys(out)[e.del % Math.max(1, Object.keys(out).length)]!];
      else
        Object.defineProperty(out, 'set' in e ? e.set : e.alien, { value: e.value, enumerable: true, configurable: true, writable: true });
    }
    return out;
  });
  return fc.oneof(
    { weight: 6, arbitrary: fields.map((f) => ({ fields: f })) },
    { weight: 1, arbitrary: JUNK_LINES.map((t) => ({ text: t })) },
  );
}

/** Commands fuzzed over NDJSON, with valid requests to start from; `writes` says where an answer reports what it wrote. */
const TARGETS: Array<{ name: string; templates: Array<Record<string, unknown>>; writes?: (answer: Record<string, any>) => unknown[] }> = [
  {
    name: 'read',
    templates: [
      { path: 'README.md' },
      { path: 'docs/notes.txt', start: 3, end: 9 },
      { path: 'src/app.py', symbols: true },
      { path: 'src/util.ts', blame: true },
    ],
  },
  {
    name: 'edit',
    templates: [
      { path: 'docs/notes.txt', old: 'line 3 of the notes', new: 'line three' },
      { path: 'src/app.py', old: 'return 0', new: 'return 1', all: true },
      { path: 'docs/notes.txt', lines: '4-5', delete: true },
      { path: 'crlf.txt', after: '1', new: 'inserted' },
    ],
    writes: (a) => [a.path],
  },
  {
    name: 'write',
    templates: [
      { path: 'fuzz-written.txt', content: 'x' },
      { path: 'docs/notes.txt', content: 'replaced\n', overwrite: true },
    ],
    writes: (a) => [a.path],
  },
  {
    name: 'patch',
    templates: SLOPPY.slice(0, 8).map((diff) => ({ diff })),
    writes: (a) => (a.files ?? []).flatMap((f: { path: string; from?: string }) => [f.path, f.from]),
  },
  {
    name: 'search',
    templates: [
      { pattern: 'main' },
      { pattern: 'line', paths: ['docs'], limit: 3 },
      { pattern: '(', literal: true },
      { pattern: 'DEF', glob: '*.py', 'ignore-case': true },
    ],
  },
  { name: 'ls', templates: [{}, { glob: '**/*.ts' }, { limit: 1 }] },
  {
    name: 'memory save',
    templates: [
      { pattern: 'fuzzing finds what tests miss' },
      { pattern: 'run make test', category: 'test_command', confidence: 0.9, tag: ['make'] },
    ],
    writes: () => [],
  },
  { name: 'memory recall', templates: [{ query: 'fuzz' }, { query: 'make', scope: 'project', limit: 2, category: 'test_command' }] },
  {
    name: 'iter update',
    templates: [
      { module: 'm1', status: 'failed', 'run-id': 'fuzz-1' },
      { module: 'm1', status: 'passed', score: 0.5, issue: ['a'], 'root-cause': 'b', 'run-id': 'fuzz-1' },
    ],
    writes: () => [],
  },
  { name: 'iter get', templates: [{ module: 'm1', 'run-id': 'fuzz-1' }] },
  { name: 'plan check', templates: [{}, { path: ['docs/plans/good.md'], strict: true }, { path: ['.forge/plans'] }] },
  {
    name: 'validate',
    templates: [
      { module: 'm1', cmd: ['true'], 'run-id': 'fuzz-1' },
      { module: 'm1', file: ['src/app.py', 'src/util.ts'], 'run-id': 'fuzz-1' },
      { module: 'm1', plan: '.forge/modules/modules.json', 'run-id': 'fuzz-1' },
    ],
    writes: () => [],
  },
];

test('NDJSON requests: wrong types, huge numbers, prototype keys and junk lines are clean errors for every command', async () => {
  const specs = leaves(entries);
  // Read-only commands share the fixture; each writing command gets its own copy.
  const batches = TARGETS.map((target, t) => {
    const spec = specs.find((s) => s.name === target.name)!;
    const cases = sample(requestArb(target.templates, Object.keys(spec.args), !target.writes), 40, 10 + t);
    const lines = [
      rawJson({ ...target.templates[0], id: 1 }),
      ...cases.map((c, i) => (c.text !== undefined ? c.text : rawJson({ ...c.fields, id: i + 2 }))),
    ];
    const cwd = target.writes ? join(sandbox, `ndjson-${t}`) : root;
    if (target.writes) cpSync(root, cwd, { recursive: true, verbatimSymlinks: true });
    return { target, cases, lines, cwd, copy: target.writes ? `ndjson-${t}/` : null };
  });
  const before = snapshot(sandbox);
  const results = await Promise.all(batches.map((b) => batch({ cwd: b.cwd, command: b.target.name.split(' '), lines: b.lines })));
  const changed = changedFiles(before, snapshot(sandbox));
  const problems: string[] = [];
  batches.forEach(({ target, cases, cwd, copy }, t) => {
    const r = results[t]!;
    problems.push(...r.problems);
    if (r.answers.get(1)?.ok !== true)
      problems.push(`forge ${target.name}: the valid first request failed: ${JSON.stringify(r.answers.get(1))}`);
    if (!copy) return;
    // What the answers say was written, resolved against each request's own cwd.
    const allowed = new Set<string>();
    for (const [n, answer] of r.answers) {
      if (!answer.ok) continue;
      const request = n === 1 ? target.templates[0]! : (cases[n - 2]?.fields ?? {});
      const base = resolve(cwd, typeof request.cwd === 'string' ? request.cwd : '.');
      for (const p of target.writes!(answer)) if (typeof p === 'string') allowed.add(relative(sandbox, resolve(base, p)));
    }
    for (const p of changed.filter((c) => c.startsWith(copy)))
      if (!allowed.has(p) || p.includes('/.git/')) problems.push(`forge ${target.name} changed ${p}, which no answer reported`);
  });
  // Outside the copies of the writing commands nothing may change at all.
  problems.push(...changed.filter((p) => !/^ndjson-\d+\//.test(p)).map((p) => `${p} changed (by a read-only command, or outside a copy)`));
  report('NDJSON', problems);
});

test.run();
