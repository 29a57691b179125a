// The planner: one model call (planner_model when set) for a JSON module plan that forge plan check accepts; a bad plan goes back once with the findings.
import { InvalidInputError, RefusedError } from '../errors';
import { shellJoin } from '../quote';
import { listWorkTreeFiles } from '../git/repo';
import { checkModulePlan, type Module } from '../plans/modules';
import type { Finding } from '../plans/yaml';
import { taskContent, type PinnedFiles, type AttachedImage } from './attach';
import { chat, type RetryPolicy } from './chat';
import type { ChatMessage } from './chat-types';
import { requestTokens, tokenizer } from './context';
import type { ModelConfig } from './config-types';

/** What the planner gets besides the task: the git preamble, the pinned files and the images. */
export interface PlannerContext {
  git?: string | null;
  pinned?: PinnedFiles;
  images?: readonly AttachedImage[];
}

export const PLANNER_PROMPT = `You plan coding tasks for an agent that carries out one step at a time with a fresh context: each step sees only its own instruction, its files and a one-line summary of earlier steps. Reply with only a JSON object, no prose:
{"modules": [{"id": "M1", "title": "short title", "objective": "what to change, precisely enough to do without seeing other steps", "files": ["paths the step reads or changes"], "symbols": ["functions or classes it works on (optional)"], "verify": ["a shell command that exits 0 once the step is done"], "doneWhen": "the observable result", "dependsOn": ["ids of earlier steps it needs"], "category": "standard"}]}
Use 1 to 8 steps, ids M1, M2…; every step needs at least one verify command that runs in the repository (tests, a type-check, grep, test -f). category: deep (hard, several files, design), standard, quick (one small edit) or search (only reads).`;

/** Paths the planner sees, so it names files that exist; capped to keep planning cheap. */
const FILES_SHOWN = 150;

/** The first JSON object of a reply, with or without a code fence around it. */
export function extractJson(text: string): string {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(text);
  const body = fenced ? fenced[1]! : text;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  return start >= 0 && end > start ? body.slice(start, end + 1) : body.trim();
}

export function describeFindings(findings: Finding[]): string {
  return findings.map((f) => `${f.file}:${f.line}:${f.col} ${f.severity} ${f.code}: ${f.message}`).join('\n');
}

/** The planner's request: its instructions (with the git preamble and the pinned files), the task with its images, and the repository's file list. */
export async function plannerMessages({
  task,
  root,
  git = null,
  pinned,
  images = [],
}: { task: string; root: string } & PlannerContext): Promise<ChatMessage[]> {
  const files = (await listWorkTreeFiles({ cwd: root })) ?? [];
  const listing = files.length
    ? `Files in the repository${files.length > FILES_SHOWN ? ` (first ${FILES_SHOWN} of ${files.length})` : ''}:\n${files.slice(0, FILES_SHOWN).join('\n')}`
    : 'The repository has no files yet.';
  return [
    { role: 'system', content: [PLANNER_PROMPT, git, (await pinned?.text()) || null].filter(Boolean).join('\n\n') },
    { role: 'user', content: taskContent(`Task: ${task}\n\n${listing}`, images) },
  ];
}

export interface PlannerResult {
  modules: Module[];
  /** The plan as the planner wrote it (after a correction, the corrected one). */
  text: string;
  /** Tokens of the planner's calls: as the server counted them, else counted here (o200k_base) and `estimated` calls said so. */
  usage: { input: number; output: number; estimated: number };
  /** Findings of the first attempt when it had to be sent back. */
  corrected: Finding[] | null;
  warnings: Finding[];
}

/**
 * Asks for a plan and checks it exactly as `forge plan check` would a module plan in .forge/modules/
 * (fields, ids, dependencies, verify commands on PATH). Errors go back to the planner once; a
 * second bad plan is refused with the findings.
 */
export async function makePlan({
  config,
  task,
  root,
  env,
  retry,
  signal,
  context = {},
  budget,
}: {
  config: ModelConfig;
  task: string;
  root: string;
  env: NodeJS.ProcessEnv;
  retry?: Partial<RetryPolicy>;
  signal?: AbortSignal;
  context?: PlannerContext;
  /** --budget: a request it cannot hold fails with BUDGET_TOO_SMALL before it is sent (images go first). */
  budget?: number;
}): Promise<PlannerResult> {
  const messages = await plannerMessages({ task, root, ...context });
  if (budget !== undefined) await fitPlanner({ messages, budget, task, pinned: context.pinned });
  const model = config.plannerModel.value ?? config.model.value;
  const usage = { input: 0, output: 0, estimated: 0 };
  let corrected: Finding[] | null = null;
  for (let attempt = 1; ; attempt++) {
    const r = await chat({
      endpoint: config.endpoint.value,
      model,
      apiKey: config.apiKey,
      apiKeyEnv: config.apiKeyEnv.value ?? undefined,
      messages,
      signal,
      retry,
    });
    // A server that sends no usage still spent the tokens: counted here, as a task's are.
    if (!r.usage) usage.estimated++;
    usage.input += r.usage?.promptTokens ?? (await requestTokens({ messages }));
    usage.output += r.usage?.completionTokens ?? (await tokenizer())(typeof r.message.content === 'string' ? r.message.content : '');
    const text = extractJson(r.message.content);
    const { modules, findings } = await checkModulePlan({ file: 'plan.json', text, cwd: root, path: env.PATH ?? '' });
    const errors = findings.filter((f) => f.severity === 'error');
    if (!errors.length) return { modules, text, usage, corrected, warnings: findings.filter((f) => f.severity === 'warning') };
    if (attempt === 2) {
      throw new RefusedError('PLAN_INVALID', `the planner's plan failed forge plan check twice:\n${describeFindings(errors)}`, {
        // A plan is drawn anew each time; a stronger planner is --planner-model's (forge agent --help).
        fix: shellJoin(['forge', 'agent', '--plan', task]),
        data: { findings: errors, plan: text.slice(0, 4000) },
      });
    }
    corrected = errors;
    messages.push(
      { role: 'assistant', content: r.message.content },
      {
        role: 'user',
        content: `forge plan check refused this plan:\n${describeFindings(errors)}\nReply with the corrected JSON plan only.`,
      },
    );
  }
}

/** The planner's request under --budget as a task's is: images left out first; pinned files and prompt that cannot fit are BUDGET_TOO_SMALL, its fix the same plan with a larger budget. */
async function fitPlanner({
  messages,
  budget,
  task,
  pinned,
}: {
  messages: ChatMessage[];
  budget: number;
  task: string;
  pinned: PinnedFiles | undefined;
}): Promise<void> {
  const { enforceBudget, newBudgetState } = await import('./context');
  const text = pinned ? await pinned.budgetText() : null;
  await enforceBudget({
    messages,
    tools: [],
    budget,
    state: newBudgetState(),
    pinned: text ? { ...text, flags: ['--plan', ...text.flags] } : { text: '', paths: [], flags: ['--plan'] },
  }).catch((err: unknown) => {
    // The fix names the plan's task, not the planner's request.
    if (err instanceof InvalidInputError && err.code === 'BUDGET_TOO_SMALL') {
      const suggested = (err.data as { suggested?: number } | undefined)?.suggested ?? budget * 2;
      err.fix = shellJoin(['forge', 'agent', '--budget', String(suggested), '--plan', ...(pinned?.flags ?? []), task]);
    }
    throw err;
  });
}
