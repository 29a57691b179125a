// What the patch parser reads a patch into and the appliers take: a list of file changes, each with its hunks and the dialect it came in.

export interface HunkLine {
  op: ' ' | '-' | '+';
  text: string;
}

export interface Hunk {
  /**
   * The old-side start line from the header (or Roo's `:start_line:N`), when there is one: a hint
   * that chooses among several places, never trusted alone.
   */
  oldStart?: number;
  lines: HunkLine[];
  /** The old side ends without a newline at end of file (`\ No newline at end of file`). */
  oldNoEol?: boolean;
  newNoEol?: boolean;
  /**
   * Lines the hunk comes after, sought in order before it: a `*** Begin Patch` hunk's `@@ <line>`
   * headers (Codex, OpenCode). Each must be in the file.
   */
  seek?: string[];
  /** A unified header's section text (`@@ -n,m +n,m @@ class B:`): a line above the hunk, a soft hint. */
  section?: string;
  /** The hunk's old text ends at the end of the file (`*** End of File`). */
  atEnd?: boolean;
  /** Its header promised more lines than it holds: the file goes on after it (never "at the end"). */
  short?: boolean;
}

/**
 * How a file's hunks are located: `unified` and `envelope` hunks against the original file, in
 * order and without overlapping; `search-replace` blocks one after another, each in the whole file
 * as the blocks before it left it (as Aider, Cline and Roo apply them).
 */
export type Dialect = 'unified' | 'envelope' | 'search-replace';

export interface FilePatch {
  dialect: Dialect;
  kind: 'modify' | 'create' | 'delete' | 'rename';
  /** Path before (null for a new file). */
  oldPath: string | null;
  /** Path after (null for a deleted file). */
  newPath: string | null;
  hunks: Hunk[];
  /**
   * The paths are from the top of the repository: a git diff (a `diff --git` header, or both
   * headers with a/ b/ prefixes), which `git apply` reads from the top wherever it runs.
   */
  rooted?: boolean;
}
