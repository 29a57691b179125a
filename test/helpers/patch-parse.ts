// The patch parser's tests' shared pieces: a refusal as code, message and Fix, and SEARCH/REPLACE blocks and their expected hunks.
import { ForgeError } from '../../lib/errors';
import { type FilePatch, type Hunk, parsePatch } from '../../lib/files/patch-parse';

/** The error parsePatch throws, as code and message (and its Fix). */
export function refusal(text: string): { code: string; message: string; fix?: string } {
  try {
    parsePatch(text);
  } catch (e) {
    if (!(e instanceof ForgeError)) throw e;
    return { code: e.code, message: e.message, ...(e.fix ? { fix: e.fix } : {}) };
  }
  throw new Error(`parsed: ${JSON.stringify(text)}`);
}

export const lines = (search: string[], replace: string[]): Hunk['lines'] => [
  ...search.map((text) => ({ op: '-' as const, text })),
  ...replace.map((text) => ({ op: '+' as const, text })),
];
export const block = (path: string, hunks: Hunk[]): FilePatch => ({
  dialect: 'search-replace',
  kind: 'modify',
  oldPath: path,
  newPath: path,
  hunks,
});
export const sr = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;
