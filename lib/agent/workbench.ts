// What surrounds a model run: the tools (forge's own and MCP servers'), the contract gate, hooks, checkpoints, auto-commit.
import { autoCommit, createCheckpoint, listCheckpoints, workTreeChanges, type CheckpointKind, type FileChange } from '../git/checkpoint';
import type { ToolCallGuards } from './agent';
import type { HookConfig, HookEvent, ModelConfig } from './config-types';
import { contractGate } from './gate';
import { ensureHooks, formatHookResults, runHooks } from './hooks';
import type { ImpactWarning } from './impact';
import { startMcpServers, type McpServers } from './mcp-client';
import { inScope, type StepCategory } from './routes';
import { recordEvents, toolCallEvent } from '../logs/events';
import type { Repo } from '../git/repo';
import type { StateStore } from '../git/state';
import { capOutput, mergeTools, type AgentTools } from './tools';

export interface Workbench {
  /** forge's tools and every MCP server's. */
  tools: AgentTools;
  /** forge's tools and the MCP servers whose scope holds the category (a server without scope: every category). */
  toolsFor(category: StepCategory): AgentTools;
  guards: ToolCallGuards;
  /** The same guards for calls working in another worktree (a plan step running at once with others): on_edit hooks run there. */
  guardsAt(root: string): ToolCallGuards;
  /** A checkpoint of the work tree (untracked files included) on refs/forge/checkpoints; its commit, or null outside git. */
  checkpoint(summary: string, kind: CheckpointKind): Promise<string | null>;
  /** Paths changed since a checkpoint, untracked files included. */
  changedSince(checkpoint: string): Promise<string[]>;
  /** What changed since a checkpoint, its number for forge diff / forge undo, and the change-impact sweep's warnings. */
  sweep(checkpoint: string): Promise<{ changes: FileChange[]; number: number | null; warnings: ImpactWarning[] }>;
  /** Runs an event's hooks; their report (empty when the event has none). */
  hook(event: HookEvent): Promise<string>;
  /** Commits everything when the profile's auto_commit asks for it at this point; the new commit or null. */
  commit(at: 'task' | 'step' | 'plan', message: string): Promise<string | null>;
  /** Runs on_session_end and stops the MCP servers. */
  close(): Promise<string>;
}

/** A notice for the person: what was set up, or what was skipped (a broken MCP server). */
export type Notice = { kind: 'hooks' | 'mcp' | 'warning'; text: string };

/** MCP results are capped like bash output: a server may return a whole web page. `offered`: the servers whose tools the model gets. */
function mcpTools(mcp: McpServers, offered: (server: string) => boolean = () => true): AgentTools {
  const names = new Set(mcp.tools.filter((t) => offered(t.server)).map((t) => t.wireName));
  return {
    schemas: mcp.schemas().filter((s) => names.has(s.function.name)),
    run: async (name, args) => {
      if (!names.has(name)) return { ok: false, text: `Error: no tool '${name}' in this step (MCP servers are scoped by category)` };
      const r = await mcp.call(name, args);
      return { ok: r.ok, text: capOutput(r.text) };
    },
  };
}

