// What one forge edit reports: its own file so the byte-splicing fast path (splice.ts) can build it without importing the engine that calls it.
import type { Strategy } from './locate';
import type { WindowLine } from './read';

export interface EditResult {
  path: string;
  strategy: Strategy | 'anchored';
  /** Places changed. */
  replacements: number;
  /** First and last changed line in the new file. */
  startLine: number;
  endLine: number;
  /** The changed lines and some context, with fresh anchors. */
  region: WindowLine[];
  regionStart: number;
}
