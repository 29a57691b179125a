// How forge agent says what it chose: each setting with where it came from and how to change it, and what it records.
import { recordableEndpoint } from '../redact';
import { RECORDINGS } from './config-recording';
import { NO_ROUTES, type AgentSettings, type ModelConfig, type Recording, type Source } from './config-types';

/**
 * The line forge agent prints about what it records: where each kind goes or what turned it off,
 * and how to turn it off. `kinds`: what this run can record (a plan saves no session turns).
 */
export function describeRecording(
  settings: Pick<AgentSettings, 'recording'>,
  kinds: readonly Recording[] = Object.keys(RECORDINGS) as Recording[],
): string {
  const on = kinds.filter((k) => settings.recording[k].value);
  const off = kinds
    .filter((k) => !settings.recording[k].value)
    .map((k) => `${RECORDINGS[k].what} (off ${describeSource(settings.recording[k].source)})`);
  if (!on.length) return `not recording ${off.join(' or ')}`;
  const what = on.map((k) => `${RECORDINGS[k].what} (${RECORDINGS[k].path})`).join(' and ');
  const how = `${on.map((k) => `${RECORDINGS[k].envs[0]}=1`).join(', ')} (or ${on.map((k) => RECORDINGS[k].key).join(', ')} in a profile) ${on.length === 1 ? 'turns it' : 'turn them'} off`;
  return `recording ${what} on refs/forge/state, secrets redacted${off.length ? `; not ${off.join(' or ')}` : ''}; ${how}`;
}

/** `from the --model flag`, `from FORGE_MODEL`, `from profiles.local.model in ~/.config/forge/config.json`… */
export function describeSource(source: Source): string {
  switch (source.kind) {
    case 'flag':
      return `from ${source.flag}`;
    case 'env':
      return `from $${source.name}`;
    case 'config':
      return `from ${source.key} in ${source.path}`;
    case 'detected':
      return `detected: ${source.detail}`;
    case 'default':
      return `default: ${source.detail}`;
  }
}

const FLAGS = { endpoint: '--endpoint URL', model: '--model NAME' } as const;
const ENVS = { endpoint: 'FORGE_ENDPOINT', model: 'FORGE_MODEL' } as const;

/**
 * What a first run (or `--verbose`) prints: each value, where it came from and how to change it,
 * e.g. `endpoint http://localhost:11434/v1 (detected: Ollama answered at …); change it with
 * --endpoint URL, $FORGE_ENDPOINT or a profile in ~/.config/forge/config.json`.
 */
export function describeModelConfig(config: ModelConfig): string[] {
  // The endpoint as it is recorded: a URL with credentials or a key in its query is not echoed.
  const shown = { endpoint: recordableEndpoint(config.endpoint.value), model: config.model.value };
  const lines = (['endpoint', 'model'] as const).map(
    (field) =>
      `${field} ${shown[field]} (${describeSource(config[field].source)}); change it with ${FLAGS[field]}, $${ENVS[field]} or a profile in ${config.configPath}`,
  );
  if (config.apiKeyEnv.value)
    lines.push(
      `API key from $${config.apiKeyEnv.value} (${describeSource(config.apiKeyEnv.source)}); change it with --api-key-env NAME or api_key_env in a profile`,
    );
  const routes = Object.entries(config.routes.value);
  if (!routes.length && config.routes.source.kind === 'default' && config.routes.source.detail !== NO_ROUTES)
    lines.push(`one model for every call: ${config.routes.source.detail}`);
  if (routes.length)
    lines.push(
      `model routes ${routes.map(([c, m]) => `${c} ${m}`).join(', ')} (${describeSource(config.routes.source)}); plan steps go by their category`,
    );
  if (config.plannerModel.value) lines.push(`planner model ${config.plannerModel.value} (${describeSource(config.plannerModel.source)})`);
  if (config.profile)
    lines.push(
      `profile ${config.profile.value} (${describeSource(config.profile.source)}); change it with --profile NAME or $FORGE_PROFILE`,
    );
  return lines;
}
