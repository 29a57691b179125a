// forge as an MCP client: a profile's servers started over stdio, their tools offered to the model as <server>.<tool>, all stopped at the end.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import pkg from '../../package.json' with { type: 'json' };
import type { ToolSchema } from './chat-types';
import type { McpServerConfig } from './config-types';
import { type StartTimeout, wallClock } from '../timeout';

/** A server that has not answered initialize and tools/list by then is skipped: the session must not wait on it. */
export const MCP_START_TIMEOUT_MS = 10_000;
/** A tool call that takes longer than this fails (the SDK's own default). */
export const MCP_CALL_TIMEOUT_MS = 60_000;
/** Servers describe tools at length; a small model pays for every word on every turn. */
export const MCP_DESCRIPTION_CHARS = 300;
/** What OpenAI and Anthropic accept as a function name: no dots, at most 64 characters. */
export const WIRE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const STDERR_KEEP = 2000;
/** Pages of tools/list read at most: a server that pages forever must not hang the start. */
const MAX_PAGES = 20;

export interface McpTool {
  /** `<server>.<tool>`: what forge shows and logs. */
  name: string;
  /** `<server>__<tool>` made to match WIRE_NAME: what the model is sent and calls. */
  wireName: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  description: string;
  /** The tool's input JSON Schema. */
  parameters: Record<string, unknown>;
}

export interface McpWarning {
  server: string;
  reason: string;
  /** The config key to fix, e.g. `profiles.local.mcp_servers[1].command`. */
  key: string;
  /** One line for the user: the server, the reason, the key (and the file). */
  message: string;
}

export interface McpCallResult {
  ok: boolean;
  text: string;
}

export interface McpServers {
  tools: McpTool[];
  /** The servers that started, with their process ids (null once a server is gone). */
  servers: Array<{ name: string; pid: number | null; tools: number }>;
  /** The tools as the model gets them, named by wireName. */
  schemas(): ToolSchema[];
  /** True for a tool's name or wireName. */
  has(name: string): boolean;
  /** Calls a tool by name or wireName; failures (unknown tool, server gone, timeout, isError) are ok:false results, never throws. */
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<McpCallResult>;
  /** Stops every server: stdin closed, then SIGTERM, then SIGKILL for one that lingers (the SDK's sequence). */
  close(): Promise<void>;
}

interface Running {
  config: McpServerConfig;
  client: Client;
  transport: StdioClientTransport;
  /** The end of what the server wrote to stderr. */
  stderr: () => string;
  closing: boolean;
}

type Listed = Awaited<ReturnType<typeof listTools>>;
type Warn = (server: string, reason: string, key: string) => void;

/**
 * One server started in `cwd` and its tools listed within `timeoutMs`; null (with one warning
 * naming the config key to fix) when it cannot be spawned, exits, or does not answer in time.
 */
async function startServer({
  sdk,
  config,
  key,
  cwd,
  env,
  timeoutMs,
  startTimeout,
  warn,
}: {
  sdk: typeof import('./mcp-sdk');
  config: McpServerConfig;
  key: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  startTimeout: StartTimeout;
  warn: Warn;
}): Promise<{ running: Running; tools: Listed } | null> {
  const dir = resolve(cwd, config.cwd ?? '.');
  if (!isDirectory(dir)) {
    warn(config.name, `its cwd '${dir}' is not a directory`, `${key}.cwd`);
    return null;
  }
  const transport = new sdk.StdioClientTransport({
    command: config.command[0]!,
    args: config.command.slice(1),
    env: { ...definedOnly(env), ...config.env },
    cwd: dir,
    stderr: 'pipe',
  });
  let stderr = '';
  // Drained so a chatty server never blocks on a full pipe; the end explains a crash.
  transport.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP)));
  const client = new sdk.Client({ name: 'forge', version: pkg.version }, { capabilities: {} });
  // A line of stdout that is not JSON-RPC (a server logging to stdout) is not worth a crash.
  client.onerror = () => {};
  let phase = 'initialize';
  const work = (async () => {
    await client.connect(transport);
    phase = 'tools/list';
    return listTools(client);
  })();
  work.catch(() => {});
  let cancelTimeout = () => {};
  const deadline = new Promise<never>((_, reject) => {
    cancelTimeout = startTimeout(timeoutMs, () => reject(new StartTimedOut()));
  });
  try {
    const tools = await Promise.race([work, deadline]);
    return { running: { config, client, transport, stderr: () => stderr, closing: false }, tools };
  } catch (err) {
    kill(transport.pid);
    await client.close().catch(() => {});
    const reason = failure({ err, phase, command: config.command[0]!, stderr, timeoutMs });
    warn(config.name, reason.text, reason.command ? `${key}.command` : key);
    return null;
  } finally {
    cancelTimeout();
  }
}

