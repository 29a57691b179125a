// Runs one command in-process exactly as the CLI would — for MCP tool calls (NDJSON) and the agent's tools (text).
import type { Writable } from 'node:stream';
import type { ArgsSpec, CommandSpec, Entry } from './declare';
import { bytesSource } from './input';
import { main } from './main';
import { leaves } from './registry';

/** A stream that keeps what is written to it; node:stream is loaded by the first in-process call, not by every command's start-up. */
export async function collector(): Promise<Writable & { readonly text: string }> {
  const { Writable } = await import('node:stream');
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return Object.defineProperty(stream, 'text', { get: () => text }) as Writable & { readonly text: string };
}

/** One in-process call: its arguments, where it runs, and how its caller can stop it or watch it. */
export interface CallOptions {
  args: Record<string, unknown>;
  cwd: string;
  env: NodeJS.ProcessEnv;
  json: boolean;
  signal?: AbortSignal;
  onProgress?: (text: string) => void;
}

export interface Invocation {
  code: number;
  stdout: string;
  stderr: string;
}

/** `--name=value` words for the arguments (the `=` form keeps values that start with '-' values). */
function argvOf(spec: CommandSpec<any>, args: Record<string, unknown>): string[] {
  const words: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    const s = (spec.args as ArgsSpec)[name];
    if (value === undefined || value === null) continue;
    if (s?.type === 'boolean') {
      if (value === true) words.push(`--${name}`);
    } else if (Array.isArray(value)) {
      for (const v of value) words.push(`--${name}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
    } else words.push(`--${name}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  }
  return words;
}

/**
 * `json`: the arguments go in as one NDJSON request and NDJSON comes out (`echo '{…}' | forge cmd`);
 * otherwise as flags, and the text rendering with its hint lines comes out — leaner for a model.
 */
export async function invoke({
  entries,
  spec,
  args,
  cwd,
  env,
  json,
  signal,
  onProgress,
}: { entries: readonly Entry[]; spec: CommandSpec<any> } & CallOptions): Promise<Invocation> {
  const [stdout, stderr] = [await collector(), await collector()];
  const stdin = bytesSource(json ? [Buffer.from(`${JSON.stringify(args)}\n`)] : []);
  const words = json ? ['--json'] : argvOf(spec, args);
  const code = await main({
    entries,
    argv: ['node', 'forge', ...spec.name.split(' '), ...words],
    env: json ? { ...env, FORGE_JSON: '1' } : { ...env, FORGE_JSON: undefined, NO_COLOR: '1' },
    cwd,
    stdin,
    stdout,
    stderr,
    ...(signal ? { signal } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/**
 * A command by name, its arguments as an NDJSON request, and its last record parsed (the summary,
 * or the error record) — null when it printed none (a crash): for callers that act on the answer.
 */
export async function invokeForRecord<T>({
  entries,
  name,
  args,
  cwd,
  env,
}: {
  entries: readonly Entry[];
  name: string;
  args: Record<string, unknown>;
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<Invocation & { record: T | null }> {
  const spec = leaves(entries).find((s) => s.name === name);
  if (!spec) throw new Error(`no command '${name}' in the registry`);
  const r = await invoke({ entries, spec, args, cwd, env, json: true });
  let record: T | null = null;
  try {
    record = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '') as T;
  } catch {
    // Nothing parseable on stdout: the caller falls back on stderr.
  }
  return { ...r, record };
}
