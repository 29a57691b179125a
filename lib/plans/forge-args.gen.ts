// How each forge command's words read, from the declarations: options that take a value, positionals in order, where the words after `--` go.
// Generated from the registry (commands/index.ts) by `make docs`; do not edit. A test keeps it current.

export interface ForgeArgs {
  valued: readonly string[];
  /** Short flags that take a value, by the name they stand for. */
  short?: Readonly<Record<string, string>>;
  positionals: readonly string[];
  /** The positional that takes every remaining word (a rest of text, or a list). */
  rest?: string;
  /** The array filled from the words after `--`. */
  afterDashes?: string;
}

/** The options every command takes that hold a value. */
export const COMMON_VALUED: readonly string[] = ['--cwd', '-C', '--run-id', '--color'];
export const COMMON_SHORT: Readonly<Record<string, string>> = { '-C': 'cwd' };

export const FORGE_ARGS: Readonly<Record<string, ForgeArgs>> = {
  agent: { valued: ['--task', '--endpoint', '--model', '--profile', '--api-key-env', '--max-turns', '--stall-seconds', '--budget', '--session', '--rollback', '--planner-model', '--parallel', '--attach', '--detach', '--image'], positionals: ['task'], rest: 'task' },
  checkpoint: { valued: ['--message'], positionals: ['message'], rest: 'message' },
  completion: { valued: ['--shell'], positionals: ['shell'] },
  diff: { valued: ['--checkpoint'], positionals: ['checkpoint'] },
  edit: { valued: ['--path', '--old', '--new', '--anchor', '--lines', '--after', '--before', '--edits'], positionals: ['path'] },
  eval: { valued: ['--task', '--agent', '--runs', '--parallel', '--endpoint', '--model', '--profile', '--suite', '--report'], positionals: ['task'], rest: 'task' },
  'hooks install': { valued: ['--hook'], positionals: ['hook'] },
  'hooks list': { valued: ['--profile'], positionals: [] },
  init: { valued: [], positionals: [] },
  'iter get': { valued: ['--module'], positionals: ['module'] },
  'iter reset': { valued: ['--module'], positionals: ['module'] },
  'iter update': { valued: ['--module', '--status', '--score', '--issue', '--root-cause'], positionals: ['module'] },
  logs: { valued: ['--module', '--phase', '--severity', '--limit'], positionals: [] },
  'loop cancel': { valued: [], positionals: [] },
  'loop hook': { valued: ['--agent', '--payload'], positionals: ['agent'] },
  'loop install': { valued: ['--agent', '--settings'], positionals: ['agent'] },
  'loop pause': { valued: ['--reason'], positionals: [] },
  'loop resume': { valued: [], positionals: [] },
  'loop run': { valued: ['--prompt-file', '--prompt', '--max-iterations', '--completion-promise', '--done-when', '--done-when-timeout'], positionals: [], afterDashes: 'agent' },
  'loop start': { valued: ['--prompt-file', '--prompt', '--max-iterations', '--completion-promise', '--done-when', '--done-when-timeout', '--agent', '--session'], positionals: [] },
  'loop status': { valued: [], positionals: [] },
  ls: { valued: ['--glob', '--limit'], positionals: ['glob'] },
  mcp: { valued: ['--toolsets', '--tools'], positionals: [] },
  'memory recall': { valued: ['--query', '--category', '--scope', '--limit'], positionals: ['query'], rest: 'query' },
  'memory save': { valued: ['--pattern', '--category', '--confidence', '--tag', '--scope'], positionals: ['pattern'] },
  patch: { valued: ['--diff', '--file'], positionals: [] },
  'plan ack': { valued: ['--plan-id'], positionals: [] },
  'plan activate': { valued: ['--path'], positionals: [] },
  'plan advance': { valued: ['--plan-id', '--evidence', '--timeout'], positionals: [] },
  'plan check': { valued: ['--path'], positionals: [] },
  'plan end': { valued: ['--plan-id', '--reason'], positionals: [] },
  'plan install-hook': { valued: ['--agent', '--settings'], positionals: ['agent'] },
  'plan journal': { valued: ['--plan-id', '--verb', '--filter', '--limit'], positionals: [] },
  'plan new': { valued: ['--slug', '--date'], positionals: ['slug'] },
  'plan pause': { valued: ['--plan-id', '--reason'], positionals: [] },
  'plan preflight': { valued: ['--tool', '--path', '--tokens', '--command', '--surface', '--hook', '--payload'], positionals: [] },
  'plan resume': { valued: ['--plan-id'], positionals: [] },
  'plan status': { valued: [], positionals: [] },
  read: { valued: ['--path', '--start', '--end'], positionals: ['path'] },
  replace: { valued: ['--old', '--new', '--paths', '--glob'], positionals: ['old', 'new', 'paths'], rest: 'paths' },
  schema: { valued: ['--command'], positionals: ['command'], rest: 'command' },
  search: { valued: ['--pattern', '--paths', '--glob', '--limit'], positionals: ['pattern', 'paths'], rest: 'paths' },
  'session list': { valued: [], positionals: [] },
  'session load': { valued: [], positionals: [] },
  'session save': { valued: ['--phase', '--module-status', '--completed', '--total', '--state'], positionals: [] },
  'state export': { valued: ['--dir'], positionals: ['dir'] },
  'state log': { valued: ['--limit'], positionals: [] },
  'state show': { valued: ['--path'], positionals: ['path'] },
  'state sync': { valued: ['--remote'], positionals: ['remote'] },
  stats: { valued: [], positionals: [] },
  undo: { valued: ['--checkpoint'], positionals: ['checkpoint'] },
  validate: { valued: ['--module', '--cmd', '--file', '--contract', '--plan', '--timeout', '--max-attempts'], positionals: ['module'] },
  write: { valued: ['--path', '--content'], positionals: ['path'] },
};