/** The profile's hooks, or those detected for this run (written into the profile only when `saveHooks` says so), each said as a notice. */
async function setUpHooks({
  config,
  root,
  env,
  notice,
  saveHooks,
}: {
  config: ModelConfig;
  root: string;
  env: NodeJS.ProcessEnv;
  notice: (n: Notice) => Promise<void>;
  saveHooks: (found: { profile: string; markers: string[]; configPath: string }) => Promise<boolean>;
}): Promise<HookConfig | null> {
  const ensured = await ensureHooks({
    configPath: config.configPath,
    profile: config.profile?.value ?? null,
    root,
    env,
    mayWrite: (found) => saveHooks({ ...found, configPath: config.configPath }),
  });
  if (ensured.warning) await notice({ kind: 'warning', text: ensured.warning });
  // Said only when something was found: a repository without build files has nothing to keep.
  if (ensured.origin === 'detected' && ensured.profile && !config.hooks.value && ensured.markers.length) {
    await notice({
      kind: 'hooks',
      text: `hooks detected from ${ensured.markers.join(', ')} serve this run only; forge agent --save-hooks writes them into profiles.${ensured.profile}.hooks of ${ensured.configPath} (forge hooks list shows them)`,
    });
  }
  if (ensured.origin === 'written') {
    const found = ensured.markers.length
      ? `hooks detected from ${ensured.markers.join(', ')}`
      : 'no build file to detect hooks from (Cargo.toml, tsconfig.json, go.mod, pyproject.toml); the five events, empty,';
    await notice({
      kind: 'hooks',
      text: `${found} written to profiles.${ensured.profile}.hooks in ${ensured.configPath} (forge hooks list)`,
    });
  }
  const hooks = ensured.disabled ? null : ensured.hooks;
  const active = hooks ? Object.entries(hooks).filter(([, c]) => c.length) : [];
  if (active.length)
    await notice({
      kind: 'hooks',
      text: `⚙ hooks  ${active.map(([e, c]) => `${e}: ${c.join(' && ')}`).join('  ·  ')}  (forge hooks list)`,
    });
  return hooks;
}

/** The profile's MCP servers, started; a broken one is skipped with one notice. */
async function startServers({
  config,
  root,
  env,
  notice,
}: {
  config: ModelConfig;
  root: string;
  env: NodeJS.ProcessEnv;
  notice: (n: Notice) => Promise<void>;
}): Promise<McpServers> {
  const profile = config.profile?.value;
  const warnings: string[] = [];
  const mcp = await startMcpServers({
    servers: config.mcpServers.value,
    cwd: root,
    env,
    onWarning: (w) => warnings.push(w.message),
    configKey: profile ? `profiles.${profile}.mcp_servers` : 'mcp_servers',
    configPath: config.configPath,
  });
  for (const w of warnings) await notice({ kind: 'warning', text: w });
  if (mcp.servers.length)
    await notice({
      kind: 'mcp',
      text: `MCP: ${mcp.servers.map((s) => `${s.name} (${s.tools} tool${s.tools === 1 ? '' : 's'}${scopeOf(config, s.name)})`).join(', ')}`,
    });

  return mcp;
}

/** `; for deep, search` after a scoped server's tool count. */
function scopeOf(config: ModelConfig, server: string): string {
  const scope = config.mcpServers.value.find((s) => s.name === server)?.scope;
  return scope ? `; for ${scope.join(', ')}` : '';
}

/** The contract gate, each check logged under the run (as forge plan preflight's call is when the CLI runs it). */
function planGate({
  repo,
  store,
  runId,
  now,
  root,
  cwd,
}: {
  repo: Repo;
  store: StateStore;
  runId: string | null;
  now: () => Date;
  root: string;
  cwd: string;
}) {
  return contractGate({
    store,
    root,
    cwd,
    runId,
    now,
    log: async ({ exitCode, error, durationMs }) => {
      if (runId === null) return;
      const event = toolCallEvent({ runId, name: 'plan preflight', exitCode, error, durationMs, now: now() });
      // Logging never fails the call it records.
      await recordEvents({ repo, store: async () => store, runId, events: [event] }).catch(() => {});
    },
  });
}

/**
 * Sets up a run: detects hooks (written into the profile only when `saveHooks` says so), starts the profile's MCP servers
 * (a broken one is skipped with one notice), and puts the contract gate and on_edit hooks around
 * every tool call. `close()` must follow, even on failure: it stops the servers.
 */
