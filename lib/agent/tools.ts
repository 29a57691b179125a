// The agent's tool set: its interface, bash, argument names models get wrong, and merging forge's tools with MCP servers'.
import { runShell } from '../process/program';
import type { ToolSchema } from './chat-types';

/**
 * Keys models write for a tool's arguments (Claude Code's, Aider's, OpenAI's names), each with the
 * arguments it may mean, first found in the tool wins. Compared lowercase without _ and -.
 */
const NEAR_MISSES: Record<string, string[]> = {
  filepath: ['path', 'paths'],
  file: ['path', 'paths'],
  filename: ['path', 'paths'],
  path: ['paths'],
  dir: ['paths'],
  directory: ['paths'],
  oldstring: ['old'],
  oldstr: ['old'],
  oldtext: ['old'],
  search: ['old', 'pattern'],
  find: ['old', 'pattern'],
  pattern: ['old'],
  query: ['pattern'],
  regex: ['pattern'],
  newstring: ['new'],
  newstr: ['new'],
  newtext: ['new'],
  replace: ['new'],
  replacement: ['new'],
  content: ['new'],
  text: ['content', 'new'],
  contents: ['content'],
  startline: ['start'],
  endline: ['end'],
  patch: ['diff'],
  include: ['glob'],
};

const fold = (key: string) => key.toLowerCase().replace(/[-_]/g, '');

/**
 * The arguments as the tool names them: a near miss (file_path, Path, old_string) taken as the
 * argument it means and noted; null and the key when one means nothing the tool has.
 */
export function mapKeys(
  args: Record<string, unknown>,
  names: string[],
): { args: Record<string, unknown>; notes: string[]; unknown: string | null } {
  const out: Record<string, unknown> = {};
  const notes: string[] = [];
  const exact = Object.keys(args).filter((k) => names.includes(k));
  for (const k of exact) out[k] = args[k];
  for (const [key, value] of Object.entries(args)) {
    if (names.includes(key)) continue;
    const f = fold(key);
    const to = names.find((n) => fold(n) === f) ?? NEAR_MISSES[f]?.find((n) => names.includes(n));
    if (!to) return { args: out, notes, unknown: key };
    if (to in out) {
      notes.push(`ignored '${key}': '${to}' given`);
      continue;
    }
    out[to] = value;
    notes.push(`took '${key}' as '${to}'`);
  }
  return { args: out, notes, unknown: null };
}

export const BASH_TOOL: ToolSchema = {
  type: 'function',
  function: {
    name: 'bash',
    description: 'Run a shell command at the repository top',
    parameters: {
      type: 'object',
      properties: { command: { type: 'string' }, timeout: { type: 'integer', description: 'Seconds (default 120).' } },
      required: ['command'],
    },
  },
};

/** Output a model gets from bash: the head and the tail, and every line that looks like an error in between. */
export const BASH_OUTPUT_CAP = 4000;

export function capOutput(text: string, cap = BASH_OUTPUT_CAP): string {
  if (text.length <= cap) return text;
  const lines = text.split('\n');
  const errors = lines.filter((l) => /error|fail|exception|traceback|panic|not found|denied/i.test(l));
  const head = text.slice(0, cap / 4);
  const tail = text.slice(-cap / 2);
  const middle = errors.join('\n').slice(0, cap / 4);
  return `${head}\n… [${text.length - head.length - tail.length} chars cut; error lines kept:]\n${middle}\n…\n${tail}`;
}

export interface AgentTools {
  schemas: ToolSchema[];
  run(name: string, args: Record<string, unknown>): Promise<{ text: string; ok: boolean }>;
  /** Whether the edits in `diff` (any form forge patch reads) are already in the files: a pasted edit that is, was shown, not left to make. */
  applied?(diff: string): Promise<boolean>;
}

/** bash at the repository top: its output capped for the model, with how it ended. */
export async function runBash({
  args,
  root,
  env,
}: {
  args: Record<string, unknown>;
  root: string;
  env: NodeJS.ProcessEnv;
}): Promise<{ text: string; ok: boolean }> {
  const command = typeof args.command === 'string' ? args.command : '';
  if (!command) return { ok: false, text: 'Error: bash needs {"command": "..."}' };
  const seconds = typeof args.timeout === 'number' && args.timeout > 0 ? args.timeout : 120;
  const r = await runShell({ command, cwd: root, timeoutMs: seconds * 1000, env, tailBytes: 64_000 });
  const status = r.timedOut ? `timed out after ${seconds} s` : `exit ${r.exitCode ?? r.signal}`;
  return { ok: r.exitCode === 0 && !r.timedOut, text: `${capOutput(r.tail.trimEnd())}\n[${status}]` };
}
/** One tool set from several (forge's own, then MCP servers'): the first that knows a name runs it. */
export function mergeTools(...sets: AgentTools[]): AgentTools {
  const owner = new Map<string, AgentTools>();
  for (const set of sets) for (const s of set.schemas) if (!owner.has(s.function.name)) owner.set(s.function.name, set);
  return {
    schemas: [...owner.keys()].map((name) => owner.get(name)!.schemas.find((s) => s.function.name === name)!),
    run: (name, args) => (owner.get(name) ?? sets[0]!).run(name, args),
  };
}

export const GIT_CONTEXT_TOOL: ToolSchema = {
  type: 'function',
  function: {
    name: 'git_context',
    description: 'git status, last commits, staged diff',
    parameters: { type: 'object', properties: {} },
  },
};

/** The git_context tool (profile "git_context": "tool"): the same capped text the preamble would hold. */
export function gitContextTool({ cwd, read }: { cwd: string; read: (cwd: string) => Promise<string | null> }): AgentTools {
  return {
    schemas: [GIT_CONTEXT_TOOL],
    async run() {
      const text = await read(cwd);
      return text === null ? { ok: false, text: 'Error: not in a git work tree' } : { ok: true, text };
    },
  };
}
