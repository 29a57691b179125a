// Walks every registered command through its declared examples and an error path, checking hint markers and following every hint.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { entries } from '../../commands/index';
import type { CommandSpec } from '../../lib/cli/declare';
import { leaves } from '../../lib/cli/registry';
import { planTemplate } from '../../lib/plans/template';
import { FORGE, forgeEnv } from './forge';
import { reply, startOpenAIServer } from './openai-server';
import { git, tempDir, tempRepo } from './repo';
import { ownChild } from './owner';

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

/** Text that is data (CommandSpec.dataOutput): no hint line on either stream (an example may send the data to a file or to eval). */
function dataMarker(stdout: string, stderr: string): string | null {
  return [stdout, stderr].some((s) => /^(?:Next:|Or:|Wait:|Done\.$)/m.test(s)) ? null : 'data';
}

/** Every JSON record of a response carries _next_action, except streamed items before the summary. */
function jsonMarker(stdout: string): string | null {
  const records = stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const last = records.at(-1);
  if (!last || !('_next_action' in last)) return null;
  if (records.slice(0, -1).some((r) => !('type' in r) && !('_next_action' in r))) return null;
  return last._next_action === null ? 'null' : '_next_action';
}

/** The files of the walker's project, by path. */
const PROJECT: Record<string, string> = {
  'README.md':
    [
      '# greeter',
      '',
      'A small HTTP server that greets whoever asks. See [usage](docs/usage.md) and [setup](docs/setup.md).',
      '',
      'TODO: document the PORT variable.',
      '',
      ...Array.from({ length: 54 }, (_, i) => `Paragraph ${i + 1} of the README.`),
    ].join('\n') + '\n',
  'PROMPT.md': 'Make `npm test` pass, fixing one failing test at a time.\n',
  'src/app.ts':
    [
      'import { env } from "node:process";',
      '',
      'export const port = 3000;',
      '',
      'export function greet(name: string): string {',
      '  return "Hello, " + name;',
      '}',
    ].join('\n') + '\n',
  'src/server.ts':
    [
      'import { createServer } from "node:http";',
      'import { greet, port } from "./app";',
      '',
      'createServer((req, res) => {',
      '  res.end(greet("world"));',
      '}).listen(port, () => console.log("listening on " + port));',
    ].join('\n') + '\n',
  'docs/plans/2026-03-02-rate-limit-plan.md': planTemplate({ slug: 'rate-limit', date: '2026-03-02' }),
};

/**
 * A repository with an origin remote and some state, where every example can run. `extra` joins
 * the environment: the model endpoint a followed `forge agent` hint talks to, the editor.
 */
export function fixture(extra: Record<string, string> = {}): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = tempRepo();
  // The project the examples are written for, as a reader's might be: a README of a realistic length
  // with links into docs/, a loop's prompt, a small server in src/ (edited and patched by the
  // examples in registry order: each matches the file as the examples before left it), a plan.
  for (const [path, content] of Object.entries(PROJECT)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'a project: README, prompt, server, plan');
  git(dir, 'remote', 'add', 'origin', tempRepo({ bare: true }));
  git(dir, 'remote', 'add', 'backup', tempRepo({ bare: true }));
  const bin = tempDir('forge-walker-bin-');
  mkdirSync(bin, { recursive: true });
  if (!existsSync(join(bin, 'forge'))) symlinkSync(FORGE, join(bin, 'forge'));
  const env = forgeEnv({ PATH: `${bin}:${process.env.PATH}`, ...extra });
  return { dir, env };
}

/**
 * The hints of a response: Next/Or/Fix lines of text (stdout, then stderr), or _next_action /
 * _or_action of every JSON record. Not `Wait:`, which is a condition, not a command.
 */
export function hintsOf(stdout: string, stderr: string, json: boolean): string[] {
  const found: string[] = [];
  if (json) {
    for (const line of stdout.split('\n').filter(Boolean)) {
      try {
        const r = JSON.parse(line) as Record<string, unknown>;
        for (const k of ['_next_action', '_or_action']) if (typeof r[k] === 'string') found.push(r[k] as string);
      } catch {
        // not a record: the marker check reports it
      }
    }
  } else {
    for (const stream of [stdout, stderr]) for (const m of stream.matchAll(/^(?:Next|Or|Fix): (.+)$/gm)) found.push(m[1]!);
  }
  return [...new Set(found)];
}

/**
 * What makes a hint a placeholder instead of a command: a `<…>` slot, an ellipsis, or the dummy
 * words a hint writes when it does not know the real value.
 */
const PLACEHOLDER =
  /<[^<>\s][^<>]*>|…|\.\.\.|\b(describe (a|the) task|(the )?next task|the task|OLD with NEW|placeholder|your[-_ ](task|file|plan|path|id))\b/i;
/** Markers of unfinished text, in capitals only (a file may well be called todo.md). */
const UNFINISHED = /\b(TODO|FIXME|XXX)\b/;
/** A help text's metavariable standing for a flag's value: `--model NAME`, `--endpoint URL`. */
const METAVARIABLE = /\s--[a-z][a-z-]*[ =](NAME|URL|PATH|FILE|ID|TASK|N|VAR)(?=\s|$)/;

export function placeholderIn(hint: string): string | null {
  return PLACEHOLDER.exec(hint)?.[0] ?? UNFINISHED.exec(hint)?.[0] ?? METAVARIABLE.exec(hint)?.[0]?.trim() ?? null;
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program with stdin closed; a run that outlives `timeoutMs` is killed (status null). */
function run(program: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = ownChild(spawn(program, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true }), { group: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (b: string) => (stdout += b));
    child.stderr.setEncoding('utf8').on('data', (b: string) => (stderr += b));
    // A hint that waits for a person (an editor, a prompt) must not hold the walk: kill its group.
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone already
      }
    }, timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ status: code, stdout, stderr });
    });
    child.stdin.end();
  });
}

