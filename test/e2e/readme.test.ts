// The README's plan walkthrough, run as written: its commands come from README.md itself, so a README that drifts fails.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { FORGE, forgeEnv } from '../helpers/forge';
import { tempDir, tempRepo } from '../helpers/repo';

interface Step {
  /** The command line after `$ `, its comment cut off. */
  command: string;
  /** From `# exit N…` in its comment; 0 when the comment names none. */
  exit: number;
  /** The lines printed under it in the README: each must be a line of its output, in this order. */
  shown: string[];
}

/** The first ```sh block of a README section, as steps: `$ command   # comment` lines and the output under each. */
function walkthrough(readme: string, heading: string): Step[] {
  const at = readme.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `README.md has no section '${heading}'`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
  const steps: Step[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('$ ')) {
      // A comment starts at a `#` after two spaces; the commands of this block quote no `  #`.
      const [command, comment = ''] = line.slice(2).split(/\s{2,}# /);
      steps.push({ command: command!.trim(), exit: Number(/^exit (\d)/.exec(comment)?.[1] ?? 0), shown: [] });
    } else if (line.trim()) {
      assert.ok(steps.length, `output before the first command: ${line}`);
      steps.at(-1)!.shown.push(line);
    }
  }
  return steps;
}

/** Whether `shown` is a subsequence of the output's lines. */
function inOrder(output: string, shown: string[]): boolean {
  const lines = output.split('\n');
  let at = 0;
  for (const want of shown) {
    while (at < lines.length && lines[at] !== want) at++;
    if (at === lines.length) return false;
    at++;
  }
  return true;
}

test("the README's plan walkthrough runs as written from forge plan new in a fresh repository", () => {
  const steps = walkthrough(readFileSync('README.md', 'utf8'), '## Plan contracts: a gate for any agent');
  assert.ok(steps.length >= 8, `only ${steps.length} commands found in the walkthrough`);
  assert.is(steps[0]!.command.split(' ').slice(0, 3).join(' '), 'forge plan new', 'it starts from a plan a user can make');
  const dir = tempRepo();
  const bin = tempDir('forge-readme-bin-');
  mkdirSync(bin, { recursive: true });
  symlinkSync(FORGE, join(bin, 'forge'));
  const env = forgeEnv({ PATH: `${bin}:${process.env.PATH}` });
  for (const step of steps) {
    const r = spawnSync('bash', ['-c', step.command], { cwd: dir, env, encoding: 'utf8', input: '' });
    const output = `${r.stdout}${r.stderr}`;
    assert.is(r.status, step.exit, `$ ${step.command}\n${output}`);
    assert.ok(inOrder(output, step.shown), `$ ${step.command}: the README shows\n${step.shown.join('\n')}\nbut it printed\n${output}`);
    if (/ --json$/.test(step.command))
      assert.ok(
        r.stdout
          .trim()
          .split('\n')
          .every((l) => JSON.parse(l)._next_action !== undefined || JSON.parse(l).type === 'entry'),
        'NDJSON records',
      );
  }
});

test.run();
