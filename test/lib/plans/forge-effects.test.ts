// Every forge command has a reading for the plan gate, and the reading of its arguments is the same from a command line and from named arguments.
import * as assert from 'uvu/assert';
import { FORGE_ARGS } from '../../../lib/plans/forge-args.gen';
import { forgeArgsOf, forgeCommand, forgeEffects } from '../../../lib/plans/forge-effects';
import { test } from '../../helpers/harness';

test('every command the registry has is read on purpose: none falls to "no reading of"', () => {
  const missing = Object.keys(FORGE_ARGS).filter((c) => /no reading of/.test(forgeEffects(c, {}).cannot ?? ''));
  assert.equal(missing, [], 'add each to EFFECTS in lib/plans/forge-effects.ts');
});

test('a command line and named arguments read alike', () => {
  const cases: Array<[string[], string, Record<string, unknown>]> = [
    [['validate', 'm', '--cmd', 'a', '--cmd=b'], 'validate', { module: 'm', cmd: ['a', 'b'] }],
    [['search', 'TODO', 'src', 'docs', '-i'], 'search', { pattern: 'TODO', paths: ['src', 'docs'] }],
    [['loop', 'run', '--prompt', 'go', '--', 'claude', '-p'], 'loop run', { prompt: 'go', agent: ['claude', '-p'] }],
    [['state', 'sync', '--dry-run'], 'state sync', { 'dry-run': true }],
  ];
  for (const [words, command, named] of cases) {
    const parsed = forgeArgsOf(words);
    assert.is(parsed.command, command, words.join(' '));
    assert.equal(forgeEffects(command, parsed.args), forgeEffects(command, named), words.join(' '));
  }
});

test("an MCP tool's name, in any spelling, is the command", () => {
  assert.equal(['plan_ack', 'plan-ack', 'plan ack', 'state_sync', 'read', 'frobnicate'].map(forgeCommand), [
    'plan ack',
    'plan ack',
    'plan ack',
    'state sync',
    'read',
    null,
  ]);
});

test.run();
