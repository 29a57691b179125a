// Seeded fuzz of Claude Code hook payloads through the built binary: no INTERNAL, no hang, no exit 2 from the Stop hook, nothing changed.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import { ownChild } from '../helpers/owner';
import * as assert from 'uvu/assert';
import { FORGE, forge, forgeEnv } from '../helpers/forge';
import { changedPaths, repoWith, tempDir, tempRepo, treeHashes } from '../helpers/repo';
import { seeded } from '../helpers/seeded';
import { oneUnitPlan } from '../helpers/plans';

/** FORGE_FUZZ_SEED replays a failure; the default keeps CI deterministic. */
const SEED = Number(process.env.FORGE_FUZZ_SEED ?? 13);
/** Cases per group: a few hundred per hook, split between nothing active and something active. */
const CASES = 150;

class Gen {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = seeded(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  /** Text built from pieces that trip parsers: control bytes, escapes, line ends, surrogates, the loop's control words. */
  text(max = 40, { controlWords = true } = {}): string {
    const words = controlWords
      ? ['FORGE_COMPLETE', 'FORGE_PAUSE', 'RALPH_COMPLETE', '<promise>DONE</promise>']
      : ['FORGE_COMPLETED', 'PAUSE', '<promise>'];
    const pieces = [
      ...words,
      'a',
      'Z',
      ' ',
      '\t',
      '\n',
      '\r',
      '\r\n',
      '\u0000',
      '\u0007',
      '\u001b[31m',
      '\u001b[0m',
      '\u2028',
      '\ufeff',
      'é',
      '日本',
      '\ud800',
      '\udfff',
      '😀',
      '"',
      '\\',
      '{',
      '}',
      '[',
      ']',
      ':',
      ',',
      'null',
      '..',
      '/',
      '%s',
      '${x}',
      '$(id)',
    ];
    let s = '';
    for (let i = this.int(max); i > 0; i--) s += this.pick(pieces);
    return s;
  }
}

interface Fixture {
  /** Regular transcripts, a FIFO, links to special files, a directory, a missing path: what transcript_path may name. */
  transcripts: string[];
  /** Paths a tool call may name: inside the repository, outside, special files. */
  paths: string[];
}

const CONTROL_MESSAGES = [
  'FORGE_COMPLETE',
  'step\nFORGE_COMPLETE',
  'step\r FORGE_COMPLETE',
  'x\rFORGE_PAUSE',
  'FORGE_PAUSE',
  'ok\r\nFORGE_COMPLETE\r\n',
  '<promise>DONE</promise>',
  'working',
  '',
  '   ',
];

function value(g: Gen, key: string, f: Fixture): unknown {
  const wrong = () => g.pick<unknown>([null, true, 0, -1, 1e308, [], {}, [g.text()], { a: g.text() }]);
  if (g.chance(0.08)) return wrong();
  switch (key) {
    case 'session_id':
      // Mostly the session the loop is bound to, so the hook gets past the binding to do its work.
      return g.chance(0.6)
        ? 'fuzz'
        : g.pick(['other', '', 'null', 'undefined', '  ', ' fuzz ', 'a\nb', '../../x', 'x'.repeat(500), g.text(8)]);
    case 'transcript_path':
      return g.pick([...f.transcripts, '', 'relative.jsonl', 'x'.repeat(5000), '/nonexistent/\u0000/t.jsonl', g.text(10)]);
    case 'last_assistant_message':
      // Control words mostly in the messages built to test them, so a loop lives long enough to be fuzzed.
      return g.chance(0.15) ? g.pick(CONTROL_MESSAGES) : g.text(80, { controlWords: false });
    case 'stop_hook_active':
      return g.pick([true, false, 'true', 1]);
    case 'cwd':
      return g.pick([...f.paths, '/', '', 'relative', g.text(10)]);
    case 'tool_name':
      return g.pick([
        'Read',
        'Edit',
        'Write',
        'MultiEdit',
        'NotebookEdit',
        'Bash',
        'Grep',
        'Glob',
        'LS',
        'TodoWrite',
        'WebFetch',
        'mcp__srv__tool',
        '',
        ' ',
        g.text(10),
      ]);
    case 'tool_input': {
      if (g.chance(0.1)) return g.pick<unknown>(['x', 7, [], null]);
      const input: Record<string, unknown> = {};
      for (const k of ['file_path', 'notebook_path', 'path', 'command', 'content', 'old_string', 'new_string', 'pattern']) {
        if (!g.chance(0.4)) continue;
        input[k] =
          k === 'command'
            ? g.pick([
                'ls',
                'git commit -qm x',
                'git push origin HEAD',
                'gh pr create',
                'forge plan ack',
                'forge plan ack; rm -rf src',
                'forge plan status --json',
                g.text(30),
              ])
            : k.endsWith('path')
              ? g.pick([...f.paths, g.text(10)])
              : g.text(30);
        if (g.chance(0.05)) input[k] = wrong();
      }
      return input;
    }
    default:
      return g.text(20);
  }
}

const KEYS = {
  pre: ['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'permission_mode', 'tool_name', 'tool_input', 'tool_use_id'],
  stop: ['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'stop_hook_active', 'last_assistant_message'],
};

interface Case {
  payload: string;
  /** Not a JSON object (or, for PreToolUse, no usable tool_name): a payload the hook cannot read. */
  unreadable: boolean;
}

/** One payload: mostly hook-shaped objects with wrong, missing or hostile fields; some not JSON or not objects. */
function payload(g: Gen, hook: 'pre' | 'stop', f: Fixture): Case {
  const roll = g.int(100);
  if (roll < 12) {
    const junk = g.pick([
      g.text(60),
      '{',
      '{"session_id":',
      '',
      ' \n ',
      '\u0000',
      'nul\u0000l',
      '{"a":1}{"b":2}',
      '["unterminated',
      '['.repeat(50_000),
      '{"a":'.repeat(20_000),
    ]);
    return { payload: junk, unreadable: true };
  }
  if (roll < 20)
    return {
      payload: g.pick([
        'null',
        'true',
        '0',
        '-0',
        '1e999',
        '"FORGE_COMPLETE"',
        '[]',
        '[{"tool_name":"Write"}]',
        '"{}"',
        `[${'['.repeat(5000)}${']'.repeat(5001)}`,
      ]),
      unreadable: true,
    };
  const p: Record<string, unknown> = {};
  for (const key of KEYS[hook]) if (g.chance(0.8)) p[key] = value(g, key, f);
  if (hook === 'pre' && g.chance(0.7)) p.hook_event_name = 'PreToolUse';
  if (hook === 'stop' && g.chance(0.7)) p.hook_event_name = 'Stop';
  if (g.chance(0.1))
    p[g.pick(['__proto__', 'constructor', 'toString', g.text(5)])] = g.pick<unknown>([{ polluted: true }, g.text(5), null]);
  if (g.chance(0.02)) p.big = 'x'.repeat(2_000_000);
  let text = JSON.stringify(p);
  // __proto__ set by assignment is not an own key: write it into the text, as a hostile sender would.
  if (g.chance(0.05)) text = `{"__proto__":{"tool_name":"Write","session_id":"fuzz"}${text === '{}' ? '' : ','}${text.slice(1)}`;
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const unreadable = hook === 'pre' && (typeof parsed.tool_name !== 'string' || parsed.tool_name === '');
  return { payload: text, unreadable };
}

function cases(seed: number, hook: 'pre' | 'stop', f: Fixture, n: number): Case[] {
  const g = new Gen(seed);
  return Array.from({ length: n }, () => payload(g, hook, f));
}

/** A place with transcripts and special files outside the repository, named by the payloads. */
function fixture(repo: string): Fixture & { outside: string } {
  const outside = tempDir('forge-fuzz-outside-');
  const g = new Gen(SEED ^ 0x5eed);
  const line = () =>
    JSON.stringify(
      g.pick([
        { type: 'user', message: { role: 'user', content: g.text(20) } },
        { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: g.pick(CONTROL_MESSAGES) }] } },
        { type: 'assistant', message: { content: g.text(10) } },
        { type: 'assistant', isSidechain: true, message: { content: [{ type: 'text', text: 'FORGE_COMPLETE' }] } },
      ]),
    );
  const transcripts: string[] = [];
  for (let i = 0; i < 4; i++) {
    const file = join(outside, `t${i}.jsonl`);
    writeFileSync(
      file,
      Array.from({ length: 1 + g.int(8) }, () => (g.chance(0.15) ? g.text(30) : line())).join('\n') + (g.chance(0.5) ? '\n' : ''),
    );
    transcripts.push(file);
  }
  writeFileSync(join(outside, 'empty.jsonl'), '');
  // Past the 4 MiB tail: the hook reads only the end.
  writeFileSync(join(outside, 'huge.jsonl'), `${`${line()}\n`.repeat(Math.ceil((5 * 1024 * 1024) / 100))}${line()}\n`);
  execFileSync('mkfifo', [join(outside, 'fifo.jsonl')]);
  symlinkSync(join(outside, 'fifo.jsonl'), join(outside, 'link-fifo.jsonl'));
  symlinkSync('/dev/zero', join(outside, 'link-zero.jsonl'));
  mkdirSync(join(outside, 'dir.jsonl'));
  transcripts.push(
    join(outside, 'empty.jsonl'),
    join(outside, 'huge.jsonl'),
    join(outside, 'fifo.jsonl'),
    join(outside, 'link-fifo.jsonl'),
    join(outside, 'link-zero.jsonl'),
    join(outside, 'dir.jsonl'),
    '/dev/zero',
    '/dev/null',
    join(outside, 'missing.jsonl'),
  );
  const paths = [
    join(repo, 'src/a.ts'),
    join(repo, 'docs/x.md'),
    join(repo, '.git/config'),
    join(repo, '..'),
    'src/a.ts',
    '../../etc/passwd',
    '/etc/passwd',
    '/dev/zero',
    join(outside, 'fifo.jsonl'),
    repo,
    outside,
    '',
  ];
  return { outside, transcripts, paths };
}