/**
 * Starts every server at once in `cwd` (a server's `cwd` is relative to it) with `env` plus the
 * server's own `env`, and lists their tools. A server that cannot be spawned, exits, or does not
 * answer initialize and tools/list within `timeoutMs` is killed and skipped with exactly one
 * warning; the others go on. A server that exits later gets one warning too, and calls to it fail.
 * `configKey` (and `configPath`) say where the servers were configured, for the warnings.
 */
export async function startMcpServers({
  servers,
  cwd,
  env,
  timeoutMs = MCP_START_TIMEOUT_MS,
  startTimeout = wallClock,
  onWarning = () => {},
  configKey = 'mcp_servers',
  configPath,
}: {
  servers: readonly McpServerConfig[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** The clock `timeoutMs` runs on (tests pass one they expire). */
  startTimeout?: StartTimeout;
  onWarning?: (warning: McpWarning) => void;
  configKey?: string;
  configPath?: string;
}): Promise<McpServers> {
  const warn: Warn = (server, reason, key) =>
    onWarning({
      server,
      reason,
      key,
      message: `MCP server '${server}' skipped: ${reason}; fix ${key}${configPath ? ` in ${configPath}` : ''}`,
    });
  if (!servers.length) return session([], []);
  // Loaded only when a profile has servers: most runs never pay for the SDK.
  const sdk = await import('./mcp-sdk');
  const started = await Promise.all(
    servers.map((config, i) => startServer({ sdk, config, key: `${configKey}[${i}]`, cwd, env, timeoutMs, startTimeout, warn })),
  );
  const ok = started.filter((s) => s !== null);
  for (const { running } of ok) {
    running.client.onclose = () => {
      if (!running.closing)
        onWarning({
          server: running.config.name,
          reason: `it exited${stderrLine(running.stderr())}`,
          key: `${configKey}[${servers.indexOf(running.config)}]`,
          message: `MCP server '${running.config.name}' exited during the session${stderrLine(running.stderr())}; its tools now fail`,
        });
    };
  }
  const tools = nameTools(ok.map(({ running, tools: listed }) => ({ server: running.config.name, listed })));
  return session(
    ok.map((s) => s.running),
    tools,
  );
}

function session(running: Running[], tools: McpTool[]): McpServers {
  const byName = new Map<string, McpTool>();
  for (const t of tools) byName.set(t.name, t).set(t.wireName, t);
  const clients = new Map(running.map((r) => [r.config.name, r]));
  return {
    tools,
    get servers() {
      return running.map((r) => ({
        name: r.config.name,
        pid: r.transport.pid,
        tools: tools.filter((t) => t.server === r.config.name).length,
      }));
    },
    schemas: () =>
      tools.map((t) => ({ type: 'function', function: { name: t.wireName, description: t.description, parameters: t.parameters } })),
    has: (name) => byName.has(name),
    async call(name, args, { signal, timeoutMs = MCP_CALL_TIMEOUT_MS } = {}) {
      const tool = byName.get(name);
      if (!tool)
        return { ok: false, text: `Error: no MCP tool '${name}'. MCP tools: ${tools.map((t) => t.wireName).join(', ') || 'none'}` };
      const r = clients.get(tool.server)!;
      try {
        const result = await r.client.callTool({ name: tool.tool, arguments: args }, { signal, timeout: timeoutMs });
        return { ok: !result.isError, text: resultText(result) };
      } catch (err) {
        return { ok: false, text: `Error: MCP tool ${tool.name} failed: ${(err as Error).message}` };
      }
    },
    async close() {
      await Promise.all(
        running.map(async (r) => {
          r.closing = true;
          await r.client.close().catch(() => {});
        }),
      );
    },
  };
}

async function listTools(
  client: Client,
): Promise<Array<{ name: string; description?: string; title?: string; inputSchema: Record<string, unknown> }>> {
  const tools = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...r.tools);
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

/** Display names, wire names unique across servers (a clash after sanitising gets a number), lean descriptions and schemas. */
function nameTools(servers: Array<{ server: string; listed: Awaited<ReturnType<typeof listTools>> }>): McpTool[] {
  const taken = new Set<string>();
  const out: McpTool[] = [];
  for (const { server, listed } of servers) {
    for (const t of listed) {
      const base = `${server}__${t.name}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
      let wireName = base;
      for (let n = 2; taken.has(wireName); n++) wireName = `${base.slice(0, 64 - String(n).length - 1)}_${n}`;
      taken.add(wireName);
      // `$schema` says nothing to a model, and some OpenAI-compatible servers refuse it.
      const { $schema: _ignored, ...parameters } = t.inputSchema;
      out.push({
        name: `${server}.${t.name}`,
        wireName,
        server,
        tool: t.name,
        description: lean(t.description ?? t.title ?? ''),
        parameters,
      });
    }
  }
  return out;
}

function lean(description: string): string {
  const one = description.replace(/\s+/g, ' ').trim();
  return one.length > MCP_DESCRIPTION_CHARS ? `${one.slice(0, MCP_DESCRIPTION_CHARS - 1)}…` : one;
}

type Content = {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
};

/** Text parts joined; other parts as a one-line summary, since the model cannot see an image through a tool result. */
function resultText(result: Record<string, unknown>): string {
  if ('toolResult' in result) return JSON.stringify(result.toolResult);
  const parts = ((result.content as Content[] | undefined) ?? []).map((c) => {
    switch (c.type) {
      case 'text':
        return c.text ?? '';
      case 'image':
      case 'audio':
        return `[${c.type} ${c.mimeType ?? ''}, ${base64Bytes(c.data ?? '')} bytes]`;
      case 'resource':
        return (
          c.resource?.text ??
          `[resource ${c.resource?.uri ?? ''}${c.resource?.mimeType ? ` ${c.resource.mimeType}` : ''}, ${base64Bytes(c.resource?.blob ?? '')} bytes]`
        );
      case 'resource_link':
        return `[resource link ${c.uri ?? ''}${c.name ? ` (${c.name})` : ''}]`;
      default:
        return `[${c.type} content]`;
    }
  });
  if (!parts.length && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n') || '(no content)';
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

class StartTimedOut extends Error {}

function failure({
  err,
  phase,
  command,
  stderr,
  timeoutMs,
}: {
  err: unknown;
  phase: string;
  command: string;
  stderr: string;
  timeoutMs: number;
}): { text: string; command: boolean } {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT')
    return { text: `cannot start '${command}': ${command.includes('/') ? 'no such file' : 'not found on PATH'}`, command: true };
  if (code === 'EACCES') return { text: `cannot start '${command}': not executable`, command: true };
  const said = stderrLine(stderr);
  if (err instanceof StartTimedOut) return { text: `no answer to ${phase} within ${timeoutMs / 1000} s${said}`, command: false };
  // The SDK rejects pending requests with "Connection closed" when the process exits.
  if (/connection closed/i.test((err as Error).message)) return { text: `it exited before answering ${phase}${said}`, command: false };
  return { text: `${phase} failed: ${(err as Error).message}${said}`, command: false };
}

function stderrLine(stderr: string): string {
  const last = stderr.trim().split('\n').at(-1)?.trim();
  return last ? ` (it said: ${last.slice(0, 200)})` : '';
}

function kill(pid: number | null): void {
  if (pid === null) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