/**
 * Follows a hint in the state its response left: in a copy of the fixture (so following it changes
 * nothing the next example sees), through bash as a user would paste it. Exit 2 means the hint
 * itself is not a working command (bad flags, a missing argument, a usage error, a file that is not there).
 */
export async function follow(hint: string, dir: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  // Help reads nothing: no copy needed.
  if (/^forge [\w -]+ --help$/.test(hint)) {
    const r = await run('bash', ['-c', hint], dir, env);
    return { status: r.status, output: `${r.stdout}${r.stderr}` };
  }
  const copy = tempDir('forge-walker-follow-');
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  try {
    const r = await run('bash', ['-c', hint.split(dir).join(copy)], copy, env);
    return { status: r.status, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** Every hint of a response is a full command: no placeholder, and followed in the same state it neither exits 2 nor hangs. */
async function hintChecks(command: string, label: string, hints: string[], dir: string, env: NodeJS.ProcessEnv): Promise<Check[]> {
  const checks: Check[] = [];
  for (const hint of hints) {
    const slot = placeholderIn(hint);
    if (slot) {
      checks.push({
        command,
        case: `${label} → hint ${hint}`,
        ok: false,
        marker: 'placeholder',
        detail: `the hint has a placeholder: ${slot}`,
      });
      continue;
    }
    const r = await follow(hint, dir, env);
    const ok = r.status !== 2 && r.status !== null;
    checks.push({
      command,
      case: `${label} → hint ${hint}`,
      ok,
      marker: 'followed',
      detail: ok ? '' : `followed, it ${r.status === null ? 'did not end' : `exits ${r.status}`}\n${r.output}`,
    });
  }
  return checks;
}

function sh(command: string, dir: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  // jq may be missing on a fresh machine: run the forge part of a jq pipeline.
  const runnable = command.replace(/ \| jq .*$/, '');
  return run('bash', ['-c', runnable], dir, env);
}

/**
 * Runs every command's examples and an unknown flag in one fixture, in registry order, and
 * follows each hint they give. A scripted model answers every chat request with a short reply, so
 * a `forge agent` hint runs as it would with a model configured; EDITOR and VISUAL are `true`.
 */
export async function walk(): Promise<Check[]> {
  const model = await startOpenAIServer({
    script: Array.from({ length: 500 }, () => reply({ text: 'Nothing to change.', usage: { prompt_tokens: 10, completion_tokens: 3 } })),
  });
  const { dir, env } = fixture({ FORGE_ENDPOINT: model.url, FORGE_MODEL: 'test-model', EDITOR: 'true', VISUAL: 'true' });
  const checks: Check[] = [];
  try {
    for (const spec of leaves(entries) as CommandSpec<any>[]) {
      for (const ex of spec.examples) {
        const r = await sh(ex.command, dir, env);
        // A hook adapter answers in its caller's format on stdout; its hint is on stderr.
        const json =
          / --json\b/.test(ex.command) || (/^echo '\{/.test(ex.command) && !/ (--)?hook (claude|codex|gemini|opencode)\b/.test(ex.command));
        let marker: string | null = null;
        try {
          // A command whose text is data (a script, a schema) ends with the data: no hint anywhere.
          marker = json ? jsonMarker(r.stdout) : spec.dataOutput ? dataMarker(r.stdout, r.stderr) : textMarker(r.stdout, r.stderr);
        } catch {
          marker = null;
        }
        // forge mcp is a protocol server: with its stdin empty it ends at once, without a word (no hint to follow).
        const server = spec.name === 'mcp';
        const ok = server ? r.status === 0 && r.stdout === '' && r.stderr === '' : marker !== null && (r.status === 0 || r.status === 1);
        checks.push({
          command: spec.name,
          case: `example: ${ex.command}`,
          ok,
          marker: marker ?? '-',
          detail: ok ? '' : `exit ${r.status}\n${r.stdout}${r.stderr}`,
        });
        checks.push(...(await hintChecks(spec.name, `example: ${ex.command}`, hintsOf(r.stdout, r.stderr, json), dir, env)));
      }
      for (const json of [false, true]) {
        const r = await run(process.execPath, [FORGE, ...spec.name.split(' '), '--no-such-flag', ...(json ? ['--json'] : [])], dir, env);
        let marker: string | null = null;
        try {
          marker = json
            ? jsonMarker(r.stdout) === '_next_action'
              ? 'error record'
              : null
            : /^Error: .+\nFix: .+\n$/.test(r.stderr)
              ? 'Error/Fix'
              : null;
        } catch {
          marker = null;
        }
        // A hook that drives an agent fails open: its invocation errors exit 0 (exit 2 would keep the agent going).
        const ok = marker !== null && r.status === (spec.failsOpen ? 0 : 2);
        checks.push({
          command: spec.name,
          case: `error${json ? ' (json)' : ''}: unknown flag`,
          ok,
          marker: marker ?? '-',
          detail: ok ? '' : `exit ${r.status}\n${r.stdout}${r.stderr}`,
        });
        checks.push(
          ...(await hintChecks(spec.name, `error${json ? ' (json)' : ''}: unknown flag`, hintsOf(r.stdout, r.stderr, json), dir, env)),
        );
      }
    }
  } finally {
    await model.close();
  }
  return checks;
}
