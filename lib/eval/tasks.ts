// forge eval's tasks: one folder each — task.json (the prompt, the verify commands, the targets) and setup.sh, which makes the fixture repository without the network.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError } from '../errors';

export interface EvalTask {
  /** The folder's name: what --task picks and the table shows. */
  name: string;
  dir: string;
  /** What the agent is asked, as a user would type it. */
  prompt: string;
  /** Shell commands run in the fixture after the agent exits: the task succeeded when every one exits 0. */
  verify: string[];
  /** What the task should take at most, shown beside the figures (the design's targets). */
  targets: { toolCalls?: number; tokens?: number };
  /** Where the task comes from: a design target, an issue thread, a project's history. */
  source: string;
  /** Seconds the agent gets before it is stopped and the run fails. */
  timeoutSeconds: number;
}

const KEYS = new Set(['prompt', 'verify', 'targets', 'source', 'timeout']);
const TASK_NAME = /^[a-z0-9][a-z0-9._-]*$/;

/** Checks one task.json the way a user reads the message: the file, the key, what it must be. */
function readTask(name: string, dir: string, text: string): EvalTask {
  const file = join(dir, 'task.json');
  const fail = (what: string) =>
    new InvalidInputError('EVAL_TASK_INVALID', `${file}: ${what}`, { fix: `forge eval --list --suite ${join(dir, '..')}` });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw fail(`not JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('a task is a JSON object');
  const task = value as Record<string, unknown>;
  for (const key of Object.keys(task)) if (!KEYS.has(key)) throw fail(`unknown key '${key}' (keys: ${[...KEYS].join(', ')})`);
  if (typeof task.prompt !== 'string' || !task.prompt.trim()) throw fail("'prompt' must be the task's text");
  const verify = typeof task.verify === 'string' ? [task.verify] : task.verify;
  if (!Array.isArray(verify) || !verify.length || !verify.every((c) => typeof c === 'string' && c.trim()))
    throw fail("'verify' must be a shell command or a list of them: how the task's success is decided");
  const targets = task.targets ?? {};
  if (typeof targets !== 'object' || targets === null || Array.isArray(targets)) throw fail("'targets' must be an object");
  for (const [key, n] of Object.entries(targets))
    if (!['toolCalls', 'tokens'].includes(key) || typeof n !== 'number' || !(n > 0))
      throw fail(`'targets.${key}' is not a target (toolCalls or tokens, a positive number)`);
  const timeout = task.timeout ?? 600;
  if (typeof timeout !== 'number' || !(timeout > 0)) throw fail("'timeout' must be a number of seconds");
  if (task.source !== undefined && typeof task.source !== 'string') throw fail("'source' must be text");
  return {
    name,
    dir,
    prompt: task.prompt.trim(),
    verify: verify as string[],
    targets: targets as EvalTask['targets'],
    source: (task.source as string | undefined) ?? '',
    timeoutSeconds: timeout,
  };
}

/** Every task of a suite folder, by name; a folder without task.json is no task. */
export async function loadSuite({ suiteDir }: { suiteDir: string }): Promise<EvalTask[]> {
  const entries = await readdir(suiteDir, { withFileTypes: true }).catch(() => {
    throw new InvalidInputError('EVAL_TASK_INVALID', `no suite at '${suiteDir}'`, { fix: 'forge eval --list' });
  });
  const tasks: EvalTask[] = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const dir = join(suiteDir, entry.name);
    const text = await readFile(join(dir, 'task.json'), 'utf8').catch(() => null);
    if (text === null) continue;
    if (!TASK_NAME.test(entry.name))
      throw new InvalidInputError('EVAL_TASK_INVALID', `'${entry.name}' is not a task name (lower-case letters, digits, . _ -)`, {
        fix: `forge eval --list --suite ${suiteDir}`,
      });
    const task = readTask(entry.name, dir, text);
    if (!(await stat(join(dir, 'setup.sh')).catch(() => null))?.isFile())
      throw new InvalidInputError('EVAL_TASK_INVALID', `${join(dir, 'setup.sh')}: missing; it makes the task's fixture`, {
        fix: `forge eval --list --suite ${suiteDir}`,
      });
    tasks.push(task);
  }
  return tasks;
}

/** The tasks `names` pick, in the suite's order; an unknown name is refused with the names there are. */
export function pickTasks({ tasks, names }: { tasks: EvalTask[]; names: string[] }): EvalTask[] {
  if (!names.length) return tasks;
  for (const name of names)
    if (!tasks.some((t) => t.name === name))
      throw new InvalidInputError('UNKNOWN_TASK', `no task '${name}' (tasks: ${tasks.map((t) => t.name).join(', ')})`, {
        fix: 'forge eval --list',
      });
  return tasks.filter((t) => names.includes(t.name));
}
