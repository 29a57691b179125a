// The shape of the config file (~/.config/forge/config.json) as a schema: compiled by `make docs` into config-validator.gen.ts, as the state kinds are, never loaded at run time; config-messages.ts says each key's error in the user's words.
import * as z from 'zod/mini';
import { STEP_CATEGORIES } from '../plans/modules';
import { ENV_NAME, GIT_CONTEXT_MODES, HOOK_EVENTS, MAX_PARALLEL_STEPS, MCP_SERVER_NAME } from './config-types';

const nonEmpty = () => z.string().check(z.minLength(1));
/** Text with something in it besides spaces: a shell command, a model name. */
const something = () => z.string().check(z.regex(/\S/));
const dollars = () => z.number().check(z.gte(0));

const server = z.strictObject({
  name: z.string().check(z.regex(MCP_SERVER_NAME)),
  // The program first (never empty), then its arguments.
  command: z.tuple([nonEmpty()], z.string()),
  env: z.optional(z.record(z.string().check(z.regex(ENV_NAME)), z.string())),
  cwd: z.optional(nonEmpty()),
  scope: z.optional(z.array(z.enum(STEP_CATEGORIES)).check(z.minLength(1))),
});

const profile = z.looseObject({
  endpoint: z.optional(nonEmpty()),
  model: z.optional(nonEmpty()),
  api_key_env: z.optional(nonEmpty().check(z.regex(ENV_NAME))),
  planner_model: z.optional(nonEmpty()),
  cost_per_mtok: z.optional(z.looseObject({ input: dollars(), output: dollars() })),
  context_window: z.optional(z.int().check(z.gte(1024))),
  hooks: z.optional(z.strictObject(Object.fromEntries(HOOK_EVENTS.map((e) => [e, z.optional(z.array(something()))])))),
  hooks_disabled: z.optional(z.boolean()),
  hooks_detected_from: z.optional(z.array(z.string())),
  mcp_servers: z.optional(z.array(server)),
  auto_commit: z.optional(z.union([z.boolean(), z.literal('task'), z.literal('plan')])),
  auto_commit_prefix: z.optional(z.string().check(z.maxLength(50), z.regex(/^[^\r\n]*$/))),
  git_context: z.optional(z.enum(GIT_CONTEXT_MODES)),
  parallel_steps: z.optional(z.int().check(z.gte(1), z.lte(MAX_PARALLEL_STEPS))),
  telemetry_disabled: z.optional(z.boolean()),
  sessions_disabled: z.optional(z.boolean()),
  auto_quick: z.optional(z.boolean()),
  model_routes: z.optional(z.strictObject(Object.fromEntries(STEP_CATEGORIES.map((c) => [c, z.optional(something())])))),
});

/** The whole file: named profiles and the one used by default; other keys (a `$schema`, say) are left alone. */
export const CONFIG_SCHEMA = z.looseObject({
  default: z.optional(z.string()),
  profiles: z.optional(z.record(z.string(), profile)),
});
