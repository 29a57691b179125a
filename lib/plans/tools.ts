// The tool map: each agent's tool names in the plan's words, and the tools a plan never gates — data, printed by `man forge-plan`.
import { posix } from 'node:path';
import { FORGE_LIFECYCLE } from './shell-commands';

/** The agents whose pre-tool hooks forge reads (`forge plan preflight --hook <agent>`). */
export const HOOK_AGENTS = ['claude', 'codex', 'gemini', 'opencode'] as const;
export type HookAgent = (typeof HOOK_AGENTS)[number];
export type ToolAgent = HookAgent | 'forge';

/** How a tool's call is checked: by its word, never (conversation only), or by its search scope. */
export interface ToolRow {
  /** The agent that names the tool this way ('forge' for forge's own commands and MCP tools). */
  agent: ToolAgent;
  /** The names the agent sends, current and older (MultiEdit, LS, Task, TodoWrite keep working). */
  names: string[];
  /** The plan word the tool counts as in allowed_tools; null when the tool is never gated. */
  word: string | null;
  /** Whether the call changes the paths it names. */
  mutates?: boolean;
  /** A search or listing: a path it names is a directory it reads whole; with none it reads its working directory. */
  scope?: boolean;
  /** What the row is, for the man page. */
  note: string;
}

/** The MCP server name forge is registered under (`claude mcp add forge -- forge mcp`): its tools keep their own words. */
export const FORGE_MCP_SERVER = 'forge';

