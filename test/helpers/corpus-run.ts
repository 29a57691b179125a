// The history corpus applied in-process in a real repository: a case's files written, the code forge patch and forge edit run called, the result judged.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ForgeError } from '../../lib/errors';
import { applyLineOps, parseLineOp, replaceText } from '../../lib/files/edit';
import { planPatch } from '../../lib/files/patch-apply';
import { parsePatch } from '../../lib/files/patch-parse';
import { locateWorkspace, type Workspace } from '../../lib/files/workspace';
import { type EditCase, failureLine, judge, type PatchCase } from './corpus';
import { tempRepo } from './repo';

/** What a refusal or a crash prints first: `CODE: message`, or `internal error: …` for anything not a ForgeError. */
const firstLine = (err: unknown) =>
  (err instanceof ForgeError ? `${err.code}: ${err.message}` : `internal error: ${err instanceof Error ? err.stack : String(err)}`).split(
    '\n',
  )[0]!;

/** A repository the cases of one test file are applied in, one after another. */
export class CorpusBench {
  private readonly dir = tempRepo();
  private readonly ws: Promise<Workspace> = locateWorkspace({ cwd: this.dir });
  /** What each path holds now, as put wrote it (forge patch's plan writes nothing; forge edit's writes are read back). */
  private readonly onDisk = new Map<string, Buffer>();

  private put(files: Record<string, Buffer>): void {
    for (const [p, data] of Object.entries(files)) {
      // Cases of one commit share their files: writing the same bytes again is most of a case's cost.
      if (this.onDisk.get(p)?.equals(data)) continue;
      mkdirSync(dirname(join(this.dir, p)), { recursive: true });
      writeFileSync(join(this.dir, p), data);
      this.onDisk.set(p, data);
    }
  }

  /** forge patch's parse and plan (what it writes), on the case's files: null when right, else the failure's line. */
  async patchFailure(c: PatchCase): Promise<string | null> {
    this.put(c.before);
    let exit = 0;
    let error = '';
    let planned = new Map<string, Buffer | null>();
    try {
      const files = await planPatch({ ws: await this.ws, patches: parsePatch(c.patch) });
      planned = new Map(
        files.flatMap((f) => [...(f.removeDisplay ? [[f.removeDisplay, null] as const] : []), [f.display, f.data] as const]),
      );
    } catch (err) {
      exit = err instanceof ForgeError ? err.exitCode : -1;
      error = firstLine(err);
    }
    const now = (p: string) => (planned.has(p) ? planned.get(p)! : (c.before[p] ?? null));
    const outcome = exit === -1 ? 'wrong' : judge({ want: c.after, before: c.before, exit, now });
    return outcome === 'correct'
      ? null
      : failureLine({ name: c.name, want: c.after, outcome, exit: exit === -1 ? 'INTERNAL' : exit, error, now });
  }

  /** forge edit's engine, each edit in turn on the case's file: null when right, else the failure's line. */
  async editFailure(c: EditCase): Promise<string | null> {
    this.put({ [c.path]: c.before });
    const ws = await this.ws;
    let exit = 0;
    let error = '';
    try {
      for (const e of c.edits) {
        if ('lines' in e) await applyLineOps({ ws, path: c.path, ops: [parseLineOp({ lines: e.lines, new: e.new })] });
        else await replaceText({ ws, path: c.path, old: e.old, replacement: e.new, ...(e.anchor ? { anchor: e.anchor } : {}), all: false });
      }
    } catch (err) {
      exit = err instanceof ForgeError ? err.exitCode : -1;
      error = firstLine(err);
    }
    const bytes = readFileSync(join(this.dir, c.path));
    this.onDisk.set(c.path, bytes);
    const now = () => bytes;
    const want = c.after && { [c.path]: c.after };
    const outcome = exit === -1 ? 'wrong' : judge({ want, before: { [c.path]: c.before }, exit, now });
    return outcome === 'correct' ? null : failureLine({ name: c.name, want, outcome, exit: exit === -1 ? 'INTERNAL' : exit, error, now });
  }
}

/** The assertion message of a perturbation's failures: how many, and the first dozen. */
export function failureReport(failures: string[], total: number): string {
  const shown = failures.slice(0, 12);
  return `${failures.length} of ${total} cases failed:\n${shown.join('\n')}${failures.length > shown.length ? `\n… and ${failures.length - shown.length} more` : ''}`;
}
