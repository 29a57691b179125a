// Shared by the bench scripts: the median of a run's timings, and the CPU time and peak memory of one process.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

/** One process to time: a command with its arguments, where it runs, and what it reads on stdin. */
export interface Run {
  cmd: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  input?: string;
  /** Exit codes that are answers, not failures (git grep's 1: nothing matched). */
  okCodes?: number[];
}

/**
 * Wall and CPU time of one run, in ms. CPU comes from bash's `time`, whose user and sys figures
 * are getrusage(RUSAGE_CHILDREN): the process and every process it waited for (forge's git
 * children included), to the millisecond — what to compare on a shared, noisy machine.
 */
export function timeRun(r: Run): { wall: number; cpu: number } {
  const script = 'TIMEFORMAT="%3R %3U %3S"; { time "$@" >/dev/null 2>&4; } 4>&2 2>&1';
  const p = spawnSync('bash', ['-c', script, 'bash', r.cmd, ...r.args], { cwd: r.cwd, env: r.env, input: r.input ?? '', encoding: 'utf8' });
  if (p.status !== 0 && !(r.okCodes ?? []).includes(p.status ?? -1))
    throw new Error(`${r.cmd} ${r.args.join(' ')} failed (${p.status}): ${p.stderr}`);
  const [wall, user, sys] = p.stdout.trim().split('\n').pop()!.split(' ').map(Number);
  return { wall: wall! * 1000, cpu: (user! + sys!) * 1000 };
}

/** Peak RSS in MiB (GNU time's %M: the largest of the process and the children it waited for); null without /usr/bin/time. */
export function peakRssMiB(r: Run): number | null {
  if (!existsSync('/usr/bin/time')) return null;
  const p = spawnSync('/usr/bin/time', ['-f', '%M', r.cmd, ...r.args], {
    cwd: r.cwd,
    env: r.env,
    input: r.input ?? '',
    encoding: 'utf8',
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  if (p.status !== 0 && !(r.okCodes ?? []).includes(p.status ?? -1))
    throw new Error(`${r.cmd} ${r.args.join(' ')} failed (${p.status}): ${p.stderr}`);
  return Number(p.stderr.trim().split('\n').pop()) / 1024;
}
