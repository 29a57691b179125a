// The profile a call of forge agent uses (--profile, FORGE_PROFILE, the file's default, its only one) and its settings — hooks, MCP servers, auto-commit, recording — without resolving a model, so nothing here reaches the network.
import { homedir } from 'node:os';
import { InvalidInputError } from '../errors';
import { shellQuote } from '../quote';
import { configPath, editFix, loadConfigFile } from './config-file';
import { envSaysOff, RECORDINGS } from './config-recording';
import {
  DEFAULT_AUTO_COMMIT_PREFIX,
  HOOK_EVENTS,
  type AgentFlags,
  type AgentSettings,
  type ConfigFile,
  type ConfigProfile,
  type HookConfig,
  type Recording,
  type Source,
  type Sourced,
} from './config-types';

/** PROFILE_NOT_CHOSEN: the file has several profiles and no default, and nothing named one. */
export function profileNotChosen({ path, names, command }: { path: string; names: string[]; command: string }): InvalidInputError {
  return new InvalidInputError('PROFILE_NOT_CHOSEN', `'${path}' has profiles ${names.map((n) => `'${n}'`).join(', ')} and no "default"`, {
    fix: `${command} --profile ${shellQuote(names[0]!)}`,
    data: { profiles: names },
  });
}

/** The endpoint and model a flag, the environment or the profile names (detection comes later); the endpoint without trailing slashes. */
/**
 * The profile's hooks, MCP servers and auto-commit, chosen as resolveModelConfig chooses the
 * profile (--profile, FORGE_PROFILE, the file's default, its only profile) but without resolving
 * a model, so it never probes the network. `command` names the command in the fixes of errors.
 */
export async function resolveAgentSettings({
  flags = {},
  env,
  homeDir = env.HOME || homedir(),
  command = 'forge agent',
}: {
  flags?: Pick<AgentFlags, 'profile'>;
  env: Record<string, string | undefined>;
  homeDir?: string;
  command?: string;
}): Promise<AgentSettings> {
  const path = configPath({ env, homeDir });
  const file = await loadConfigFile(path);
  const profile = chooseProfile({ flags, env, file, path, command });
  const names = file ? Object.keys(file.profiles) : [];
  // Which profile's hooks and servers? Guessing would show settings the agent does not use.
  if (!profile && names.length > 1) throw profileNotChosen({ path, names, command });
  return profileSettings({ file, profile, path, env });
}

export function profileSettings({
  file,
  profile,
  path,
  env,
}: {
  file: ConfigFile | null;
  profile: Sourced<string> | null;
  path: string;
  env: Record<string, string | undefined>;
}): AgentSettings {
  const p: ConfigProfile = profile ? (file?.profiles[profile.value] ?? {}) : {};
  const from = (key: keyof ConfigProfile): Source => ({ kind: 'config', path, key: `profiles.${profile?.value}.${key}` });
  const unset = (detail: string): Source => ({ kind: 'default', detail });
  return {
    profile,
    configPath: path,
    hooks: p.hooks
      ? { value: Object.fromEntries(HOOK_EVENTS.map((e) => [e, p.hooks![e] ?? []])) as HookConfig, source: from('hooks') }
      : {
          value: null,
          source: unset(
            profile
              ? `profiles.${profile.value} has no hooks yet: forge agent detects them and writes them there`
              : 'no profile: forge agent detects hooks and writes them into a new profile',
          ),
        },
    hooksDisabled:
      p.hooks_disabled !== undefined
        ? { value: p.hooks_disabled, source: from('hooks_disabled') }
        : { value: false, source: unset('hooks run unless hooks_disabled is true') },
    hooksDetectedFrom: p.hooks_detected_from ?? null,
    mcpServers: p.mcp_servers
      ? { value: p.mcp_servers, source: from('mcp_servers') }
      : { value: [], source: unset('no MCP servers configured') },
    autoCommit:
      p.auto_commit !== undefined
        ? { value: p.auto_commit || null, source: from('auto_commit') }
        : { value: null, source: unset('auto-commit is off') },
    autoCommitPrefix:
      p.auto_commit_prefix !== undefined
        ? { value: p.auto_commit_prefix, source: from('auto_commit_prefix') }
        : { value: DEFAULT_AUTO_COMMIT_PREFIX, source: unset(`commit messages start with '${DEFAULT_AUTO_COMMIT_PREFIX}'`) },
    gitContext:
      p.git_context !== undefined
        ? { value: p.git_context, source: from('git_context') }
        : { value: 'preamble', source: unset('git status, the last commits and the staged diff open the system prompt') },
    parallelSteps:
      p.parallel_steps !== undefined
        ? { value: p.parallel_steps, source: from('parallel_steps') }
        : { value: 1, source: unset('plan steps run one after another unless parallel_steps is more than 1') },
    recording: Object.fromEntries(
      (Object.keys(RECORDINGS) as Recording[]).map((kind) => {
        const { key, envs } = RECORDINGS[kind];
        const offBy = envs.find((name) => envSaysOff(env[name]));
        const value: Sourced<boolean> = offBy
          ? { value: false, source: { kind: 'env', name: offBy } }
          : p[key] !== undefined
            ? { value: !p[key], source: from(key) }
            : { value: true, source: unset(`recorded unless ${key} is true or ${envs.map((e) => `${e}=1`).join(' or ')}`) };
        return [kind, value];
      }),
    ) as Record<Recording, Sourced<boolean>>,
  };
}

export function first<T>(candidates: Array<[T | undefined, Source]>): Sourced<T> | undefined {
  for (const [value, source] of candidates) if (value !== undefined && value !== '') return { value, source };
  return undefined;
}

/** The profile named by flag or env, else the file's default, else its only profile. */
export function chooseProfile({
  flags,
  env,
  file,
  path,
  command = 'forge agent',
}: {
  flags: Pick<AgentFlags, 'profile'>;
  env: Record<string, string | undefined>;
  file: ConfigFile | null;
  path: string;
  command?: string;
}): Sourced<string> | null {
  const named = first<string>([
    [flags.profile, { kind: 'flag', flag: '--profile' }],
    [env.FORGE_PROFILE, { kind: 'env', name: 'FORGE_PROFILE' }],
  ]);
  const names = file ? Object.keys(file.profiles) : [];
  if (named) {
    if (file?.profiles[named.value]) return named;
    throw new InvalidInputError(
      'PROFILE_NOT_FOUND',
      `no profile '${named.value}' in '${path}'${names.length ? `; it has ${names.map((n) => `'${n}'`).join(', ')}` : ''}`,
      {
        fix: names[0] !== undefined ? `${command} --profile ${shellQuote(names[0])}` : editFix(path),
        data: { profile: named.value, profiles: names },
      },
    );
  }
  if (!file) return null;
  if (file.default !== undefined) return { value: file.default, source: { kind: 'config', path, key: 'default' } };
  if (names.length === 1) return { value: names[0]!, source: { kind: 'config', path, key: 'profiles (its only profile)' } };
  return null;
}
