// The agent's tools: lean views of forge commands (the same declarations, fewer arguments), called through the shared call path.
import type { ToolSchema } from '../agent/chat';
import { BASH_TOOL, mapKeys, runBash, type AgentTools } from '../agent/tools';
import { escapeRegex } from '../files/literals';
import { shellSplit } from '../quote';
import type { CommandSpec, Entry } from './declare';
import { callOnce } from './invoke';
import { forgeCall } from './next-call';
import { leaves } from './registry';
import { toolSchema } from './schema';

/**
 * Which arguments of which command the model sees: enough to work, small enough for a 14B model;
 * `required` adds what the command would otherwise read from stdin, which a tool call has none of.
 */
const VIEWS: Array<{ name: string; command: string; args: string[]; required?: string[] }> = [
  { name: 'read', command: 'read', args: ['path', 'start', 'end', 'symbols'] },
  { name: 'edit', command: 'edit', args: ['path', 'old', 'new', 'anchor', 'lines', 'after'] },
  { name: 'replace', command: 'replace', args: ['old', 'new', 'paths', 'glob', 'regex'] },
  { name: 'patch', command: 'patch', args: ['diff'] },
  { name: 'write', command: 'write', args: ['path', 'content', 'overwrite'], required: ['content'] },
  { name: 'search', command: 'search', args: ['pattern', 'paths', 'glob'] },
  { name: 'ls', command: 'ls', args: ['glob'] },
  { name: 'validate', command: 'validate', args: ['module', 'cmd', 'file'] },
  { name: 'memory', command: 'memory save', args: ['pattern', 'category'] },
];

/**
 * forge's commands as the agent's tools, plus bash: each call runs the command in-process through
 * the shared call path (lib/cli/invoke.ts), its text and hints coming back written as tool calls.
 */
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
  // The tools run in `cwd`: a FORGE_CWD, relative to where forge started, would move them.
  const { FORGE_CWD: _chosen, ...ownEnv } = env;
  const views = VIEWS.filter((v) => specs.has(v.command)).map((v) => {
    const spec = specs.get(v.command) as CommandSpec<any>;
    const full = toolSchema(spec).parameters;
    const properties = Object.fromEntries(v.args.filter((a) => full.properties[a]).map((a) => [a, full.properties[a]!]));
    const required = [...(full.required ?? []).filter((r) => v.args.includes(r)), ...(v.required ?? [])];
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
  const specOf = (rest: string[]) => views.find((v) => v.spec.name.split(' ').every((w: string, i: number) => rest[i] === w))?.spec ?? null;
  const asCall = (command: string): string => {
    const words = shellSplit(command);
    if (!words?.length) return command;
    if (words[0] !== 'forge') return `bash ${JSON.stringify({ command })}`;
    const call = forgeCall(words, specOf);
    const tool = call && views.find((v) => v.spec === call.spec);
    if (!call || !tool) return command;
    const { parsed } = call;
    if (parsed.help) return `call ${tool.view.name} with ${reminder(tool)}`;
    // A literal search is the same search with its pattern escaped: the view has no literal flag.
    if (parsed.raw.literal === true && typeof parsed.raw.pattern === 'string') {
      parsed.raw.pattern = escapeRegex(parsed.raw.pattern);
      delete parsed.raw.literal;
    }
    if (!Object.keys(parsed.raw).every((k) => tool.view.args.includes(k))) return command;
    const ordered = Object.fromEntries(tool.view.args.filter((a) => parsed.raw[a] !== undefined).map((a) => [a, parsed.raw[a]]));
    return `${tool.view.name} ${JSON.stringify(ordered)}`;
  };
  const hintsAsCalls = (text: string) =>
    text.replace(/^(Next|Or|Fix): (.+)$/gm, (_, mark: string, command: string) => `${mark}: ${asCall(command)}`);
  return {
    schemas: [...views.map((v) => v.schema), BASH_TOOL],
    async run(name, args) {
      if (name === 'bash') return runBash({ args, root, env });
      const tool = byName.get(name);
      if (!tool) return { ok: false, text: `Error: no tool '${name}'. Tools: ${[...byName.keys(), 'bash'].join(', ')}` };
      const mapped = mapKeys(args, tool.view.args);
      if (mapped.unknown !== null)
        return { ok: false, text: `Error: ${name} has no argument '${mapped.unknown}'; it takes ${reminder(tool)}` };
      const missing = (tool.view.required ?? []).find((a) => mapped.args[a] === undefined || mapped.args[a] === null);
      if (missing !== undefined)
        return { ok: false, text: `Error: ${name} needs ${missing}: nothing was done. It takes ${reminder(tool)}` };
      const r = await callOnce({ spec: tool.spec, args: mapped.args, cwd, env: ownEnv });
      const notes = mapped.notes.length ? `[${name}: ${mapped.notes.join('; ')}]\n` : '';
      return { ok: r.code === 0, text: notes + hintsAsCalls(`${r.stdout}${r.stderr}`.trimEnd()) };
    },
    async applied(diff) {
      const patch = specs.get('patch') as CommandSpec<any> | undefined;
      if (!patch) return false;
      // Already applied: the edits undo cleanly (a dry run, nothing written).
      const r = await callOnce({ spec: patch, args: { diff, check: true, reverse: true }, cwd, env: ownEnv });
      return r.code === 0;
    },
  };
}
