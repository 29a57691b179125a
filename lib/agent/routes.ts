// Which model and which MCP servers a call gets: the profile's model_routes by category (deep, standard, quick, search), MCP servers' scope, and auto_quick's reading of a task.
import { STEP_CATEGORIES, type StepCategory } from '../plans/modules';
import type { McpServerConfig, ModelConfig } from './config-types';

export { STEP_CATEGORIES, type StepCategory };

export function isStepCategory(value: unknown): value is StepCategory {
  return typeof value === 'string' && (STEP_CATEGORIES as readonly string[]).includes(value);
}

/** A step's category as planned: a missing or unknown one is standard. */
export function stepCategory(value: unknown): StepCategory {
  return isStepCategory(value) ? value : 'standard';
}

/** The model a call of this category goes to: its route, else the standard route, else the model. */
export function routedModel(config: Pick<ModelConfig, 'model' | 'routes'>, category: StepCategory): string {
  const routes = config.routes.value;
  return routes[category] ?? routes.standard ?? config.model.value;
}

/** The config a run of this category uses: the same settings with the routed model (and the profile's prices only for its own model). */
export function configFor(config: ModelConfig, category: StepCategory): ModelConfig {
  const model = routedModel(config, category);
  if (model === config.model.value) return config;
  return {
    ...config,
    model: { value: model, source: config.routes.source },
    cost: { value: null, source: { kind: 'default', detail: `cost_per_mtok is for ${config.model.value}` } },
  };
}

/** Whether a server's tools are offered to a call of this category: no scope means every category. */
export function inScope(server: Pick<McpServerConfig, 'scope'>, category: StepCategory): boolean {
  return server.scope === undefined || server.scope.includes(category);
}

/** auto_quick's reading of a task: quick mode or not, and why (a warning when the task looks like more than a question). */
export interface QuickDecision {
  quick: boolean;
  reason: string;
  warning: boolean;
}

/** A task longer than this is not a quick question. */
export const QUICK_MAX_WORDS = 20;
const PLAN_WORDS =
  /\b(refactor\w*|implement\w*|plan|plans|planning|rewrite|rewriting|migrate|migration|redesign\w*|architect\w*|add (?:a |the )?feature)\b/i;
const CODE_EXTENSIONS =
  'ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|kt|rb|c|h|cc|cpp|hpp|cs|swift|php|sql|sh|json|ya?ml|toml|md|css|scss|html|vue|svelte|lock|txt';
/** A path (a slash in a word), an @attachment, or a name with a source file's extension. */
const FILE_REFERENCE = new RegExp(
  `(?:^|[\\s"'\`(])(?:@\\S+|[\\w.-]*\\/[\\w./-]+|[\\w-]+(?:\\.[\\w-]+)*\\.(?:${CODE_EXTENSIONS}))(?=$|[\\s"'\`),;:!?]|\\.(?:\\s|$))`,
  'gi',
);

/**
 * Seed 004's heuristic: a task of fewer than 20 words naming no file and no plan word is a
 * question for quick mode. Plan words (refactor, implement, plan…) or several files are a change:
 * the normal mode, with a warning that says why.
 */
export function quickDecision(task: string): QuickDecision {
  const words = task.trim().split(/\s+/).filter(Boolean).length;
  const files = [...new Set([...task.matchAll(FILE_REFERENCE)].map((m) => m[0].trim().replace(/^["'`(]/, '')))];
  const planWord = PLAN_WORDS.exec(task)?.[1];
  if (planWord)
    return { quick: false, warning: true, reason: `'${planWord}' asks for a change, not a question: the normal mode, with tools` };
  if (files.length > 1)
    return {
      quick: false,
      warning: true,
      reason: `it names ${files.length} files (${files.slice(0, 3).join(', ')}): the normal mode, with tools`,
    };
  if (files.length === 1) return { quick: false, warning: false, reason: `it names a file (${files[0]}): the normal mode, with tools` };
  if (task.trimStart().startsWith('/plan')) return { quick: false, warning: true, reason: "it starts with '/plan': the normal mode" };
  if (words >= QUICK_MAX_WORDS) return { quick: false, warning: false, reason: `${words} words is more than a quick question` };
  return { quick: true, warning: false, reason: `a short question (${words} words, no file, no plan word): one call, no tools` };
}
