// forge mcp: serve every forge command as a tool of an MCP client, over stdio.
import { defineCommand } from '../lib/cli/declare';
import { VERSION } from '../lib/cli/main';

export default defineCommand({
  name: 'mcp',
  summary: 'Serve every forge command as an MCP tool over stdio',
  description: [
    'Starts a Model Context Protocol server on stdin/stdout (the official MCP SDK) whose tools are the forge commands, generated from the same declarations as --help, the man pages and forge schema: memory_save, read, edit, plan_check, loop_status… Each tool\'s inputSchema is the command\'s arguments; readOnlyHint and destructiveHint follow whether it writes state or files.',
    'A call runs exactly as `echo \'<arguments>\' | forge <command> --json` would, in the directory the server was started in (or the call\'s cwd argument): the result is the command\'s NDJSON records, each ending with _next_action. A refusal or an invalid call is an isError result that still carries _next_action, the command that fixes it. Nothing but protocol is written to stdout; the server ends when the client closes stdin.',
    'Claude Code: claude mcp add forge -- forge mcp. Other clients: command "forge", args ["mcp"].',
  ].join('\n\n'),
  args: {},
  examples: [{ command: 'forge mcp', description: 'Serve the MCP client that started it (here: stdin is empty, so it ends at once).' }],
  errors: {},
  exits: { 0: 'the client closed the session', 2: 'invalid input' },
  mutates: false,
  ownsStdin: true,
  recordsToolCall: false,
  async run(_args, ctx) {
    const [{ entries }, { serveMcp }] = await Promise.all([import('./index'), import('../lib/mcp/server')]);
    await serveMcp({ entries, version: VERSION, cwd: ctx.cwd, env: process.env });
    return { data: {}, text: '', next: null, raw: '' };
  },
});
