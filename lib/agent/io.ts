// What a run tells and asks whoever drives it — records with their text lines, progress, questions — for the command to render.

/** One event of a run: a record for NDJSON readers (its `type` first) and the line a person reads ('' for none). */
export interface RunRecord {
  type: string;
  [field: string]: unknown;
}

export interface AgentIO {
  emit(record: RunRecord, text: string): Promise<void>;
  /** A line for a person watching; nothing when no one is. */
  progress(text: string): Promise<void>;
  /** A question for a person; null when there is no one to ask. */
  ask(question: string): Promise<string | null>;
  /** A forge command line carrying the call's context (--cwd, run id), for a message that names one. */
  cmd(...words: Array<string | number>): string;
  now(): Date;
}