export const TOOL_MAP: readonly ToolRow[] = [
  { agent: 'claude', names: ['Read'], word: 'read', note: 'reads a file' },
  { agent: 'claude', names: ['Edit', 'MultiEdit'], word: 'edit', mutates: true, note: 'changes a file' },
  { agent: 'claude', names: ['NotebookEdit'], word: 'edit', mutates: true, note: 'changes a notebook cell' },
  { agent: 'claude', names: ['Write'], word: 'write', mutates: true, note: 'writes a whole file' },
  {
    agent: 'claude',
    names: ['Grep'],
    word: 'search',
    scope: true,
    note: 'searches file contents under its path, or else its working directory',
  },
  {
    agent: 'claude',
    names: ['Glob', 'LS'],
    word: 'ls',
    scope: true,
    note: "lists files under its pattern's directory, from its path or else its working directory",
  },
  {
    agent: 'claude',
    names: ['Bash', 'PowerShell', 'Monitor'],
    word: 'bash',
    note: 'runs a shell command, whose surface is read from its command line',
  },
  { agent: 'claude', names: ['WebFetch', 'WebSearch'], word: 'web', note: 'reads the web' },
  {
    agent: 'claude',
    names: ['Agent', 'Task', 'SendMessage'],
    word: 'agent',
    note: 'starts or messages a subagent, whose own calls are gated one by one',
  },
  { agent: 'claude', names: ['Skill'], word: 'skill', note: 'loads a skill, whose tool calls are gated one by one' },
  {
    agent: 'claude',
    names: ['mcp__<server>__<tool>'],
    word: 'mcp:<server>',
    note: "another MCP server's tool: what it does is unknown, so outside the plan it is a soft refusal",
  },
  {
    agent: 'claude',
    names: ['TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet', 'TodoWrite', 'TodoRead'],
    word: null,
    note: "the agent's own task list",
  },
  { agent: 'claude', names: ['TaskOutput', 'TaskStop'], word: null, note: 'reads or stops a background task started by a gated call' },
  { agent: 'claude', names: ['EnterPlanMode', 'ExitPlanMode'], word: null, note: 'plan mode' },
  { agent: 'claude', names: ['AskUserQuestion'], word: null, note: 'a question to the user' },
  { agent: 'claude', names: ['ToolSearch'], word: null, note: 'loads tool definitions into the conversation' },
  {
    agent: 'codex',
    names: ['Bash'],
    word: 'bash',
    note: 'shell and exec_command calls, which Codex sends as Bash: the surface is read from the command line',
  },
  {
    agent: 'codex',
    names: ['apply_patch'],
    word: 'patch',
    mutates: true,
    note: 'adds, changes, moves or deletes the files its patch names',
  },
  { agent: 'codex', names: ['mcp__<server>__<tool>'], word: 'mcp:<server>', note: "another MCP server's tool, as for Claude Code" },
  { agent: 'forge', names: ['read'], word: 'read', note: 'forge read' },
  { agent: 'forge', names: ['edit'], word: 'edit', mutates: true, note: 'forge edit' },
  { agent: 'forge', names: ['write'], word: 'write', mutates: true, note: 'forge write' },
  { agent: 'forge', names: ['patch'], word: 'patch', mutates: true, note: 'forge patch' },
  {
    agent: 'forge',
    names: ['replace'],
    word: 'replace',
    mutates: true,
    scope: true,
    note: 'forge replace (every file under its paths, or else its working directory)',
  },
  { agent: 'forge', names: ['search'], word: 'search', scope: true, note: 'forge search' },
  { agent: 'forge', names: ['ls'], word: 'ls', scope: true, note: 'forge ls' },
  { agent: 'forge', names: ['bash'], word: 'bash', note: "forge agent's shell" },
  { agent: 'gemini', names: ['read_file'], word: 'read', note: 'reads its file_path' },
  {
    agent: 'gemini',
    names: ['read_many_files'],
    word: 'read',
    scope: true,
    note: "reads the files under each include pattern's directory",
  },
  { agent: 'gemini', names: ['write_file'], word: 'write', mutates: true, note: 'writes a whole file' },
  { agent: 'gemini', names: ['replace'], word: 'edit', mutates: true, note: 'changes its file_path, old_string → new_string' },
  {
    agent: 'gemini',
    names: ['grep_search', 'search_file_content'],
    word: 'search',
    scope: true,
    note: 'searches file contents under its dir_path, or else its working directory',
  },
  {
    agent: 'gemini',
    names: ['glob', 'list_directory'],
    word: 'ls',
    scope: true,
    note: "lists files under its dir_path and its pattern's directory, or else its working directory",
  },
  {
    agent: 'gemini',
    names: ['run_shell_command'],
    word: 'bash',
    note: 'runs a shell command, whose surface is read from its command line',
  },
  { agent: 'gemini', names: ['web_fetch', 'google_web_search'], word: 'web', note: 'reads the web' },
  { agent: 'gemini', names: ['invoke_agent'], word: 'agent', note: 'starts a subagent, whose own calls are gated one by one' },
  { agent: 'gemini', names: ['activate_skill'], word: 'skill', note: 'loads a skill' },
  {
    agent: 'gemini',
    names: ['mcp_<server>_<tool>'],
    word: 'mcp:<server>',
    note: "another MCP server's tool, its server read from the payload's mcp_context",
  },
  {
    agent: 'gemini',
    names: [
      'write_todos',
      'tracker_create_task',
      'tracker_update_task',
      'tracker_get_task',
      'tracker_list_tasks',
      'tracker_add_dependency',
      'tracker_visualize',
    ],
    word: null,
    note: "the agent's own task list",
  },
  {
    agent: 'gemini',
    names: ['enter_plan_mode', 'exit_plan_mode', 'ask_user', 'update_topic', 'complete_task', 'get_internal_docs'],
    word: null,
    note: "plan mode, questions to the user, the conversation's topic, Gemini CLI's own docs",
  },
  { agent: 'opencode', names: ['read', 'lsp'], word: 'read', note: 'reads its filePath, or asks the language server about it' },
  { agent: 'opencode', names: ['edit'], word: 'edit', mutates: true, note: 'changes its filePath, oldString → newString' },
  { agent: 'opencode', names: ['write'], word: 'write', mutates: true, note: 'writes a whole file' },
  {
    agent: 'opencode',
    names: ['apply_patch', 'patch'],
    word: 'patch',
    mutates: true,
    note: 'adds, changes, moves or deletes the files its patchText names',
  },
  {
    agent: 'opencode',
    names: ['grep'],
    word: 'search',
    scope: true,
    note: 'searches file contents under its path, or else its working directory',
  },
  {
    agent: 'opencode',
    names: ['glob', 'list'],
    word: 'ls',
    scope: true,
    note: "lists files under its path and its pattern's directory, or else its working directory",
  },
  { agent: 'opencode', names: ['bash', 'shell'], word: 'bash', note: 'runs a shell command, whose surface is read from its command line' },
  { agent: 'opencode', names: ['webfetch', 'websearch', 'codesearch'], word: 'web', note: 'reads the web' },
  { agent: 'opencode', names: ['task'], word: 'agent', note: 'starts a subagent, whose own calls are gated one by one' },
  { agent: 'opencode', names: ['skill'], word: 'skill', note: 'loads a skill' },
  {
    agent: 'opencode',
    names: ['todowrite', 'todoread', 'question', 'plan_enter', 'plan_exit', 'invalid'],
    word: null,
    note: "the agent's own task list, questions to the user, plan mode, and its reply to a call of a tool it does not have (runs nothing)",
  },
];

