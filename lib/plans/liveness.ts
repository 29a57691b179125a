// Whether each agent's plan gate is live: installed where the agent loads it, trusted, and run by a release that blocks a call forge cannot answer.
import { execFile } from 'node:child_process';
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeLoads, claudeUserSettings, jsonHooks, ON_FAILURE_SINCE, readJsonSettings } from '../claude/settings';
import { CODEX_HOOKS_SINCE, codexTrust, handlerAt } from '../codex/config';
import { codexUserConfig, readCodexUserConfig } from '../codex/trust';
import { locateWorkspace } from '../files/workspace';
import { geminiFolderTrust, geminiHookOff, geminiLoads, geminiUserSettings } from '../gemini/settings';
import { HEADER, opencodeLoads, opencodeUserDirs, PLUGIN_NAME, PLUGIN_SOURCE } from '../opencode/plugin';
import { shellQuote } from '../quote';
import { HOOK_AGENTS, type HookAgent } from './tools';

/**
 * - live: the agent runs the gate on every tool call and refuses the call when forge cannot answer
 * - not-loaded: the gate is in a file the agent does not read
 * - untrusted: the agent skips it until it trusts the hook or the folder (Codex, Gemini CLI)
 * - disabled: the agent's settings turn it, or all hooks, off
 * - too-old: this release of the agent runs no hooks from that file
 * - fails-open: it runs, but a call goes through when forge cannot run, crashes or times out
 */
export type GateState = 'live' | 'not-loaded' | 'untrusted' | 'disabled' | 'too-old' | 'fails-open';

/** One agent's gate, as forge plan status and activate report it (a stable record). */
export interface GateReport {
  agent: HookAgent;
  live: boolean;
  state: GateState;
  /** The file the gate is installed in that this verdict is about. */
  file: string;
  /** The user's file (every project), the repository's, or another the agent does not read. */
  scope: 'user' | 'project' | 'none';
  /** For a project's file of Claude Code or Gemini CLI, the one directory the agent loads it in; else null (anywhere in the repository). */
  startAt: string | null;
  /** The agent's release, as its --version says (null: not checked, or not on PATH). */
  version: string | null;
  reason: string;
  /** The command that makes it live, or widens where it is (null: nothing to do). */
  fix: string | null;
}

interface Ctx {
  cwd: string;
  root: string;
  env: Record<string, string | undefined>;
  /** The user's Codex config.toml, where its hooks and their trust are. */
  codexUser: string | null;
  /** The agent's `--version`, asked at most once per program and answered in a few seconds or not at all. */
  version(program: string): Promise<string | null>;
}

/** The first x.y.z in what `program --version` prints, or null when it is not on PATH, fails or takes too long. */
function askVersion({
  program,
  cwd,
  env,
}: {
  program: string;
  cwd: string;
  env: Record<string, string | undefined>;
}): Promise<string | null> {
  return new Promise((done) => {
    execFile(program, ['--version'], { cwd, env, timeout: 3000, maxBuffer: 64 * 1024, windowsHide: true }, (err, stdout) =>
      done(err ? null : (/\d+\.\d+\.\d+/.exec(String(stdout))?.[0] ?? null)),
    );
  });
}

/** Whether release `a` comes before `b`, comparing x.y.z as numbers. */
export function olderThan(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if ((x![i] ?? 0) !== (y![i] ?? 0)) return (x![i] ?? 0) < (y![i] ?? 0);
  return false;
}

/** How each agent's gate command reads, whatever forge release wrote it. */
const GATE_COMMAND: Record<HookAgent, RegExp> = {
  claude: /\bforge plan preflight --hook claude\b/,
  codex: /\bforge plan preflight --hook codex\b/,
  gemini: /\bforge plan preflight --hook gemini\b/,
  opencode: /\bforge plan preflight --hook opencode\b/,
};
const isGate = (agent: HookAgent) => (command: string) => GATE_COMMAND[agent].test(command);

interface Probe {
  /** The files the agent reads hooks from for this repository, the user's first. */
  files(ctx: Ctx): string[];
  /** Whether `file` holds forge's gate (file reads only). */
  has(file: string): Promise<boolean>;
  judge(ctx: Ctx, file: string): Promise<GateReport>;
}