interface Batch {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Many payloads in one forge process: one NDJSON request per payload, as the command allows. No
 * deadline of its own: a hang is the harness's per-test timeout (a batch's limit here would be
 * either under that, and trip on a slow machine, or over it, and never fire).
 */
function runBatch({
  dir,
  words,
  field,
  list,
}: {
  dir: string;
  words: string[];
  field: Record<string, string>;
  list: Case[];
}): Promise<Batch> {
  return new Promise((done, fail) => {
    const child = ownChild(spawn(process.execPath, [FORGE, ...words], { cwd: dir, env: forgeEnv(), stdio: ['pipe', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(list.map((c) => JSON.stringify({ ...field, payload: c.payload })).join('\n') + '\n');
  });
}

/** An internal error however it surfaces: an error record, a hook's stderr line, a deny or stop reason. */
const INTERNAL = /\bINTERNAL\b|internal error/;

const show = (c: Case) => JSON.stringify(c.payload.length > 300 ? `${c.payload.slice(0, 300)}…(${c.payload.length} chars)` : c.payload);

/** Checks one batch; on a failure, finds the first case that fails alone, so the report names a payload to replay. */
async function check({
  label,
  dir,
  words,
  field,
  list,
  ok,
}: {
  label: string;
  dir: string;
  words: string[];
  field: Record<string, string>;
  list: Case[];
  ok: (b: Batch, n: number) => string | null;
}): Promise<void> {
  const b = await runBatch({ dir, words, field, list });
  const problem = b.signal ? `killed by ${b.signal}` : INTERNAL.test(b.stdout + b.stderr) ? 'an INTERNAL error' : ok(b, list.length);
  if (problem === null) return;
  let culprit = '';
  for (const [i, c] of list.entries()) {
    const one = await runBatch({ dir, words, field, list: [c] });
    const alone = one.signal ? `killed by ${one.signal}` : INTERNAL.test(one.stdout + one.stderr) ? 'an INTERNAL error' : ok(one, 1);
    if (alone) {
      culprit = `\ncase ${i}: ${alone}\npayload ${show(c)}\nstdout ${one.stdout.slice(0, 500)}\nstderr ${one.stderr.slice(0, 500)}`;
      break;
    }
  }
  assert.unreachable(`${label} (seed ${SEED}): ${problem}${culprit || `\nno single case fails alone\nstderr ${b.stderr.slice(0, 1000)}`}`);
}

/** .git paths that legitimately change while something is active: the state ref, its objects, forge's lock dir. */
const stateFiles = (rel: string) => /^\.git\/(objects|refs\/forge|logs\/refs\/forge|forge)(\/|$)/.test(rel);

const answers = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);

const PLAN = oneUnitPlan({
  id: 'fuzz',
  title: 'fuzz',
  parentTools: ['read', 'edit', 'write', 'bash', 'search', 'ls'],
  unitTools: ['read', 'edit'],
  surface: 'local_branch',
});

test(`PreToolUse, no plan active (${CASES} payloads): every call allowed, exit 0, nothing written anywhere`, async () => {
  const repo = tempRepo();
  const outside = tempDir('forge-fuzz-norepo-');
  const f = fixture(repo);
  const list = cases(SEED, 'pre', f, CASES);
  const before = [repo, outside, f.outside].map((d) => treeHashes(d));
  const split = Math.floor(CASES * 0.8);
  for (const [dir, part] of [
    [repo, list.slice(0, split)],
    [outside, list.slice(split)],
  ] as const) {
    await check({
      label: `PreToolUse without a plan in ${dir}`,
      dir,
      words: ['plan', 'preflight'],
      field: { hook: 'claude' },
      list: part,
      ok: (b) => (b.code !== 0 ? `exit ${b.code}` : b.stdout !== '' ? `an answer other than allow: ${b.stdout.slice(0, 300)}` : null),
    });
  }
  [repo, outside, f.outside].forEach((d, i) => assert.equal(changedPaths(before[i]!, treeHashes(d)), [], `${d}: nothing written`));
});

test(`PreToolUse, a plan active (${CASES} payloads): exit 0, every answer allow or a deny, an unreadable payload always denied, the work tree untouched`, async () => {
  const repo = repoWith({ 'docs/plans/fuzz.md': PLAN, 'src/a.ts': 'export const a = 1;\n' });
  assert.is((await forge(['plan', 'activate', '--path', 'docs/plans/fuzz.md'], { cwd: repo })).code, 0);
  const f = fixture(repo);
  const list = cases(SEED + 1, 'pre', f, CASES);
  const before = [treeHashes(repo, stateFiles), treeHashes(f.outside)];
  const denies = (b: Batch) => {
    try {
      return answers(b.stdout).every(
        (a) => a.hookSpecificOutput?.permissionDecision === 'deny' && typeof a.hookSpecificOutput.permissionDecisionReason === 'string',
      )
        ? answers(b.stdout).length
        : -1;
    } catch {
      return -1;
    }
  };
  const readable = list.filter((c) => !c.unreadable);
  const unreadable = list.filter((c) => c.unreadable);
  await check({
    label: 'PreToolUse with a plan',
    dir: repo,
    words: ['plan', 'preflight'],
    field: { hook: 'claude' },
    list: readable,
    ok: (b) =>
      b.code !== 0 ? `exit ${b.code}` : denies(b) < 0 ? `an answer that is neither allow nor deny: ${b.stdout.slice(0, 300)}` : null,
  });
  await check({
    label: 'PreToolUse with a plan, unreadable payloads',
    dir: repo,
    words: ['plan', 'preflight'],
    field: { hook: 'claude' },
    list: unreadable,
    ok: (b, n) =>
      b.code !== 0 ? `exit ${b.code}` : denies(b) !== n ? `${denies(b)} denies for ${n} unreadable payloads: each must be denied` : null,
  });
  assert.ok(unreadable.length > 10, `the seed gives unreadable payloads (${unreadable.length})`);
  assert.equal(changedPaths(before[0]!, treeHashes(repo, stateFiles)), [], 'the work tree and .git, but for the state ref, unchanged');
  assert.equal(changedPaths(before[1]!, treeHashes(f.outside)), []);
});

test(`Stop, no loop active (${CASES} payloads): the session may stop, exit 0, nothing written anywhere`, async () => {
  const fresh = tempRepo();
  const paused = tempRepo();
  assert.is((await forge(['loop', 'start', '--prompt', 'fuzz'], { cwd: paused })).code, 0);
  assert.is((await forge(['loop', 'pause'], { cwd: paused })).code, 0);
  const outside = tempDir('forge-fuzz-norepo-');
  const f = fixture(fresh);
  const list = cases(SEED + 2, 'stop', f, CASES);
  const dirs = [fresh, paused, outside];
  const before = [...dirs, f.outside].map((d) => treeHashes(d));
  const third = Math.ceil(CASES / 3);
  for (const [i, dir] of dirs.entries()) {
    await check({
      label: `Stop without a loop in ${dir}`,
      dir,
      words: ['loop', 'hook'],
      field: { agent: 'claude' },
      list: list.slice(i * third, (i + 1) * third),
      ok: (b) => (b.code !== 0 ? `exit ${b.code}` : b.stdout !== '' ? `an answer: ${b.stdout.slice(0, 300)}` : null),
    });
  }
  [...dirs, f.outside].forEach((d, i) => assert.equal(changedPaths(before[i]!, treeHashes(d)), [], `${d}: nothing written`));
});

test(`Stop, a loop active (${CASES} payloads): never exit 2, every answer continue or stop, an unreadable payload never continues, the work tree untouched`, async () => {
  const repo = tempRepo();
  const f = fixture(repo);
  const list = cases(SEED + 3, 'stop', f, CASES);
  const before = [treeHashes(repo, stateFiles), treeHashes(f.outside)];
  const shaped = (b: Batch, unreadable: boolean) => {
    let all: Array<Record<string, any>>;
    try {
      all = answers(b.stdout);
    } catch {
      return `stdout that is not the hook's JSON: ${b.stdout.slice(0, 300)}`;
    }
    for (const a of all) {
      const cont = a.decision === 'block' && typeof a.reason === 'string' && typeof a.systemMessage === 'string';
      const stop = a.decision === undefined && typeof a.systemMessage === 'string';
      if (!cont && !stop) return `an answer that is neither continue nor stop: ${JSON.stringify(a).slice(0, 300)}`;
      if (unreadable && cont) return 'an unreadable payload continued the session';
    }
    return b.code === 2 ? 'exit 2, which tells Claude Code not to stop' : b.code !== 0 ? `exit ${b.code}` : null;
  };
  // A fresh loop every few payloads, so completion, pauses and the stuck rule do not end the fuzzing early.
  const CHUNK = 15;
  for (let i = 0; i < list.length; i += CHUNK) {
    await forge(['loop', 'cancel'], { cwd: repo });
    assert.is(
      (
        await forge(
          ['loop', 'start', '--prompt', 'fuzz the hook', '--max-iterations', '1000', '--completion-promise', 'DONE', '--session', 'fuzz'],
          { cwd: repo },
        )
      ).code,
      0,
    );
    const part = list.slice(i, i + CHUNK);
    // Unreadable payloads first, while the loop is surely active: each must say why the session stops, none may continue it.
    const unreadable = part.filter((c) => c.unreadable);
    if (unreadable.length)
      await check({
        label: `Stop with a loop, unreadable cases from ${i}`,
        dir: repo,
        words: ['loop', 'hook'],
        field: { agent: 'claude' },
        list: unreadable,
        ok: (b, n) =>
          shaped(b, true) ?? (answers(b.stdout).length !== n ? `${answers(b.stdout).length} answers for ${n} unreadable payloads` : null),
      });
    await check({
      label: `Stop with a loop, cases from ${i}`,
      dir: repo,
      words: ['loop', 'hook'],
      field: { agent: 'claude' },
      list: part.filter((c) => !c.unreadable),
      ok: (b) => shaped(b, false),
    });
  }
  assert.equal(changedPaths(before[0]!, treeHashes(repo, stateFiles)), [], 'the work tree and .git, but for the state ref, unchanged');
  assert.equal(changedPaths(before[1]!, treeHashes(f.outside)), [], 'the transcripts and special files outside, unchanged');
});

test.run();