/** The plan's own lifecycle as forge MCP tools (`forge plan ack` …): never gated, like the same commands through bash. */
const LIFECYCLE_TOOLS = ['plan_ack', 'plan_advance', 'plan_status', 'plan_journal', 'plan_check'];
/** forge's tools that end, pause, resume or replace the plan: forge mcp does not serve them, and a call of one is always refused. */
const OPERATOR_TOOLS = FORGE_LIFECYCLE.map((command) => command.replace(' ', '_'));

/** A name with no agent given reads as the first row that has it: Claude Code's, Codex's, then forge's own (`replace`, `read`). */
const BY_NAME = new Map<string, ToolRow>(
  TOOL_MAP.flatMap((row) => row.names.filter((n) => !n.includes('<')).map((n) => [n, row] as const)).reverse(),
);
/** The same name means different tools to different agents (Gemini CLI's `replace` edits one file): the agent's own row first. */
const BY_AGENT = new Map<string, ToolRow>(TOOL_MAP.flatMap((row) => row.names.map((n) => [`${row.agent}:${n}`, row] as const)));
const FORGE_ROWS = new Map<string, ToolRow>(
  TOOL_MAP.filter((r) => r.agent === 'forge').flatMap((r) => r.names.map((n) => [n, r] as const)),
);

/** The plan words the table knows (read, edit, …, mcp:<server> aside). */
export const TOOL_WORDS: ReadonlySet<string> = new Set(
  TOOL_MAP.map((r) => r.word).filter((w): w is string => w !== null && !w.includes('<')),
);

/** A tool name as the table reads it. */
export interface ToolInfo {
  /** The plan word; for a tool the table does not know, the name itself. */
  word: string;
  /** Whether the table knows what the tool does. An unknown tool outside the plan is a soft refusal, never a hard one. */
  known: boolean;
  /** Never gated: the call touches nothing outside the conversation. */
  exempt: boolean;
  mutates: boolean;
  scope: boolean;
  /** Would change the plan itself (end, pause, resume, replace): the operator's alone. */
  operatorOnly?: boolean;
}

/** forge's own MCP tools by name (read, plan_ack…), as OpenCode names them `forge_<tool>`. */
const FORGE_TOOL_NAMES = new Set([
  ...TOOL_MAP.filter((r) => r.agent === 'forge').flatMap((r) => r.names),
  ...LIFECYCLE_TOOLS,
  ...OPERATOR_TOOLS,
]);

/**
 * `mcp__github__create_pr` → its server and tool; null for any other name. OpenCode names an MCP
 * tool `<server>_<tool>`, which is ambiguous but for forge's own tools: `forge_plan_end` is forge's plan_end.
 */
export function mcpParts(name: string, agent?: ToolAgent): { server: string; tool: string } | null {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  if (m) return { server: m[1]!, tool: m[2]! };
  const prefix = `${FORGE_MCP_SERVER}_`;
  if (agent === 'opencode' && name.startsWith(prefix) && FORGE_TOOL_NAMES.has(name.slice(prefix.length)))
    return { server: FORGE_MCP_SERVER, tool: name.slice(prefix.length) };
  return null;
}

