// Fuzz (seeded, bounded, many cases per process of the built binary): plans — the template and the fixture's, mutated line by line and the YAML ways — are findings, never INTERNAL, a hang or a write.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { test } from '../helpers/harness';
import { planTemplate } from '../../lib/plans/template';
import { batch, changedFiles, FIXTURE, report, root, sample, sandbox, snapshot } from '../helpers/fuzz';
import { mutate, type Op, opArb, READ_ONLY_PATHS, WEIRD_PATHS } from '../helpers/fuzz-mutations';

/** YAML an attacker or a confused model puts in a plan's frontmatter or envelope blocks. */
const YAML_LINES = fc.constantFrom(
  'bomb: &a [x, x, x, x, x, x, x, x, x]',
  `b: &b [${Array(9).fill('*a').join(', ')}]`,
  `c: &c [${Array(9).fill('*b').join(', ')}]`,
  `d: [${Array(9).fill('*c').join(', ')}]`,
  'self: &s [*s]',
  'loop: &l {me: *l}',
  'missing: *nowhere',
  'fn: !!js/function "function () { return process.exit(1) }"',
  're: !!js/regexp /a+$/',
  'bin: !!binary aGVsbG8=',
  'set: !!set {a, b}',
  'when: !!timestamp 2001-12-14t21:59:43.10-05:00',
  'custom: !custom {x: 1}',
  'tagged: !<tag:yaml.org,2002:str> x',
  'plan_id: twice',
  'plan_contract_version: 1e400',
  'plan_contract_version: 99999999999999999999999',
  'files_changed: -1',
  'tokens: .inf',
  'runs: .nan',
  '__proto__: {polluted: true}',
  'constructor: {prototype: {polluted: true}}',
  'toString: 1',
  '<<: {allowed_tools: [bash]}',
  '? [complex, key]\n: 1',
  `deep: ${'['.repeat(5000)}`,
  `deeper: ${'- '.repeat(3000)}x`,
  '%YAML 1.1',
  '--- !!map',
  '...',
  '"unterminated',
  '\tallowed_tools: [bash]',
  'allowed_tools: [read, edit, patch, write, search, ls, bash, deploy]',
  'allowed_paths: ["**", "/etc/**", "../**"]',
  'surface: remote_branch_pr',
  '### U9 — an added unit',
  '```envelope',
  '```',
  '---',
  'envelope: *missing',
  'envelope: [1, 2]',
  'envelope: null',
);

function planSeeds(): string[] {
  const template = planTemplate({ slug: 'fuzz', date: '2026-01-01' });
  return [
    template,
    String(FIXTURE['docs/plans/good.md']),
    '# a legacy plan\n\nno envelope at all\n',
    template.replace(/```envelope[\s\S]*?```/g, ''),
  ];
}

test('plans: mutated Markdown contracts and JSON module plans are findings, never a crash, hang or write', async () => {
  const seeds = planSeeds();
  const arb = fc.tuple(
    fc.constantFrom(...seeds),
    fc.array(
      fc.oneof(
        { weight: 3, arbitrary: opArb(['**', ...WEIRD_PATHS], YAML_LINES) },
        { weight: 2, arbitrary: fc.record({ op: fc.constant('insert' as const), i: fc.nat(), line: YAML_LINES }) },
      ),
      { minLength: 1, maxLength: 5 },
    ),
  );
  const plans: Array<string | Buffer> = sample(arb, 300, 3).map(([seed, ops]) => mutate(seed, ops as Op[]));
  // Bytes that are not UTF-8, and module plans (.json) through the same YAML reader.
  plans.push(
    ...sample(fc.uint8Array({ maxLength: 300 }), 15, 4).map((b) =>
      Buffer.concat([Buffer.from('---\nenvelope:\n  plan_id: '), Buffer.from(b), Buffer.from('\n---\n')]),
    ),
  );
  const modules = sample(
    fc.tuple(
      fc.constant(String(FIXTURE['.forge/modules/modules.json'])),
      fc.array(opArb(WEIRD_PATHS, YAML_LINES), { minLength: 1, maxLength: 3 }),
    ),
    40,
    5,
  ).map(([seed, ops]) => mutate(seed, ops));
  const dir = join(root, 'fuzz-plans');
  mkdirSync(dir);
  const files = [...plans.map((p, i) => [`p${i}.md`, p] as const), ...modules.map((m, i) => [`m${i}.json`, m] as const)];
  for (const [name, content] of files) writeFileSync(join(dir, name), content);
  const paths = [...files.map(([name]) => `fuzz-plans/${name}`), ...READ_ONLY_PATHS, ...WEIRD_PATHS];
  const lines = paths.map((path, i) => JSON.stringify({ id: i + 1, path: [path], ...(i % 7 === 0 ? { strict: true } : {}) }));
  const before = snapshot(sandbox);
  const r = await batch({ cwd: root, command: ['plan', 'check'], lines });
  const problems = [...r.problems, ...changedFiles(before, snapshot(sandbox)).map((p) => `plan check changed ${p}`)];
  rmSync(dir, { recursive: true, force: true });
  report('plan check', problems);
});

test.run();
