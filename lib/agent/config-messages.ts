// What is wrong with a config file, in the user's words: the first error of the compiled schema (config-validator.gen.ts) turned into the message for the key it is about, as a table.
import { STEP_CATEGORIES } from '../plans/modules';
import { RECORDINGS } from './config-recording';
import { HOOK_EVENTS, MAX_PARALLEL_STEPS } from './config-types';

/** One error of the compiled validator (Ajv's shape). */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** What a rule is told: the key's place as the user reads it, the error, and an unknown key's name or the value there. */
interface At {
  at: string;
  error: SchemaError;
  extra: string | undefined;
  value: unknown;
}

const SERVER_EXAMPLE = '["npx", "-y", "some-mcp-server"]';
const scopeWhy = `must be a non-empty list of categories (${STEP_CATEGORIES.join(', ')}); leave it out for every category`;

/**
 * The message of each key, by its place in the file: `*` any name (a profile, an event), `#` any
 * index. A key without a rule takes its nearest enclosing key's.
 */
const RULES: Array<[string, (a: At) => string]> = [
  ['', () => 'the top level must be an object with "profiles"'],
  ['profiles', () => '"profiles" must be an object of named profiles'],
  ['default', () => '"default" must be the name of a profile'],
  ['profiles.*', ({ at }) => `${at} must be an object`],
  ...(['endpoint', 'model', 'planner_model'] as const).map((key): [string, (a: At) => string] => [
    `profiles.*.${key}`,
    ({ at }) => `${at} must be a non-empty string`,
  ]),
  [
    'profiles.*.api_key_env',
    ({ at, error }) =>
      error.keyword === 'pattern' ? `${at} must name an environment variable, not hold the key` : `${at} must be a non-empty string`,
  ],
  ['profiles.*.cost_per_mtok', ({ at }) => `${at} must be {"input": dollars, "output": dollars}, both numbers ≥ 0`],
  ['profiles.*.context_window', ({ at }) => `${at} must be the model's context in tokens, an integer ≥ 1024 (like 32768)`],
  [
    'profiles.*.hooks',
    ({ at, extra }) =>
      extra !== undefined
        ? `${at} has an unknown event '${extra}'; the events are ${HOOK_EVENTS.join(', ')}`
        : `${at} must be an object of events (${HOOK_EVENTS.join(', ')}), each a list of shell commands`,
  ],
  ['profiles.*.hooks.*', ({ at }) => `${at} must be a list of shell commands (non-empty strings)`],
  ['profiles.*.hooks_disabled', ({ at }) => `${at} must be true or false`],
  [
    'profiles.*.hooks_detected_from',
    ({ at }) => `${at} must be a list of file names (forge writes it with detected hooks; delete it to use the hooks in every project)`,
  ],
  ['profiles.*.mcp_servers', ({ at }) => `${at} must be a list of servers like {"name": "docs", "command": ${SERVER_EXAMPLE}}`],
  [
    'profiles.*.mcp_servers.#',
    ({ at, extra }) =>
      extra === 'args'
        ? `${at} has "args": put the program and its arguments together in "command", like ${SERVER_EXAMPLE}`
        : extra !== undefined
          ? `${at} has an unknown key '${extra}'; a server has name, command, env, cwd and scope`
          : `${at} must be an object with "name" and "command"`,
  ],
  ['profiles.*.mcp_servers.#.name', ({ at }) => `${at} must be 1 to 32 letters, digits, '_' or '-' (it prefixes the server's tool names)`],
  [
    'profiles.*.mcp_servers.#.command',
    ({ at }) => `${at} must be a non-empty list: the program and its arguments, like ${SERVER_EXAMPLE} (no shell)`,
  ],
  ['profiles.*.mcp_servers.#.env', ({ at }) => `${at} must be an object of variable names to string values`],
  ['profiles.*.mcp_servers.#.cwd', ({ at }) => `${at} must be a non-empty path (relative to the repository top)`],
  ['profiles.*.mcp_servers.#.scope', ({ at }) => `${at} ${scopeWhy}`],
  ['profiles.*.mcp_servers.#.scope.#', ({ at, value }) => `${at} is ${JSON.stringify(value)}: the scope ${scopeWhy}`],
  [
    'profiles.*.auto_commit',
    ({ at }) => `${at} must be false, "task" (one commit per task; true means the same) or "plan" (one commit per plan)`,
  ],
  ['profiles.*.auto_commit_prefix', ({ at }) => `${at} must be a string of one line, at most 50 characters (like "forge: ")`],
  ['profiles.*.git_context', ({ at }) => `${at} must be "preamble" (the default), "tool" (a git_context tool instead) or "off"`],
  ['profiles.*.parallel_steps', ({ at }) => `${at} must be an integer from 1 (one step at a time) to ${MAX_PARALLEL_STEPS}`],
  ...Object.values(RECORDINGS).map(({ key, path }): [string, (a: At) => string] => [
    `profiles.*.${key}`,
    ({ at }) => `${at} must be true (forge agent records nothing in ${path}) or false`,
  ]),
  ['profiles.*.auto_quick', ({ at }) => `${at} must be true (short questions run as --quick) or false`],
  [
    'profiles.*.model_routes',
    ({ at, extra }) =>
      extra !== undefined
        ? `${at} has an unknown route '${extra}'; the routes are ${STEP_CATEGORIES.join(', ')}`
        : `${at} must be an object of categories to model names, like {"deep": "big-model", "quick": "small-model"}`,
  ],
  ['profiles.*.model_routes.*', ({ at }) => `${at} must be a model name (a non-empty string)`],
];

/** Whether a place (its keys) fits a rule's pattern. */
function fits(pattern: string[], place: string[]): boolean {
  return (
    pattern.length === place.length &&
    pattern.every((p, i) => p === place[i] || (p === '*' && !/^\d+$/.test(place[i]!)) || (p === '#' && /^\d+$/.test(place[i]!)))
  );
}

/** A place as the user reads it: `profiles.a.mcp_servers[0].env`. */
function spelled(place: string[]): string {
  return place.map((k, i) => (/^\d+$/.test(k) ? `[${k}]` : i ? `.${k}` : k)).join('');
}

/** The value at a place in the parsed file. */
function valueAt(data: unknown, place: string[]): unknown {
  return place.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), data);
}

/**
 * The message for the validator's first error: the rule of the key it is about, or of the nearest
 * key around it (an error inside `cost_per_mtok` is cost_per_mtok's). A missing required key is an
 * error of that key; an unknown one, of the object that holds it.
 */
export function configProblem(error: SchemaError, data: unknown): string {
  const place = error.instancePath
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') place.push(error.params.missingProperty);
  const extra = error.keyword === 'additionalProperties' ? String(error.params.additionalProperty) : undefined;
  for (let n = place.length; n >= 0; n--) {
    const here = place.slice(0, n);
    const rule = RULES.find(([pattern]) => fits(pattern ? pattern.split('.') : [], here));
    if (rule) return rule[1]({ at: spelled(here), error, extra: n === place.length ? extra : undefined, value: valueAt(data, here) });
  }
  return `${spelled(place) || 'the file'} is not valid (${error.keyword})`;
}
