// forge schema: the lean JSON tool schemas that forge agent and forge mcp give a model.
import { defineCommand } from '../lib/cli/declare';
import { InvalidInputError } from '../lib/errors';
import { toolName, toolSchema } from '../lib/cli/schema';
import { leaves } from '../lib/cli/registry';

export default defineCommand({
  name: 'schema',
  summary: 'Print the JSON tool schema of commands (for agents and MCP)',
  description:
    'Prints, for each command, the lean JSON Schema a model is given as a tool: name (words joined by _), one-line description and parameters — derived from the same declaration as the flags, so they cannot drift. With names, only those commands.',
  args: {
    command: {
      type: 'array',
      tool: 'Default: all',
      positional: true,
      placeholder: 'NAME',
      completesCommands: true,
      description: "Commands to show ('memory save' or memory_save); default all.",
    },
  },
  examples: [
    { command: 'forge schema memory_save', description: 'The tool schema of forge memory save.' },
    { command: 'forge schema --json | jq -c \'select(.type=="tool")\'', description: 'Every tool schema, one per line.' },
  ],
  errors: { UNKNOWN_COMMAND: 'a name that is not a command' },
  exits: { 0: 'printed', 2: 'unknown command' },
  mutates: false,
  mcp: { title: 'Show tool schemas', toolset: 'runs', effect: 'read' },
  dataOutput: true,
  async run(args, ctx) {
    // The registry holds this command: the caller hands it over (no import cycle).
    const entries = ctx.registry();
    const all = leaves(entries).filter((c) => c.name !== 'schema');
    const wanted = args.command.map((n) => n.replace(/[ -]/g, '_'));
    for (const w of wanted) {
      if (!all.some((c) => toolName(c) === w))
        throw new InvalidInputError('UNKNOWN_COMMAND', `unknown command '${w}'`, { fix: 'forge schema' });
    }
    const chosen = wanted.length ? all.filter((c) => wanted.includes(toolName(c))) : all;
    for (const c of chosen) {
      const schema = toolSchema(c);
      await ctx.emit({ type: 'tool', ...schema }, JSON.stringify(schema));
    }
    return { data: { tools: chosen.length }, text: '', next: null };
  },
});
