// forge plan check on hostile plans: alias bombs, odd keys and nesting are findings at file:line:col; devices and FIFOs are never read.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { filledTemplate } from '../helpers/plans';
import { forge } from '../helpers/forge';
import { tempRepo } from '../helpers/repo';

const GOOD = filledTemplate({ slug: 'demo', date: '2026-01-01' });

/** The findings of one plan whose frontmatter starts with `front` (before the real fields). */
async function check(plan: string): Promise<{ code: number; findings: string[] }> {
  const dir = tempRepo();
  mkdirSync(join(dir, 'docs', 'plans'), { recursive: true });
  writeFileSync(join(dir, 'docs', 'plans', 'p.md'), plan);
  const r = await forge(['plan', 'check', '--json'], { cwd: dir });
  return { code: r.code, findings: r.records.filter((x) => x.type === 'error').map((x) => `${x.line}:${x.col} ${x.code} ${x.message}`) };
}

const inFront = (lines: string) => GOOD.replace('---\n', `---\n${lines}\n`);

test('an alias bomb, an unknown anchor, an alias inside its own anchor and thousands of aliases are YAML_ERROR findings', async () => {
  const bomb = [
    'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
    ...'bcdefghi'.split('').map((n, k) => `${n}: &${n} [${Array(9).fill(`*${'abcdefghi'[k]}`).join(', ')}]`),
  ].join('\n');
  assert.equal(await check(inFront(bomb)), {
    code: 1,
    findings: ['3:8 YAML_ERROR the aliases expand too far (over 50 copies): anchors and aliases may repeat a value, not multiply it'],
  });
  assert.equal((await check(inFront('x: *nowhere'))).findings, ["2:4 YAML_ERROR alias '*nowhere' names no anchor set before it"]);
  assert.equal((await check(inFront('x: &s [1, *s]'))).findings, [
    "2:11 YAML_ERROR alias '*s' inside the node its anchor names: the value would contain itself",
  ]);
  const many = ['x: &x 1', ...Array.from({ length: 5000 }, (_, i) => `y${i}: *x`)].join('\n');
  assert.equal((await check(inFront(many))).findings, ['103:7 YAML_ERROR 5000 aliases: a plan may use at most 100']);
  const block = GOOD.replace(
    'allowed_tools: [read, edit, patch, search, ls]',
    `allowed_tools: [read, edit, patch, search, ls]\nx:\n${'- '.repeat(20_000)}1`,
  );
  const deep = (await check(block)).findings;
  // Where the stack gives out decides the column yaml can name; the line is the block's or the nesting's.
  assert.ok(deep.length === 1 && /^3[56]:\d+ YAML_ERROR nested too deeply$/.test(deep[0]!), deep.join('\n'));
});

test('duplicate keys and the keys of Object.prototype are findings', async () => {
  assert.equal(
    (await check(GOOD.replace('  plan_contract_version: 1', '  plan_contract_version: 1\n  plan_contract_version: 2'))).findings,
    ["7:3 YAML_ERROR duplicate key 'plan_contract_version': map keys must be unique"],
  );
  const proto = await check(
    GOOD.replace('  plan_contract_version: 1', '  plan_contract_version: 1\n  __proto__: {polluted: true}\n  constructor: 1'),
  );
  assert.equal(proto.findings, [
    "7:3 UNKNOWN_FIELD unknown field 'envelope.__proto__' (known: plan_id, plan_contract_version, parent_rails, parent_blast_radius, requirements)",
    "8:3 UNKNOWN_FIELD unknown field 'envelope.constructor' (known: plan_id, plan_contract_version, parent_rails, parent_blast_radius, requirements)",
  ]);
});

test('a FIFO given as --path is PLAN_NOT_FOUND, a device or a file outside the work tree or in .git is refused; a FIFO named like a plan is not read', async () => {
  const dir = tempRepo();
  mkdirSync(join(dir, 'docs', 'plans'), { recursive: true });
  execFileSync('mkfifo', [join(dir, 'docs', 'plans', 'fifo.md')]);
  // Reading a FIFO or /dev/zero never ends: the file's time limit would end it.
  const run = (args: string[]) => forge(['plan', 'check', '--json', ...args], { cwd: dir });
  const fifo = await run(['--path', 'docs/plans/fifo.md']);
  assert.equal([fifo.code, fifo.records[0]!.error.code], [2, 'PLAN_NOT_FOUND']);
  // A plan lives in the work tree: a device, a file elsewhere or one of git's is refused before it is read.
  for (const [path, code, exit] of [
    ['/dev/zero', 'PATH_OUTSIDE_REPO', 2],
    ['/etc/passwd', 'PATH_OUTSIDE_REPO', 2],
    ['.git/config', 'PATH_IN_GIT_DIR', 1],
  ] as const) {
    const r = await run(['--path', path]);
    assert.equal([r.code, r.records[0]!.error.code], [exit, code], path);
    assert.not.match(r.stdout, /root:|repositoryformatversion/, path);
  }
  const activate = await forge(['plan', 'activate', '--path', '/etc/passwd', '--json'], { cwd: dir });
  assert.equal([activate.code, activate.records[0]!.error.code], [2, 'PATH_OUTSIDE_REPO']);
  const all = await run([]);
  assert.equal([all.code, all.records.at(-1)!.plans], [0, 0], 'the FIFO in docs/plans is skipped');
});

test.run();
