// forge mcp: serve forge commands, by toolset, as the tools of an MCP client over stdio.
import { commandLoader } from '../lib/cli/bundles';
import { defineCommand } from '../lib/cli/declare';
import { VERSION } from '../lib/cli/main';
import { leaves } from '../lib/cli/registry';
import type { McpTool } from '../lib/cli/mcp-server';
import { DEFAULT_TOOLSETS, TOOLSETS, selectCommands } from '../lib/mcp/toolsets';
import { catalog } from './catalog';

/** Every command's tool, derived by the build (scripts/build.mjs) from the declarations; undefined when the sources run unbuilt. */
declare const FORGE_MCP_TOOLS: ReadonlyArray<{ command: string; tool: McpTool }> | undefined;

const toolsetLines = Object.entries(TOOLSETS).map(
  ([name, t]) =>
    `${name}${(DEFAULT_TOOLSETS as readonly string[]).includes(name) ? ' (default)' : ''}: ${Object.keys(t.commands)
      .map((c) => c.replace(/[ -]/g, '_'))
      .join(', ')} — ${t.description}.`,
);

export default defineCommand({
  name: 'mcp',
  summary: 'Serve forge commands, by toolset, as MCP tools over stdio',
  description: [
    "Starts a Model Context Protocol server on stdin/stdout (the official MCP SDK) whose tools are forge commands, generated from the same declarations as --help, the man pages and forge schema. Each tool's inputSchema is the command's arguments; its title and annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) are in each command's declaration (its toolset too).",
    "It serves both protocol eras, as the client's first message chooses: the 2025 handshake (initialize, revisions 2024-10-07 to 2025-11-25) and the 2026-07-28 stateless core (server/discover, the revision in each request's _meta, resultType on every result, cache hints on tools/list). A request that claims a revision forge does not serve is refused with the ones it does (-32022).",
    `By default it serves what an agent needs to work — the ${DEFAULT_TOOLSETS.join(', ')} toolsets — and not remote pushes, undo, the agent itself or installers. --toolsets picks toolsets (comma-separated or repeated; 'default' is the default ones, 'all' every one), --tools adds single tools (alone, it serves just those). The toolsets:`,
    toolsetLines.join('\n\n'),
    'A call runs exactly as `echo \'<arguments>\' | forge <command> --json` would, in the directory the server was started in (or its own --cwd), the only one it serves: the result is the command\'s NDJSON records, each ending with _next_action, as text and as structured content ({"records": [...]}, the shape every tool\'s outputSchema gives). A call\'s arguments are its tool\'s inputSchema properties and nothing else (additionalProperties: false): an argument the schema does not declare — the common keys an NDJSON request may carry, such as cwd or run-id, included — or of the wrong JSON type ({"path": 5}) is refused before anything runs. A refusal or an invalid call is an isError result that still carries _next_action, the command that fixes it. A record whose _next_action a served tool runs also carries _next_call, that step as the tool call a client can make as it is ({"name": "read", "arguments": {"path": "a.ts", "start": 151}}); a hint for another program, an unserved tool or another directory stays a shell line only. Nothing but protocol is written to stdout, and nothing to stderr; the server ends when the client closes stdin. A line that is not JSON gets JSON-RPC\'s parse error (-32700), a batch or an object that is no JSON-RPC message an invalid request (-32600), a tool call whose arguments are not an object and a tools/list cursor (forge lists every tool in one page) invalid params (-32602).',
    "When the client closes stdin, calls in flight are answered before the server exits. A call the client cancels (notifications/cancelled), or leaves running when it goes away (SIGTERM, SIGINT or SIGHUP, as MCP's stdio shutdown sends after closing stdin, or the client's death), is aborted: the programs it runs (validate's and plan advance's verify commands, loop run's agent) are ended with their process group, validate records no attempt, loop run pauses its loop, search and replace stop within 256 files (replace having written nothing), state sync ends the fetch or push in flight, and the server exits only after they are gone. A call whose request carries a progressToken gets a notifications/progress for each progress line the command shows a person on a terminal (validate: each verify command as it starts; search and replace: the files scanned). A tool that runs shell code or a program, now or later (validate, plan advance, loop start, run and hook, agent), is annotated destructive and open-world, so no client approves it as harmless.",
    'Claude Code: claude mcp add forge -- forge mcp. Other clients: command "forge", args ["mcp"] (or ["mcp", "--toolsets", "all"]).',
  ].join('\n\n'),
  args: {
    toolsets: {
      type: 'array',
      placeholder: 'LIST',
      description: `Toolsets to serve, comma-separated: default, all, ${Object.keys(TOOLSETS).join(', ')} (default: ${DEFAULT_TOOLSETS.join(',')}).`,
    },
    tools: {
      type: 'array',
      placeholder: 'LIST',
      description: 'Single tools to serve, comma-separated (read, plan_check, state_sync…); added to --toolsets.',
    },
  },
  examples: [
    {
      command: 'forge mcp',
      description:
        "Serve the default toolsets on stdin and stdout: the command an MCP client's configuration runs (it ends when the client closes stdin).",
    },
    { command: 'forge mcp --toolsets files,memory --tools plan_status', description: 'Serve the file and memory tools and plan_status.' },
    { command: 'forge mcp --toolsets all', description: 'Serve every forge command.' },
  ],
  errors: {
    INVALID_ARGUMENT: 'an unknown toolset or tool name (the message lists the valid ones); over MCP, an argument of the wrong JSON type',
    UNKNOWN_FIELD:
      "over MCP, an argument the tool's inputSchema does not declare, such as cwd or run-id (a call runs in the server's directory); the Fix is forge schema <tool>",
    UNKNOWN_TOOL: 'over MCP, a call of a tool this server does not serve (the record names the toolset that has it)',
  },
  exits: { 0: 'the client closed the session', 2: 'invalid input' },
  mutates: false,
  mcp: false,
  ownsStdin: true,
  recordsToolCall: false,
  async run(args, ctx) {
    // Before the server starts: a misspelt toolset is an error the user sees, not a silently smaller server.
    const selected = selectCommands({ toolsets: args.toolsets, tools: args.tools });
    const load = commandLoader();
    if (!load || typeof FORGE_MCP_TOOLS === 'undefined')
      throw new Error('forge mcp serves the commands of the built executable (make build)');
    const { callTool, nextToolCall, serveMcp } = await import('../lib/cli/mcp-server');
    const cwd = ctx.cwd;
    // Every call runs in the directory served: FORGE_CWD chose it already, and a relative one again would look beneath it.
    const { FORGE_CWD: _served, ...env } = ctx.env;
    const specOf = (command: string) => leaves(load(catalogPath(command)).entries).find((s) => s.name === command)!;
    // The served command a hint's words name (the longest: `plan check` before `plan`), its spec loaded then.
    const servedBy = (words: string[]) => {
      const name = [...selected].filter((c) => c.split(' ').every((w, i) => words[i] === w)).sort((a, b) => b.length - a.length)[0];
      return name ? specOf(name) : null;
    };
    await serveMcp({
      // The tools as the build derived them from every declaration: listing them loads no command.
      tools: FORGE_MCP_TOOLS.filter((t) => selected.has(t.command)),
      version: VERSION,
      // A command's code is loaded when it is first called: its own bundle, which runs it in-process.
      call: (command, callArgs, { signal, onProgress }) => {
        const bundle = load(catalogPath(command));
        return callTool({
          spec: specOf(command),
          args: callArgs,
          // Every command, for the tools that describe them all (schema): the whole registry, loaded when one asks.
          call: (a) =>
            bundle.call({
              name: command,
              args: a,
              cwd,
              env,
              signal,
              registry: () => load('index').entries,
              ...(onProgress ? { onProgress } : {}),
            }),
          nextCall: (hint) => nextToolCall(hint, servedBy),
        });
      },
    });
    return { data: {}, text: '', next: null, silent: true };
  },
});

/** `memory recall` → the catalog's 'memory/recall'. */
function catalogPath(command: string): string {
  const [first, second] = command.split(' ');
  const hit = catalog[first!]!;
  return typeof hit === 'string' ? hit : hit[second!]!;
}