const report = (agent: HookAgent, file: string, r: Omit<GateReport, 'agent' | 'file' | 'live'>): GateReport => ({
  agent,
  live: r.state === 'live',
  state: r.state,
  file,
  scope: r.scope,
  startAt: r.startAt,
  version: r.version,
  reason: r.reason,
  fix: r.fix,
});

const NOT_LOADED = (agent: HookAgent, file: string, reason: string, fix: string) =>
  report(agent, file, { state: 'not-loaded', scope: 'none', startAt: null, version: null, reason, fix });

const where = (startAt: string | null, agent: string) =>
  startAt ? `only when ${agent} starts in ${startAt}; started in a subdirectory it runs ungated` : `wherever ${agent} starts`;

const claude: Probe = {
  files: (ctx) =>
    [claudeUserSettings(ctx), join(ctx.root, '.claude', 'settings.json'), join(ctx.root, '.claude', 'settings.local.json')].filter(
      (f): f is string => !!f,
    ),
  has: async (file) =>
    jsonHooks({ settings: (await readJsonSettings({ file })).settings, event: 'PreToolUse', matches: isGate('claude') }).length > 0,
  async judge(ctx, file) {
    const loads = claudeLoads({ file, env: ctx.env });
    if (loads.scope === 'none')
      return NOT_LOADED(
        'claude',
        file,
        `Claude Code never reads ${file}: it reads ~/.claude/settings.json, and .claude/settings.json in the directory it starts in`,
        'forge plan install-hook claude --user',
      );
    const { settings } = await readJsonSettings({ file });
    const user = claudeUserSettings(ctx);
    const base = { scope: loads.scope, startAt: loads.startAt, version: null as string | null };
    const off = [settings, user ? (await readJsonSettings({ file: user })).settings : null].some((s) => s?.disableAllHooks === true);
    if (off) return report('claude', file, { ...base, state: 'disabled', reason: 'disableAllHooks is true in its settings', fix: null });
    if (!jsonHooks({ settings, event: 'PreToolUse', matches: isGate('claude') }).some(({ hook }) => hook.onFailure === 'block'))
      return report('claude', file, {
        ...base,
        state: 'fails-open',
        reason: 'the hook has no "onFailure": "block": a call goes through when forge cannot run, crashes or times out',
        fix: `forge plan install-hook claude${loads.scope === 'user' ? ' --user' : ''}`,
      });
    base.version = await ctx.version('claude');
    if (base.version && olderThan(base.version, ON_FAILURE_SINCE))
      return report('claude', file, {
        ...base,
        state: 'fails-open',
        reason: `Claude Code ${base.version} is older than ${ON_FAILURE_SINCE} and ignores "onFailure": "block": a call goes through when forge cannot run, crashes or times out (npm on Node 20 installs no later release: they need Node 22)`,
        fix: 'npm install -g @anthropic-ai/claude-code@latest',
      });
    return report('claude', file, {
      ...base,
      state: 'live',
      reason: `Claude Code${base.version ? ` ${base.version}` : ''} reads ${file} ${where(loads.startAt, 'claude')}`,
      fix: loads.startAt ? 'forge plan install-hook claude --user' : null,
    });
  },
};

const codex: Probe = {
  files: (ctx) => [ctx.codexUser, join(ctx.root, '.codex', 'config.toml')].filter((f): f is string => !!f),
  has: async (file) =>
    handlerAt({
      config: (await readCodexUserConfig(file).catch(() => ({ config: {} }))).config,
      event: 'PreToolUse',
      command: isGate('codex'),
    }).length > 0,
  async judge(ctx, file) {
    const t = await codexTrust({ file, event: 'PreToolUse', command: isGate('codex'), cwd: ctx.cwd, env: ctx.env, record: false }).catch(
      (err: Error) => err,
    );
    if (t instanceof Error) return NOT_LOADED('codex', file, t.message, 'forge plan install-hook codex');
    if (t.layer === 'none') return NOT_LOADED('codex', file, t.blocked!.reason, t.blocked!.fix);
    const base = { scope: t.layer, startAt: null, version: await ctx.version('codex') };
    if (base.version && olderThan(base.version, CODEX_HOOKS_SINCE))
      return report('codex', file, {
        ...base,
        state: 'too-old',
        reason: `Codex ${base.version} reads no hooks from config.toml (${CODEX_HOOKS_SINCE} or later does)`,
        fix: 'npm install -g @openai/codex@latest',
      });
    if (t.blocked) return report('codex', file, { ...base, state: t.blocked.state, reason: t.blocked.reason, fix: t.blocked.fix });
    return report('codex', file, {
      ...base,
      state: 'live',
      reason: `Codex${base.version ? ` ${base.version}` : ''} trusts the hook and reads ${file} ${t.layer === 'user' ? 'in every project' : 'anywhere in the project'}`,
      fix: null,
    });
  },
};

