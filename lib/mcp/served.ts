// The words of an MCP tool's declaration (a command's `mcp`): its toolset and behaviour; imports nothing, so the generated table (served.gen.ts) and toolsets.ts both build on it.

/** What a call does to its environment, as MCP's tool annotations say it (hints, not guarantees). */
export interface Behaviour {
  /** read: changes nothing; additive: adds or records, never loses data; destructive: may overwrite or remove. */
  effect: 'read' | 'additive' | 'destructive';
  /** The same call again changes nothing more (meaningless for a read). */
  idempotent?: boolean;
  /** Reaches outside the repository and forge's own data: a remote, a model endpoint, an agent. */
  openWorld?: boolean;
}

/** The toolsets `forge mcp --toolsets` picks from, each with what it is for. */
export const TOOLSET_DESCRIPTIONS = {
  files: 'read, search and change files',
  plans:
    "the plan contract: write, check, gate, acknowledge, advance, status and journal (end, pause, resume and activate are the operator's)",
  validate: "check a module's files and run its verify commands",
  memory: 'lessons saved for later runs',
  checkpoints: 'checkpoints of the work tree, the diff since one, undo',
  state: 'the state ref: show, log, export, sync with a remote',
  runs: 'run logs, iterations, sessions and stats',
  loop: 'the agent loop: start, run, status, pause, resume, cancel, its Stop hook',
  install: 'setup: conventions file, git and agent hooks',
  agent: 'forge agent: a model endpoint driving the other tools',
} as const;

export type ToolsetName = keyof typeof TOOLSET_DESCRIPTIONS;

/** How a command is served as an MCP tool (its declaration's `mcp`): the toolset it is in and what it does. */
export interface Served extends Behaviour {
  /** A client's display name for the tool (MCP's `title`): a few words, not the description. */
  title: string;
  toolset: ToolsetName;
}
