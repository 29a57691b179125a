// One test file as its own process group: a private temp directory, a time limit, its report read back, and whatever it left running killed and named.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ENV, type ReportEvent, TSX_CACHE } from './protocol';

export interface FileResult {
  file: string;
  /** timed out (a test ran into its limit, or the file into its own), else failed (a test failed, the file left something behind, or it exited non-zero), else passed. */
  status: 'passed' | 'failed' | 'timed out';
  passed: number;
  failed: string[];
  timedOut: string[];
  wallMs: number;
  /** The file's process and the children it waited for; 0 when it was killed before it could say. */
  cpuMs: number;
  /** What went wrong beyond a failing test: the limit, a non-zero exit, processes or temp files left behind. */
  problems: string[];
  /** Its stdout and stderr (the tail, when long). */
  output: string;
}

export interface FileRun {
  file: string;
  /** What node runs for it: the file as JavaScript (scripts/testing/build.ts). */
  module: string;
  env: NodeJS.ProcessEnv;
  /** A directory of this run's own, for the file's temp directory and report. */
  workDir: string;
  fileTimeoutMs: number;
  /** Lets the runner stop every file at once (Ctrl-C). */
  onStart?: (child: ChildProcess) => void;
}

const OUTPUT_LIMIT = 256 * 1024;

/** Runs a test file (as JavaScript) under node, in a process group of its own, and waits for everything in it to be gone. */
/** A file's name as one path component: its temp directory, report and coverage are named by it. */
export const slugOf = (file: string) => file.replace(/[^\w.-]+/g, '_');

export function runFile({ file, module, env, workDir, fileTimeoutMs, onStart }: FileRun): Promise<FileResult> {
  const slug = slugOf(file);
  const tmp = join(workDir, `${slug}.tmp`);
  const reportPath = join(workDir, `${slug}.ndjson`);
  mkdirSync(tmp, { recursive: true });
  const started = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', module], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, [ENV.tmpdir]: tmp, [ENV.report]: reportPath },
  });
  onStart?.(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > OUTPUT_LIMIT * 2) output = `…\n${output.slice(-OUTPUT_LIMIT)}`;
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let killedAtLimit = false;
  const limit = setTimeout(() => {
    killedAtLimit = true;
    killGroup(child.pid!);
  }, fileTimeoutMs);

  return new Promise((resolve) => {
    child.on('error', (err) => keep(Buffer.from(`cannot start node: ${err.message}\n`)));
    // 'exit', not 'close': a process left behind may hold the pipes open, and is this file's to kill.
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      const problems: string[] = [];
      const survivors = groupMembers(child.pid!);
      if (survivors.length) {
        killGroup(child.pid!);
        if (!killedAtLimit) problems.push(`left running after it exited: ${survivors.join('; ')}`);
      }
      const leftover = existsSync(tmp) ? readdirSync(tmp).filter((e) => !TSX_CACHE.test(e)) : [];
      if (leftover.length && !killedAtLimit) problems.push(`left in its temp directory: ${leftover.slice(0, 5).join(', ')}`);
      rmSync(tmp, { recursive: true, force: true });
      const report = readReport(reportPath);
      const timedOut = [...report.timedOut];
      if (killedAtLimit) {
        problems.push(`killed with its process group after ${fileTimeoutMs / 1000} s`);
        if (report.running) timedOut.push(report.running);
      } else if (report.heldBy) problems.push(`did not exit after its tests: held by ${report.heldBy.join(', ') || 'nothing Node names'}`);
      else if (code !== 0 && report.failed.length + report.timedOut.length === 0)
        problems.push(signal ? `killed by ${signal}` : `exited ${code}`);
      if (report.ends === 0 && !killedAtLimit && code === 0)
        problems.push('reported no test (does it import test from test/helpers/harness and call test.run()?)');
      // The pipes end once every process holding them is gone.
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        file,
        status: timedOut.length || killedAtLimit ? 'timed out' : report.failed.length || problems.length ? 'failed' : 'passed',
        passed: report.passed,
        failed: report.failed,
        timedOut,
        wallMs: performance.now() - started,
        cpuMs: report.cpuMs,
        problems,
        output,
      });
    });
  });
}

interface Report {
  passed: number;
  ends: number;
  failed: string[];
  timedOut: string[];
  /** The test that started and never ended (the one a killed file was running). */
  running: string | null;
  cpuMs: number;
  /** What kept the process alive after its last test, when something did. */
  heldBy: string[] | null;
}

/** The harness's events (test/helpers/harness.ts): start, end, file-end, exit. */
function readReport(path: string): Report {
  const report: Report = { passed: 0, ends: 0, failed: [], timedOut: [], running: null, cpuMs: 0, heldBy: null };
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return report;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    let event: ReportEvent;
    try {
      event = JSON.parse(line);
    } catch {
      continue; // a line cut by a kill
    }
    if (event.event === 'start') report.running = event.name;
    else if (event.event === 'end') {
      report.running = null;
      report.ends++;
      if (event.ok) report.passed++;
      else if (event.timedOut) report.timedOut.push(event.name);
      else report.failed.push(event.name);
    } else if (event.event === 'exit') report.cpuMs = event.cpuMs;
    else if (event.event === 'held') report.heldBy = event.resources;
  }
  return report;
}

/** The live processes of a process group, each as `pid (command line)`: Linux's /proc; zombies do not count. */
export function groupMembers(pgid: number): string[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const members: string[] = [];
  for (const pid of pids) {
    try {
      // After the command name: state, ppid, pgrp.
      const [state, , pgrp] = readFileSync(`/proc/${pid}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ');
      if (Number(pgrp) !== pgid || state === 'Z') continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 100);
      members.push(`${pid} (${command})`);
    } catch {
      // gone while we looked
    }
  }
  return members;
}

export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // nothing left in it
  }
}
