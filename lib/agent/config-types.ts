// The shapes of forge agent's settings: each value with where it came from, a profile as the config file holds it, and the constants that bound them.
import type { StepCategory } from '../plans/modules';

/** The routes' source when the profile has none. */
export const NO_ROUTES = 'no model_routes';

/** A profile's model per category; a category without one takes `standard`'s, else the model. */
export type ModelRoutes = Partial<Record<StepCategory, string>>;

export interface AgentFlags {
  endpoint?: string;
  model?: string;
  profile?: string;
  apiKeyEnv?: string;
  plannerModel?: string;
}

/** Where a value came from, precise enough to tell the user how to change it. */
export type Source =
  | { kind: 'flag'; flag: string }
  | { kind: 'env'; name: string }
  | { kind: 'config'; path: string; key: string }
  | { kind: 'detected'; detail: string }
  | { kind: 'default'; detail: string };

export interface Sourced<T> {
  value: T;
  source: Source;
}

export interface CostPerMtok {
  input: number;
  output: number;
}

/** The moments a profile's hook commands run at; `on_edit` output goes back to the model with the tool result. */
export const HOOK_EVENTS = ['on_edit', 'on_task_done', 'on_step_done', 'on_session_start', 'on_session_end'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
/** Shell commands per event, every event present (an empty list runs nothing). */
export type HookConfig = Record<HookEvent, string[]>;

/** An MCP server forge starts over stdio: `command` is the program and its arguments, no shell. */
export interface McpServerConfig {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** Relative to the repository top. */
  cwd?: string;
  /** The categories whose calls get this server's tools; absent: every category. */
  scope?: StepCategory[];
}

/** One commit per task, or one per plan. */
export type AutoCommit = 'task' | 'plan';

/** Server names become tool-name prefixes, which providers restrict to [A-Za-z0-9_-]. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;

/** What an environment variable's name may be: api_key_env, --api-key-env and an MCP server's env keys are checked against it. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const DEFAULT_AUTO_COMMIT_PREFIX = 'forge: ';
export const GIT_CONTEXT_MODES = ['preamble', 'tool', 'off'] as const;
export type GitContextMode = (typeof GIT_CONTEXT_MODES)[number];

/** What forge agent records on the state ref besides its plans (config-recording.ts RECORDINGS says where, and what turns each off). */
export type Recording = 'telemetry' | 'sessions';

/** What a profile says besides the model: hooks, MCP servers, auto-commit, recording. Resolving these never probes a network. */
export interface AgentSettings {
  /** The profile in use, if any. */
  profile: Sourced<string> | null;
  configPath: string;
  /** Every event's commands; null when the profile has no `hooks` key yet (forge agent detects them and writes them there). */
  hooks: Sourced<HookConfig | null>;
  /** `hooks_disabled: true`: no hook runs and none is detected. */
  hooksDisabled: Sourced<boolean>;
  /** The build files detected hooks came from; null for hooks a person wrote (they serve every project). */
  hooksDetectedFrom: string[] | null;
  mcpServers: Sourced<McpServerConfig[]>;
  /** null: auto-commit is off (the default). */
  autoCommit: Sourced<AutoCommit | null>;
  autoCommitPrefix: Sourced<string>;
  /** How the model sees git status, the last commits and the staged diff: a capped preamble (the default), a git_context tool, or not at all. */
  gitContext: Sourced<GitContextMode>;
  /** How many independent plan steps may run at once, each in its own git worktree (parallel_steps; 1: one after another). */
  parallelSteps: Sourced<number>;
  /** Whether each kind is recorded (true) or turned off (false), and by what. */
  recording: Record<Recording, Sourced<boolean>>;
}

export interface ModelConfig extends AgentSettings {
  endpoint: Sourced<string>;
  model: Sourced<string>;
  /** The name of the variable holding the API key; null for endpoints that need none (Ollama). */
  apiKeyEnv: Sourced<string | null>;
  /** The key itself, read from `apiKeyEnv`. */
  apiKey: string | undefined;
  /** A model for planning; null means the main model plans too (no other model is ever called unasked). */
  plannerModel: Sourced<string | null>;
  /** Dollars per million tokens, for the cost shown after a run; null when unknown. */
  cost: Sourced<CostPerMtok | null>;
  /** The model's context in tokens from the profile's context_window; null when the profile gives none (forge agent then asks Ollama). */
  contextWindow: Sourced<number | null>;
  /** The profile's model_routes while its model is the one in use (a --model or FORGE_MODEL means one model for every call); {} otherwise. */
  routes: Sourced<ModelRoutes>;
  /** auto_quick: a short question without files or plan words goes to quick mode. */
  autoQuick: Sourced<boolean>;
  /**
   * No flag, env or profile chose the endpoint and the config file sets no endpoint or model
   * anywhere (it is missing, or holds only what forge wrote itself, like detected hooks): the CLI
   * should say what was picked.
   */
  firstRun: boolean;
}

/** The most plan steps that run at once: each holds a worktree and a model request. */
export const MAX_PARALLEL_STEPS = 8;

export interface ConfigProfile {
  endpoint?: string;
  model?: string;
  api_key_env?: string;
  planner_model?: string;
  cost_per_mtok?: CostPerMtok;
  /** The model's context in tokens, for endpoints forge cannot ask (everything but Ollama). */
  context_window?: number;
  /** A model per category of call: plan steps by their category, quick mode by quick, the planner by deep. */
  model_routes?: ModelRoutes;
  /** `true`: a short task naming no file and no plan word runs as --quick. */
  auto_quick?: boolean;
  /** As written: events may be missing. */
  hooks?: Partial<HookConfig>;
  hooks_disabled?: boolean;
  /**
   * Written with detected hooks: the build files they came from. A repository with other build
   * files gets its own detected hooks for the run instead (the profile serves every project).
   */
  hooks_detected_from?: string[];
  mcp_servers?: McpServerConfig[];
  /** `true` in the file is read as "task". */
  auto_commit?: AutoCommit | false;
  auto_commit_prefix?: string;
  /** "preamble" (default: measured cheapest by bench/git-context.ts), "tool" or "off". */
  git_context?: GitContextMode;
  /** Plan steps with no shared file and no dependency that may run at once, each in its own worktree (1 to 8; default 1). */
  parallel_steps?: number;
  /** `true`: forge agent appends nothing to .forge/telemetry/. */
  telemetry_disabled?: boolean;
  /** `true`: forge agent saves no session turns (.forge/agent/sessions/); --continue has nothing new to continue. */
  sessions_disabled?: boolean;
}

export interface ConfigFile {
  default?: string;
  profiles: Record<string, ConfigProfile>;
}
