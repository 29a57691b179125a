// The agents whose stop-like hook drives a forge loop: how each payload is read, how each is told to go on.
import { continueAnswer, parseStop } from '../claude/stop';
import { parseCodexStop } from '../codex/stop';
import { geminiContinueAnswer, parseAfterAgent } from '../gemini/afteragent';
import type { LoopAgent } from './loop';

/**
 * The agents with a stop-like hook: how each payload is read, how each is told to go on, and how
 * forge names the agent and its hook to a person. Only Claude Code caps consecutive blocks.
 */
export const STOP_HOOKS = {
  claude: { parse: parseStop, answer: continueAnswer, cap: true, agent: 'Claude Code', hook: "Claude Code's Stop hook" },
  codex: { parse: parseCodexStop, answer: continueAnswer, cap: false, agent: 'Codex CLI', hook: "Codex CLI's Stop hook" },
  gemini: { parse: parseAfterAgent, answer: geminiContinueAnswer, cap: false, agent: 'Gemini CLI', hook: "Gemini CLI's AfterAgent hook" },
} as const satisfies Record<LoopAgent, unknown>;
export type StopAgent = keyof typeof STOP_HOOKS;
export const STOP_AGENTS = Object.keys(STOP_HOOKS) as StopAgent[];
