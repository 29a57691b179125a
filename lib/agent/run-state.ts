// What a model run is and tells: its events, its tally, why it stopped, and the guards a caller puts around its calls.
export type AgentEvent =
  /** A model call is about to be made (a terminal shows a spinner until text arrives). */
  /** A call about to go out, to `model` (a plan step's may differ from the run's: model_routes). */
  | { type: 'request'; turn: number; model: string }
  | { type: 'text'; text: string }
  /** Reasoning the model wrote (`<think>`): shown, never sent back. */
  | { type: 'thinking'; text: string }
  /** Something forge noticed about a reply: tool calls read from text, a reply cut off or empty. */
  | { type: 'reply_note'; text: string }
  | { type: 'tool_call'; name: string; arguments: string; cached: boolean }
  | { type: 'tool_result'; name: string; ok: boolean; chars: number }
  | { type: 'usage'; input: number; output: number; estimated: boolean }
  /** The request was brought under the budget: older results compressed, attached images left out. */
  | {
      type: 'compressed';
      /** All results touched; then by how: older ones stubbed, earlier arguments shortened, the latest cut, the oldest turns dropped. */
      results: number;
      compressed: number;
      shortened: number;
      cut: number;
      dropped: number;
      before: number;
      after: number;
      images?: number;
    }
  | { type: 'done'; turns: number; answer: string };

export interface AgentRun {
  answer: string;
  turns: number;
  toolCalls: number;
  cacheHits: number;
  usage: { input: number; output: number };
  /** Model calls whose usage the server did not report: their counts are local o200k_base estimates. */
  estimatedCalls: number;
  /** Request tokens after each request's common prefix with the one before, summed: what no prefix cache could serve. */
  uncachedTokens: number;
  /** Context tokens before and after compression, summed over the calls that needed it. */
  compression: { before: number; after: number };
  /** Paths the model wrote or edited. */
  files: string[];
  /** True when the turn limit ended the run before the model answered. */
  exhausted: boolean;
  /** Why the run ended without an answer, when it was not the turn limit: the run failed. */
  stopped: AgentStop | null;
  /** Tool calls the gate refused. */
  refused: number;
}

/** A run that ended without finishing its task, and why (each a stable error code of forge agent). */
export interface AgentStop {
  code: 'MODEL_EMPTY_REPLY' | 'MODEL_TRUNCATED' | 'MODEL_UNREADABLE_CALL' | 'LOOP_DETECTED' | 'TASK_NOT_DONE' | 'MODEL_CONTEXT_TRUNCATED';
  message: string;
  /** A budget that fits what the server holds (MODEL_CONTEXT_TRUNCATED): the Fix says it. */
  budget?: number;
}

/**
 * What a caller adds around each tool call: a gate that may refuse it (an active plan contract), and
 * text appended to the result of a call that changed files (on_edit hooks), so the model sees a
 * compiler error in the same turn as its edit.
 */
export interface ToolCallGuards {
  /** Null lets the call run; a string is the refusal the model gets instead of a result. */
  gate?: (name: string, args: Record<string, unknown>) => Promise<string | null>;
  afterChange?: (name: string, args: Record<string, unknown>) => Promise<string>;
}

export const newRun = (): AgentRun => ({
  answer: '',
  turns: 0,
  toolCalls: 0,
  cacheHits: 0,
  usage: { input: 0, output: 0 },
  estimatedCalls: 0,
  uncachedTokens: 0,
  compression: { before: 0, after: 0 },
  files: [],
  exhausted: false,
  stopped: null,
  refused: 0,
});
