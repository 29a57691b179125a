// Walks every registered command through its declared examples and an error path, checking hint markers.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { entries } from '../../commands/index';
import type { CommandSpec } from '../../lib/cli/declare';
import { leaves } from '../../lib/cli/registry';
import { planTemplate } from '../../lib/plans/template';
import { FORGE, forgeEnv } from './forge';
import { git, tempDir, tempRepo } from './repo';

export interface Check {
  command: string;
  case: string;
  ok: boolean;
  marker: string;
  detail: string;
}

const MARKER = /^(Next: .+|Or: .+|Wait: .+|Done\.|Fix: .+)$/;

/** The last hint line of a text response (stdout, or stderr for errors and raw-content output). */
function textMarker(stdout: string, stderr: string): string | null {
  for (const stream of [stdout, stderr]) {
    const last = stream.trimEnd().split('\n').at(-1) ?? '';
    if (MARKER.test(last)) return last.split(' ')[0]!;
  }
  return null;
}

/** Every JSON record of a response carries _next_action, except streamed items before the summary. */
function jsonMarker(stdout: string): string | null {
  const records = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const last = records.at(-1);
  if (!last || !('_next_action' in last)) return null;
  if (records.slice(0, -1).some((r) => !('type' in r) && !('_next_action' in r))) return null;
  return last._next_action === null ? 'null' : '_next_action';
}

/** A repository with an origin remote and some state, where every example can run. */
export function fixture(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = tempRepo();
  // Examples read and search a README of a realistic length.
  writeFileSync(join(dir, 'README.md'), Array.from({ length: 60 }, (_, i) => `line ${i + 1} of the fixture README`).join('\n') + '\n');
  mkdirSync(join(dir, 'docs', 'plans'), { recursive: true });
  writeFileSync(join(dir, 'docs', 'plans', '2026-01-01-fixture-plan.md'), planTemplate({ slug: 'fixture', date: '2026-01-01' }));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'longer README, a plan');
  git(dir, 'remote', 'add', 'origin', tempRepo({ bare: true }));
  git(dir, 'remote', 'add', 'backup', tempRepo({ bare: true }));
  const bin = tempDir('forge-walker-bin-');
  mkdirSync(bin, { recursive: true });
  if (!existsSync(join(bin, 'forge'))) symlinkSync(FORGE, join(bin, 'forge'));
  const env = forgeEnv({ PATH: `${bin}:${process.env.PATH}` });
  return { dir, env };
}

function sh(command: string, dir: string, env: NodeJS.ProcessEnv) {
  // jq may be missing on a fresh machine: run the forge part of a jq pipeline.
  const runnable = command.replace(/ \| jq .*$/, '');
  return spawnSync('bash', ['-c', runnable], { cwd: dir, env, encoding: 'utf8', input: '' });
}

export function walk(): Check[] {
  const { dir, env } = fixture();
  const checks: Check[] = [];
  for (const spec of leaves(entries) as CommandSpec<any>[]) {
    for (const ex of spec.examples) {
      const r = sh(ex.command, dir, env);
      // A hook adapter answers in its caller's format on stdout; its hint is on stderr.
      const json = / --json\b/.test(ex.command) || (/^echo '\{/.test(ex.command) && !/ (--)?hook (claude|codex|gemini|opencode)\b/.test(ex.command));
      let marker: string | null = null;
      try {
        marker = json ? jsonMarker(r.stdout) : textMarker(r.stdout, r.stderr);
      } catch {
        marker = null;
      }
      const ok = marker !== null && (r.status === 0 || r.status === 1);
      checks.push({ command: spec.name, case: `example: ${ex.command}`, ok, marker: marker ?? '-', detail: ok ? '' : `exit ${r.status}\n${r.stdout}${r.stderr}` });
    }
    for (const json of [false, true]) {
      const r = spawnSync(process.execPath, [FORGE, ...spec.name.split(' '), '--no-such-flag', ...(json ? ['--json'] : [])], { cwd: dir, env, encoding: 'utf8', input: '' });
      let marker: string | null = null;
      try {
        marker = json ? (jsonMarker(r.stdout) === '_next_action' ? 'error record' : null) : /^Error: .+\nFix: .+\n$/.test(r.stderr) ? 'Error/Fix' : null;
      } catch {
        marker = null;
      }
      // A hook that drives an agent fails open: its invocation errors exit 0 (exit 2 would keep the agent going).
      const ok = marker !== null && r.status === (spec.failsOpen ? 0 : 2);
      checks.push({ command: spec.name, case: `error${json ? ' (json)' : ''}: unknown flag`, ok, marker: marker ?? '-', detail: ok ? '' : `exit ${r.status}\n${r.stdout}${r.stderr}` });
    }
  }
  return checks;
}