/** What a tool name means, as `agent` sends it (with no agent: the first row that names it). */
export function toolInfo(name: string, agent?: ToolAgent): ToolInfo {
  const info = (row: ToolRow): ToolInfo => ({
    word: row.word ?? name,
    known: true,
    exempt: row.word === null,
    mutates: row.mutates === true,
    scope: row.scope === true,
  });
  const row = (agent && BY_AGENT.get(`${agent}:${name}`)) || BY_NAME.get(name);
  if (row) return info(row);
  const mcp = mcpParts(name, agent);
  if (mcp?.server === FORGE_MCP_SERVER) {
    const own = FORGE_ROWS.get(mcp.tool);
    if (own) return info(own);
    if (LIFECYCLE_TOOLS.includes(mcp.tool)) return { word: mcp.tool, known: true, exempt: true, mutates: false, scope: false };
    if (OPERATOR_TOOLS.includes(mcp.tool))
      return { word: mcp.tool, known: true, exempt: false, mutates: false, scope: false, operatorOnly: true };
    return { word: mcp.tool, known: false, exempt: false, mutates: false, scope: false };
  }
  if (mcp) return { word: `mcp:${mcp.server}`, known: false, exempt: false, mutates: false, scope: false };
  // A plan word given as the tool (forge plan preflight --tool read), in any case.
  const lower = name.toLowerCase();
  if (TOOL_WORDS.has(lower))
    return info(TOOL_MAP.find((r) => r.word === lower && r.agent === 'forge') ?? TOOL_MAP.find((r) => r.word === lower)!);
  return { word: lower, known: false, exempt: false, mutates: false, scope: false };
}

/** An allowed_tools entry: a plan word, `mcp:<server>`, or one tool's exact name (`WebFetch`, `mcp__github__create_pr`, `deploy`). */
export const ALLOWED_TOOL_PATTERN = /^(mcp:[A-Za-z0-9_.-]+|[A-Za-z][A-Za-z0-9_.-]*)$/;

/** Whether an allowed_tools list lets the tool through: by its word or by its exact name. */
export function toolAllowed(allowed: readonly string[], name: string, agent?: ToolAgent): boolean {
  const word = toolInfo(name, agent).word;
  return allowed.some((a) => a === name || a.toLowerCase() === word);
}

/** The table as the man page prints it: one line per row. */
export function toolMapText(): string {
  const agents = {
    claude: 'Claude Code',
    codex: 'Codex CLI (the tools its PreToolUse hook reports; others, such as its plan tool, never reach the hook)',
    gemini: 'Gemini CLI (its BeforeTool hook)',
    opencode: "OpenCode (its plugin's tool.execute.before; an MCP tool, <server>_<tool>, is allowed by its exact name)",
    forge: 'forge (its commands; through MCP as mcp__forge__<tool>)',
  } as const;
  const lines: string[] = [];
  for (const agent of ['claude', 'codex', 'gemini', 'opencode', 'forge'] as const) {
    lines.push(`${agents[agent]}:`);
    for (const r of TOOL_MAP.filter((x) => x.agent === agent)) {
      const names = r.names.length > 1 && agent !== 'forge' ? r.names.join(', ') : r.names[0]!;
      lines.push(`  ${names} → ${r.word ?? 'never gated'} (${r.note})`);
    }
  }
  lines.push(`  mcp__forge__${LIFECYCLE_TOOLS.join(', mcp__forge__')} → never gated (the steps a plan leaves to the agent)`);
  lines.push(`  mcp__forge__${OPERATOR_TOOLS.join(', mcp__forge__')} → always refused (the operator's: forge mcp does not serve them)`);
  lines.push('  OpenCode names the same tools forge_<tool> (forge_read, forge_plan_ack…), read as mcp__forge__<tool>');
  return lines.join('\n');
}

/** A glob's directory before its first wildcard ('**\/*.ts' → '.'); a glob without one is the path itself. */
export function literalDir(glob: string): string {
  const i = glob.search(/[*?[{]/);
  if (i < 0) return glob;
  const slash = glob.lastIndexOf('/', i);
  return slash < 0 ? '.' : glob.slice(0, slash) || '/';
}

/** The directory a glob lists, as a path: its literal directory, under `base` when that is relative. */
export function globDir(pattern: string, base = '.'): string {
  const dir = literalDir(pattern);
  return dir.startsWith('/') ? dir : posix.join(base, dir);
}
