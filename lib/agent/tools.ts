// The agent's tools: lean views of forge commands (the same declarations, fewer arguments) plus bash.
import type { CommandSpec, Entry } from '../cli/declare';
import { invoke } from '../cli/invoke';
import { leaves } from '../cli/registry';
import { toolSchema } from '../cli/schema';
import { runShell } from '../process/program';
import type { ToolSchema } from './chat';

/** Which arguments of which command the model sees: enough to work, small enough for a 14B model. */
const VIEWS: Array<{ name: string; command: string; args: string[]; description?: string }> = [
  { name: 'read', command: 'read', args: ['path', 'start', 'end', 'symbols'], description: 'Read a file window; each line has an anchor like 12#ab3f' },
  { name: 'edit', command: 'edit', args: ['path', 'old', 'new', 'anchor', 'lines', 'after'], description: 'Replace old text with new, or edit lines by anchor' },
  { name: 'patch', command: 'patch', args: ['diff'] },
  { name: 'write', command: 'write', args: ['path', 'content', 'overwrite'] },
  { name: 'search', command: 'search', args: ['pattern', 'paths', 'glob'] },
  { name: 'ls', command: 'ls', args: ['glob'] },
  { name: 'validate', command: 'validate', args: ['module', 'cmd', 'file'], description: 'Check files and run verify commands: PROCEED, RETRY or ESCALATE' },
  { name: 'memory', command: 'memory save', args: ['pattern', 'category'], description: 'Save a lesson for later runs' },
];

const BASH: ToolSchema = {
  type: 'function',
  function: { name: 'bash', description: 'Run a shell command at the repository top', parameters: { type: 'object', properties: { command: { type: 'string' }, timeout: { type: 'integer', description: 'Seconds (default 120).' } }, required: ['command'] } },
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
}

export function agentTools({ entries, cwd, root, env }: { entries: readonly Entry[]; cwd: string; root: string; env: NodeJS.ProcessEnv }): AgentTools {
  const specs = new Map(leaves(entries).map((s) => [s.name, s]));
  const views = VIEWS.filter((v) => specs.has(v.command)).map((v) => {
    const spec = specs.get(v.command) as CommandSpec<any>;
    const full = toolSchema(spec).parameters;
    const properties = Object.fromEntries(v.args.filter((a) => full.properties[a]).map((a) => [a, full.properties[a]!]));
    const required = (full.required ?? []).filter((r) => v.args.includes(r));
    const schema: ToolSchema = { type: 'function', function: { name: v.name, description: v.description ?? spec.summary, parameters: { type: 'object', properties, ...(required.length ? { required } : {}) } } };
    return { view: v, spec, schema };
  });
  const byName = new Map(views.map((v) => [v.view.name, v]));
  return {
    schemas: [...views.map((v) => v.schema), BASH],
    async run(name, args) {
      if (name === 'bash') {
        const command = typeof args.command === 'string' ? args.command : '';
        if (!command) return { ok: false, text: 'Error: bash needs {"command": "..."}' };
        const seconds = typeof args.timeout === 'number' && args.timeout > 0 ? args.timeout : 120;
        const r = await runShell({ command, cwd: root, timeoutMs: seconds * 1000, env, tailBytes: 64_000 });
        const status = r.timedOut ? `timed out after ${seconds} s` : `exit ${r.exitCode ?? r.signal}`;
        return { ok: r.exitCode === 0 && !r.timedOut, text: `${capOutput(r.tail.trimEnd())}\n[${status}]` };
      }
      const tool = byName.get(name);
      if (!tool) return { ok: false, text: `Error: no tool '${name}'. Tools: ${[...byName.keys(), 'bash'].join(', ')}` };
      const allowed = Object.fromEntries(Object.entries(args).filter(([k]) => tool.view.args.includes(k)));
      const r = await invoke({ entries, spec: tool.spec, args: allowed, cwd, env, json: false });
      return { ok: r.code === 0, text: `${r.stdout}${r.stderr}`.trimEnd() };
    },
  };
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
