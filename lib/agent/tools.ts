// The agent's tools: lean views of forge commands (the same declarations, fewer arguments) plus bash.
import type { CommandSpec, Entry } from '../cli/declare';
import { invoke } from '../cli/invoke';
import { parseArgv } from '../cli/parse';
import { leaves } from '../cli/registry';
import { toolSchema } from '../cli/schema';
import { escapeRegex } from '../files/search';
import { runShell } from '../process/program';
import { shellSplit } from '../quote';
import type { ToolSchema } from './chat';

/** Which arguments of which command the model sees: enough to work, small enough for a 14B model. */
const VIEWS: Array<{ name: string; command: string; args: string[] }> = [
  { name: 'read', command: 'read', args: ['path', 'start', 'end', 'symbols'] },
  { name: 'edit', command: 'edit', args: ['path', 'old', 'new', 'anchor', 'lines', 'after'] },
  { name: 'replace', command: 'replace', args: ['old', 'new', 'paths', 'glob', 'regex'] },
  { name: 'patch', command: 'patch', args: ['diff'] },
  { name: 'write', command: 'write', args: ['path', 'content', 'overwrite'] },
  { name: 'search', command: 'search', args: ['pattern', 'paths', 'glob'] },
  { name: 'ls', command: 'ls', args: ['glob'] },
  { name: 'validate', command: 'validate', args: ['module', 'cmd', 'file'] },
  { name: 'memory', command: 'memory save', args: ['pattern', 'category'] },
];

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

const BASH: ToolSchema = {
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
}

export function agentTools({
  entries,
  cwd,
  root,
  env,
}: {
  entries: readonly Entry[];
  cwd: string;
  root: string;
  env: NodeJS.ProcessEnv;
}): AgentTools {
  const specs = new Map(leaves(entries).map((s) => [s.name, s]));
  const views = VIEWS.filter((v) => specs.has(v.command)).map((v) => {
    const spec = specs.get(v.command) as CommandSpec<any>;
    const full = toolSchema(spec).parameters;
    const properties = Object.fromEntries(v.args.filter((a) => full.properties[a]).map((a) => [a, full.properties[a]!]));
    const required = (full.required ?? []).filter((r) => v.args.includes(r));
    const schema: ToolSchema = {
      type: 'function',
      function: {
        name: v.name,
        description: spec.tool ?? spec.summary,
        parameters: { type: 'object', properties, ...(required.length ? { required } : {}) },
      },
    };
    return { view: v, spec, schema };
  });
  const byName = new Map(views.map((v) => [v.view.name, v]));
  const reminder = (tool: (typeof views)[number]) => {
    const required = (tool.schema.function.parameters as { required?: string[] }).required ?? [];
    return tool.view.args.map((a) => `${a}${required.includes(a) ? ' (required)' : ''}`).join(', ');
  };
  /** A hint's command as the model would make it: a tool call, or bash for another program. */
  const asCall = (command: string): string => {
    const words = shellSplit(command);
    if (!words?.length) return command;
    if (words[0] !== 'forge') return `bash ${JSON.stringify({ command })}`;
    const tool = views.find((v) => v.spec.name.split(' ').every((w: string, i: number) => words[i + 1] === w));
    if (!tool) return command;
    try {
      const parsed = parseArgv(tool.spec, words.slice(1 + tool.spec.name.split(' ').length));
      if (parsed.help) return `call ${tool.view.name} with ${reminder(tool)}`;
      // A literal search is the same search with its pattern escaped: the view has no literal flag.
      if (parsed.raw.literal === true && typeof parsed.raw.pattern === 'string') {
        parsed.raw.pattern = escapeRegex(parsed.raw.pattern);
        delete parsed.raw.literal;
      }
      if (!Object.keys(parsed.raw).every((k) => tool.view.args.includes(k))) return command;
      const ordered = Object.fromEntries(tool.view.args.filter((a) => parsed.raw[a] !== undefined).map((a) => [a, parsed.raw[a]]));
      return `${tool.view.name} ${JSON.stringify(ordered)}`;
    } catch {
      return command;
    }
  };
  const hintsAsCalls = (text: string) =>
    text.replace(/^(Next|Or|Fix): (.+)$/gm, (_, mark: string, command: string) => `${mark}: ${asCall(command)}`);
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
      const mapped = mapKeys(args, tool.view.args);
      if (mapped.unknown !== null)
        return { ok: false, text: `Error: ${name} has no argument '${mapped.unknown}'; it takes ${reminder(tool)}` };
      const r = await invoke({ entries, spec: tool.spec, args: mapped.args, cwd, env, json: false });
      const notes = mapped.notes.length ? `[${name}: ${mapped.notes.join('; ')}]\n` : '';
      return { ok: r.code === 0, text: notes + hintsAsCalls(`${r.stdout}${r.stderr}`.trimEnd()) };
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
