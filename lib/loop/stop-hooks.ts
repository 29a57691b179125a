// The agents whose stop-like hook drives a forge loop: how each payload is read, how each is told to go on.
import { continueAnswer, parseStop } from '../claude/stop';
import { parseCodexStop } from '../codex/stop';
import { geminiContinueAnswer, parseAfterAgent } from '../gemini/afteragent';

/** The agents with a stop-like hook: how each payload is read, and how each is told to go on. Only Claude Code caps consecutive blocks. */
export const STOP_HOOKS = {
  claude: { parse: parseStop, answer: continueAnswer, cap: true },
  codex: { parse: parseCodexStop, answer: continueAnswer, cap: false },
  gemini: { parse: parseAfterAgent, answer: geminiContinueAnswer, cap: false },
} as const;
export type StopAgent = keyof typeof STOP_HOOKS;
export const STOP_AGENTS = Object.keys(STOP_HOOKS) as StopAgent[];