const gemini: Probe = {
  files: (ctx) => [geminiUserSettings(ctx), join(ctx.root, '.gemini', 'settings.json')].filter((f): f is string => !!f),
  has: async (file) =>
    jsonHooks({ settings: (await readJsonSettings({ file, comments: true })).settings, event: 'BeforeTool', matches: isGate('gemini') })
      .length > 0,
  async judge(ctx, file) {
    const loads = geminiLoads({ file, env: ctx.env });
    if (loads.scope === 'none')
      return NOT_LOADED(
        'gemini',
        file,
        `Gemini CLI never reads ${file}: it reads ~/.gemini/settings.json, and .gemini/settings.json in the directory it starts in`,
        'forge plan install-hook gemini --user',
      );
    const { settings } = await readJsonSettings({ file, comments: true });
    const userFile = geminiUserSettings(ctx);
    const user = userFile ? (await readJsonSettings({ file: userFile, comments: true })).settings : null;
    const base = { scope: loads.scope, startAt: loads.startAt, version: null };
    const hook = jsonHooks({ settings, event: 'BeforeTool', matches: isGate('gemini') })[0]!.hook;
    const off = [user, settings]
      .map((s) => geminiHookOff({ settings: s, name: String(hook.name ?? ''), command: String(hook.command) }))
      .find(Boolean);
    if (off) return report('gemini', file, { ...base, state: 'disabled', reason: `its settings turn the hook off (${off})`, fix: null });
    const trust = await geminiFolderTrust({ dir: loads.startAt ?? ctx.root, env: ctx.env, userSettings: user });
    if (!trust.trusted)
      return report('gemini', file, {
        ...base,
        state: 'untrusted',
        reason: `Gemini CLI runs no hooks, not even the user's, in a folder it does not trust, and ${loads.startAt ?? ctx.root} is ${trust.why}: trust it when Gemini CLI asks on start (or with /permissions)`,
        fix: `cd ${shellQuote(loads.startAt ?? ctx.root)} && gemini`,
      });
    return report('gemini', file, {
      ...base,
      state: 'live',
      reason: `Gemini CLI trusts the folder (${trust.why}) and reads ${file} ${where(loads.startAt, 'gemini')}`,
      fix: loads.startAt ? 'forge plan install-hook gemini --user' : null,
    });
  },
};

const opencode: Probe = {
  files: (ctx) => [
    ...opencodeUserDirs(ctx).flatMap((d) => [join(d, 'plugins', PLUGIN_NAME), join(d, 'plugin', PLUGIN_NAME)]),
    join(ctx.root, '.opencode', 'plugins', PLUGIN_NAME),
    join(ctx.root, '.opencode', 'plugin', PLUGIN_NAME),
  ],
  has: async (file) => ((await readFile(file, 'utf8').catch(() => '')) || '').startsWith(HEADER),
  async judge(ctx, file) {
    const loads = opencodeLoads({ file, env: ctx.env, root: ctx.root });
    if (loads.scope === 'none')
      return NOT_LOADED(
        'opencode',
        file,
        `OpenCode never loads ${file}: it loads the plugins/ of ~/.config/opencode and of the repository's .opencode`,
        'forge plan install-hook opencode',
      );
    const current = (await readFile(file, 'utf8').catch(() => '')) === PLUGIN_SOURCE;
    return report('opencode', file, {
      scope: loads.scope,
      startAt: null,
      version: null,
      state: 'live',
      reason: `OpenCode loads ${file} at start, ${loads.startAt ? `at or below ${loads.startAt}` : loads.scope === 'user' ? 'in every project' : 'anywhere in the repository'}${current ? '' : " (an older forge plugin: forge plan install-hook opencode brings this forge's)"}`,
      fix: current ? null : 'forge plan install-hook opencode',
    });
  },
};