export async function openWorkbench({
  forgeTools,
  config,
  root,
  cwd,
  env,
  state,
  notice,
  saveHooks,
}: {
  /** forge's own commands as tools, with bash (lib/cli/agent-tools.ts). */
  forgeTools: AgentTools;
  config: ModelConfig;
  root: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The repository and its state, for the contract gate and the run's log; null outside a repository. */
  state: { repo: Repo; store: StateStore; runId: string | null; now: () => Date } | null;
  notice: (n: Notice) => Promise<void>;
  /** Whether detected hooks may go into the user's config file (only with --save-hooks). */
  saveHooks: (found: { profile: string; markers: string[]; configPath: string }) => Promise<boolean>;
}): Promise<Workbench> {
  const hooks = config.hooksDisabled.value ? null : await setUpHooks({ config, root, env, notice, saveHooks });
  const mcp = await startServers({ config, root, env, notice });
  const tools = mergeTools(forgeTools, mcpTools(mcp));
  const servers = new Map(config.mcpServers.value.map((s) => [s.name, s]));
  const toolsFor = (category: StepCategory) =>
    mergeTools(
      forgeTools,
      mcpTools(mcp, (server) => inScope(servers.get(server) ?? {}, category)),
    );
  // A contract names MCP tools as `<server>.<tool>`, the way forge shows them, not by wire name.
  const shown = new Map(mcp.tools.map((t) => [t.wireName, t.name]));
  const gate = state ? planGate({ ...state, root, cwd }) : null;
  // Hooks are per profile, so a hook detected in one project can meet another without its tools:
  // a command the shell cannot find (exit 127) is reported once, then left out for the session.
  const missing = new Set<string>();
  const runEvent = async (event: HookEvent, at = root) => {
    const commands = (hooks?.[event] ?? []).filter((c) => !missing.has(c));
    if (!commands.length) return '';
    const results = await runHooks({ commands, cwd: at, env });
    const notFound = results.filter((r) => r.exitCode === 127).map((r) => r.command);
    for (const c of notFound) missing.add(c);
    const report = formatHookResults(results, event);
    return notFound.length
      ? `${report}\n(not found, so not run again in this session: ${notFound.join(', ')}; forge hooks list shows the profile's hooks)`
      : report;
  };
  const guardsAt = (at: string): ToolCallGuards => ({
    ...(gate ? { gate: (name: string, args: Record<string, unknown>) => gate(shown.get(name) ?? name, args) } : {}),
    ...(hooks?.on_edit.length ? { afterChange: async () => `\n${await runEvent('on_edit', at)}` } : {}),
  });
  const guards = guardsAt(root);
  const started = await runEvent('on_session_start');
  if (started) await notice({ kind: 'hooks', text: started });
  const mode = config.autoCommit.value;
  const prefix = config.autoCommitPrefix.value;
  return {
    tools,
    toolsFor,
    guards,
    guardsAt,
    checkpoint: async (summary, kind) => (state ? ((await createCheckpoint({ cwd: root, message: summary, kind }))?.oid ?? null) : null),
    changedSince: async (checkpoint) => (await workTreeChanges({ cwd: root, base: checkpoint })).files.map((f) => f.path),
    sweep: async (checkpoint) => {
      const { impactSweep } = await import('./impact');
      const [{ files }, impact, list] = await Promise.all([
        workTreeChanges({ cwd: root, base: checkpoint }),
        impactSweep({ cwd: root, base: checkpoint }),
        listCheckpoints({ cwd: root }),
      ]);
      return { changes: files, number: list.find((c) => c.oid === checkpoint)?.n ?? null, warnings: impact.warnings };
    },
    hook: (event) => runEvent(event),
    // auto_commit "task": a commit per task, and per plan step (each step is a task of its own);
    // "plan": a commit per task, and one per plan once every step passed.
    commit: async (at, message) => {
      if (!state || !mode || (at === 'step' && mode !== 'task') || (at === 'plan' && mode !== 'plan')) return null;
      return autoCommit({ cwd: root, message: `${prefix}${message}` });
    },
    close: async () => {
      try {
        return await runEvent('on_session_end');
      } finally {
        await mcp.close();
      }
    },
  };
}
