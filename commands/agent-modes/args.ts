// forge agent's arguments: the table its declaration (commands/agent.ts) gives, and the parsed arguments every mode of it takes.
import type { ArgsOf, ArgsSpec } from '../../lib/cli/declare';

export const ARGS = {
  task: {
    type: 'string',
    tool: '',
    positional: true,
    rest: true,
    placeholder: 'TASK',
    description: 'What the model is to do, in plain words (the words after the options are joined: quoting is optional).',
  },
  endpoint: {
    type: 'string',
    placeholder: 'URL',
    tool: 'API URL',
    description: 'The OpenAI-compatible API base URL, e.g. http://localhost:11434/v1.',
  },
  model: {
    type: 'string',
    placeholder: 'NAME',
    tool: '',
    description:
      "The model, as the endpoint names it (ollama list, or the provider's model id); else FORGE_MODEL, the profile's model, or one detected.",
  },
  profile: {
    type: 'string',
    placeholder: 'NAME',
    tool: '',
    description:
      'A profile of ~/.config/forge/config.json (endpoint, model, budget, hooks, MCP servers…); else FORGE_PROFILE, else the default one.',
  },
  'api-key-env': {
    type: 'string',
    placeholder: 'VAR',
    tool: 'Key env var',
    description: 'The environment variable that holds the API key (its name, never the key itself), e.g. OPENROUTER_API_KEY.',
  },
  'max-turns': {
    type: 'integer',
    min: 1,
    max: 500,
    default: 30,
    placeholder: 'N',
    tool: 'Max model calls',
    description: 'Stop after N model calls (per plan step with --plan); a run stopped by it did not finish and exits 1.',
  },
  quick: {
    type: 'boolean',
    alias: 'q',
    tool: 'One call, no tools',
    description: 'Ask the model once, without tools: for a question, not a change.',
  },
  'stall-seconds': {
    type: 'integer',
    min: 1,
    default: 120,
    placeholder: 'S',
    tool: 'Stall timeout',
    description: 'A streamed reply that sends no byte for S seconds is given up and retried, with backoff.',
  },
  budget: {
    type: 'integer',
    min: 500,
    placeholder: 'TOKENS',
    tool: 'Token budget',
    description:
      "The most tokens one request may hold, schemas and framing included (default 12000, lowered to fit the model's context); older tool results are compressed to stay under it.",
  },
  'dry-run': {
    type: 'boolean',
    tool: 'Print the request only',
    description: 'Print the first request exactly as it would be sent, and its size in tokens, without calling the model.',
  },
  continue: {
    type: 'boolean',
    alias: 'c',
    tool: 'Continue last session',
    description: "Start with a summary of the most recent session's turns (on the state ref), and add this task to it.",
  },
  session: { type: 'string', placeholder: 'ID', tool: '', description: 'Continue this session (an id from --list).' },
  list: { type: 'boolean', tool: '', description: 'List the sessions on the state ref.' },
  rollback: {
    type: 'integer',
    min: -500,
    max: 500,
    placeholder: 'N',
    personOnly: true,
    description:
      'Move the session back N turns (the most recent session, or --session ID): a later --continue builds on the turns before them. Nothing is deleted; --rollback -N restores N rolled-back turns, until a new turn follows them. forge undo takes the files back.',
  },
  plan: {
    type: 'boolean',
    alias: 'p',
    tool: 'Plan first',
    description:
      'Have the planner model write a module plan first, review it, then run each step in a fresh context, verified by forge validate.',
  },
  resume: {
    type: 'boolean',
    tool: 'Resume the plan',
    description: 'Go on with the newest plan that paused (a failed step, or one saved without approval): that step again, then the rest.',
  },
  yes: { type: 'boolean', alias: 'y', tool: 'Approve every step', description: 'Approve every step of the plan without asking.' },
  'planner-model': {
    type: 'string',
    placeholder: 'NAME',
    tool: '',
    description: "The model that writes the plan (default: the profile's planner_model, else the model).",
  },
  parallel: {
    type: 'integer',
    min: 1,
    max: 8,
    placeholder: 'N',
    personOnly: true,
    description:
      "With --plan: run up to N steps at once when they share no file and none depends on another, each in its own git worktree, merged back in step order (default: the profile's parallel_steps, else 1).",
  },
  'save-hooks': {
    type: 'boolean',
    personOnly: true,
    description:
      'Write the hooks detected in this repository into the profile of the config file (all five events), so later runs find them there; without it they serve this run only.',
  },
  attach: {
    type: 'array',
    placeholder: 'PATH',
    tool: '',
    description:
      'Pin these files (repeat the flag): their current content is in the system prompt of every call, read again when it changes, never compressed; --continue keeps them.',
  },
  detach: {
    type: 'array',
    placeholder: 'PATH',
    personOnly: true,
    description: 'Unpin these files of the session continued (--continue, --session): this task and the next go without them.',
  },
  image: {
    type: 'array',
    placeholder: 'PATH',
    tool: '',
    description:
      'Send these images with the task, as image_url parts (base64 data URLs), for a vision model; the first thing left out when a request is over --budget.',
  },
  mechanical: {
    type: 'boolean',
    tool: '',
    description: 'A plain replacement ("replace X with Y in src/"), done by forge replace with no model call.',
  },
} as const satisfies ArgsSpec;

export type AgentArgs = ArgsOf<typeof ARGS>;