const PROBES: Record<HookAgent, Probe> = { claude, codex, gemini, opencode } satisfies Record<HookAgent, Probe>;

async function context({ cwd, env }: { cwd: string; env: Record<string, string | undefined> }): Promise<Ctx> {
  const asked = new Map<string, Promise<string | null>>();
  return {
    cwd,
    env,
    root: (await locateWorkspace({ cwd })).root,
    codexUser: (await codexUserConfig({ env }))?.file ?? null,
    version(program) {
      if (!asked.has(program)) asked.set(program, askVersion({ program, cwd, env }));
      return asked.get(program)!;
    },
  };
}

/** The verdict on the gate forge installed in `file` for `agent` (forge plan install-hook's last word). */
export async function gateReport({
  agent,
  file,
  cwd,
  env,
}: {
  agent: HookAgent;
  file: string;
  cwd: string;
  env: Record<string, string | undefined>;
}): Promise<GateReport> {
  return PROBES[agent].judge(await context({ cwd, env }), file);
}

/**
 * Every agent whose gate is installed where it could load it for this repository, with its verdict:
 * the best of its files (a live one, the user's before the project's). Agents with no gate are left
 * out. File reads, and at most one short --version per agent whose gate is there.
 */
export async function gateReports({ cwd, env }: { cwd: string; env: Record<string, string | undefined> }): Promise<GateReport[]> {
  const ctx = await context({ cwd, env });
  const found = await Promise.all(
    HOOK_AGENTS.map(async (agent) => {
      const probe = PROBES[agent];
      const files = [...new Set(probe.files(ctx))];
      const present = (await Promise.all(files.map((f) => probe.has(f).catch(() => false)))).map((yes, i) => (yes ? files[i]! : null));
      // A verdict that fails to come is no gate: status still answers, and says why.
      const judged = (f: string) =>
        probe
          .judge(ctx, f)
          .catch((err: Error) =>
            NOT_LOADED(agent, f, `forge could not tell whether the gate is live: ${err.message}`, `forge plan install-hook ${agent}`),
          );
      const reports = await Promise.all(present.filter((f): f is string => !!f).map(judged));
      const best = reports.find((r) => r.live && !r.startAt) ?? reports.find((r) => r.live) ?? reports[0] ?? null;
      return best && (await startedElsewhere(best, ctx.cwd));
    }),
  );
  return found.filter((r): r is GateReport => r !== null);
}

/**
 * A gate the agent loads only when it starts in one directory, asked about from another: an agent
 * started here runs ungated, so it is reported not live — never as gated — and says where it would be.
 */
async function startedElsewhere(r: GateReport, cwd: string): Promise<GateReport> {
  if (!r.live || !r.startAt) return r;
  const [here, there] = await Promise.all([realpath(cwd).catch(() => cwd), realpath(r.startAt).catch(() => r.startAt!)]);
  if (here === there) return r;
  return {
    ...r,
    live: false,
    state: 'not-loaded',
    reason: `started in ${cwd}, ${r.agent} does not read ${r.file}; ${r.reason}`,
  };
}

/** The text lines for the reports: one per agent, with the fix under a gate that is not live. */
export function gateLines(reports: GateReport[], { planActive }: { planActive: boolean }): string[] {
  return reports.flatMap((r) => [
    `${r.agent} gate: ${r.live ? 'live' : `not live (${r.state})${planActive && r.state !== 'fails-open' ? `: ${r.agent} runs ungated` : ''}`} — ${r.reason}`,
    ...(r.fix ? [`  ${r.live ? `wherever ${r.agent} starts` : 'fix'}: ${r.fix}`] : []),
  ]);
}
