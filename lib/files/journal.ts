// Crash-safe writes: each file is replaced by a rename, a change across files is all-or-nothing, and whatever a killed process left — half-applied patch, temp files — is recovered by the next forge file command.
import { chmod, copyFile, mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { RefusedError } from '../errors';
import { processAlive } from '../process/alive';
import { randomHex } from '../random';
import { checkJson, type StateFile, type StateKinds } from '../state/read';
import * as validators from '../state/validators.gen';

/** A file's new content: text, bytes, or pieces of bytes written one after another (no copy joins them). */
export type FileData = Buffer | Buffer[] | string;

/** Runs after each step of a change's protocol (the test crash hook kills there). */
export type StepHook = (step: number, total: number) => void | Promise<void>;

export interface FileChange {
  /** Write `data` here (null: nothing to write). */
  abs: string | null;
  data: FileData | null;
  /** Remove this file (a delete, or the old name of a move). */
  removeAbs?: string;
}

/*
 * The protocol. A change has its own journal directory `<ms>-<pid>-<hex>` (the owner's pid in the
 * name: a concurrent command tells a change in flight from a crashed one).
 *   1. temps.json: every temp file the change may create, written before the first of them exists.
 *   2. <i>.orig: the original of each file, when the change writes more than one file.
 *   3. manifest.json, renamed into place once every original is saved: from here a crash is rolled back.
 *   4. The writes, each a temp file renamed over its target (a reader sees the old file or the new one).
 *   5. manifest.json removed: the change is final. Then the rest of the journal.
 * Recovery rolls back only a change whose manifest exists (all its originals are saved then), removes
 * the temp files listed, and drops the journal; a crash at any instant leaves every file old or new.
 */
const TEMPS = 'temps.json';
const MANIFEST = 'manifest.json';
const NAME = /^(\d+)-(\d+)-(\w+)$/;

interface ManifestEntry {
  path: string;
  /** The file's original bytes are in this journal file; null: it did not exist. */
  backup: string | null;
  /** Its permission bits, restored with it. */
  mode: number | null;
  /** The temp name a write or a restore of this path goes through. */
  temp: string;
}

/** Journals this process is writing or recovering: never taken for a crashed process's. */
const active = new Set<string>();

/** The temp file a write of `abs` goes through: beside it (a rename within one file system is atomic), hidden, marked as forge's. */
export function tempPathFor(abs: string): string {
  return join(dirname(abs), `.${fitName(basename(abs), MAX_NAME_BYTES - TEMP_EXTRA_BYTES)}.forge-${randomHex()}.tmp`);
}

/** File systems cap a name at 255 bytes; a temp name adds `.` and `.forge-<16 hex>.tmp` to the file's. */
const MAX_NAME_BYTES = 255;
const TEMP_EXTRA_BYTES = 1 + '.forge-.tmp'.length + 16;

/** `name` cut to at most `bytes` bytes of UTF-8, never inside a character. */
function fitName(name: string, bytes: number): string {
  if (Buffer.byteLength(name) <= bytes) return name;
  let out = '';
  for (const ch of name) {
    if (Buffer.byteLength(out + ch) > bytes) break;
    out += ch;
  }
  return out;
}

/** Writes `data` to `temp` with `abs`'s current permission bits (or `mode`), ready to be renamed over it. */
export async function writeTemp({
  abs,
  temp,
  data,
  mode,
}: {
  abs: string;
  temp: string;
  data: FileData;
  mode?: number | null;
}): Promise<void> {
  await mkdir(dirname(abs), { recursive: true }).catch((err: NodeJS.ErrnoException) => {
    // A file where a parent directory must be: the path asks for something that cannot exist.
    if (err.code === 'EEXIST' || err.code === 'ENOTDIR') {
      throw new RefusedError('NOT_A_DIRECTORY', `cannot create '${abs}': a file is in the way of its directory '${dirname(abs)}'`, {
        fix: 'forge ls',
        data: { path: abs },
      });
    }
    throw err;
  });
  const keep =
    mode ??
    (await stat(abs).then(
      (s) => s.mode & 0o7777,
      () => null,
    ));
  await writeFile(temp, data);
  if (keep !== null) await chmod(temp, keep);
}

type Step = () => Promise<unknown>;

/** Removes a file that may be gone already, or whose directory may be gone or be a file. */
async function removeFile(path: string): Promise<void> {
  await unlink(path).catch((err: NodeJS.ErrnoException) => {
    // ENAMETOOLONG: no such file can exist.
    if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR' && err.code !== 'ENAMETOOLONG') throw err;
  });
}

/**
 * Applies the changes as one unit (see the protocol above). If a write fails every file is put
 * back and the error rethrown; if the process dies, the next forge file command does it.
 * `onStep(n, total)` runs after each step of the protocol (the test crash hook kills there).
 */
export async function commitChanges({
  root,
  changes,
  onStep,
  signal,
}: {
  root: string;
  changes: FileChange[];
  onStep?: StepHook;
  /** Aborted (Ctrl-C, SIGTERM, a cancelled MCP call) before the change is final: every file is put back, CANCELLED. */
  signal?: AbortSignal;
}): Promise<void> {
  const paths = [...new Set(changes.flatMap((c) => [c.abs, c.removeAbs]).filter((p): p is string => !!p))];
  const entries: ManifestEntry[] = paths.map((path) => ({ path, backup: null, mode: null, temp: tempPathFor(path) }));
  const temp = new Map(entries.map((e) => [e.path, e.temp]));
  // One rename or one unlink is atomic by itself: only a change of several needs its originals.
  const rollback = changes.reduce((n, c) => n + (c.abs && c.data !== null ? 1 : 0) + (c.removeAbs ? 1 : 0), 0) > 1;
  const dir = join(root, `${Date.now()}-${process.pid}-${randomHex()}`);
  const prepare: Step[] = [() => makeJournal(root, dir), () => writeFile(join(dir, TEMPS), JSON.stringify(entries.map((e) => e.temp)))];
  if (rollback) {
    for (const [i, e] of entries.entries()) prepare.push(() => saveOriginal(e, join(dir, `${i}.orig`)));
    prepare.push(
      () => writeFile(join(dir, `${MANIFEST}.tmp`), JSON.stringify(entries)),
      () => rename(join(dir, `${MANIFEST}.tmp`), join(dir, MANIFEST)),
    );
  }
  const apply: Step[] = [];
  for (const c of changes) {
    const { abs, data, removeAbs } = c;
    if (abs && data !== null)
      apply.push(
        () => writeTemp({ abs, temp: temp.get(abs)!, data }),
        () => rename(temp.get(abs)!, abs),
      );
    if (removeAbs) apply.push(() => unlink(removeAbs));
  }
  if (rollback) apply.push(() => unlink(join(dir, MANIFEST)));
  const cleanup: Step[] = [
    ...(rollback ? entries.map((_, i) => () => removeFile(join(dir, `${i}.orig`))) : []),
    () => unlink(join(dir, TEMPS)),
    () => rmdir(dir),
    // Outside a repository the journal root is in the user's directory: nothing is left there.
    () => rmdir(root).catch(() => {}),
  ];

  const total = prepare.length + apply.length + cleanup.length;
  let n = 0;
  const run = async (steps: Step[], stoppable = false) => {
    for (const step of steps) {
      if (stoppable && signal?.aborted) throw interrupted(changes.length);
      await step();
      await onStep?.(++n, total);
    }
  };
  active.add(dir);
  try {
    try {
      await run(prepare, true);
      await run(apply, true);
    } catch (err) {
      // What a crash would leave, undone now: the originals back (once all were saved), temp files gone.
      await recoverJournal(dir, null).catch(() => {});
      await rmdir(root).catch(() => {});
      throw err;
    }
    // The change is final; a cleanup cut short is finished by the next command.
    await run(cleanup).catch(() => {});
  } finally {
    active.delete(dir);
  }
}

/** A change its caller gave up on before it was final: what the rollback leaves, said. */
function interrupted(files: number): RefusedError<'CANCELLED'> {
  return new RefusedError(
    'CANCELLED',
    `interrupted before the change was complete: ${files === 1 ? 'the file is' : `all ${files} files are`} as they were before it began`,
  );
}

/** Creates the journal directory; retried when a concurrent cleanup removes the empty root meanwhile. */
async function makeJournal(root: string, dir: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await mkdir(root, { recursive: true });
    try {
      await mkdir(dir);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw err;
    }
  }
}

async function saveOriginal(e: ManifestEntry, backup: string): Promise<void> {
  const s = await stat(e.path).catch(() => null);
  if (!s) return;
  await copyFile(e.path, backup);
  e.backup = basename(backup);
  e.mode = s.mode & 0o7777;
}

/** For the man pages of the file tools: what they do after a crash. */
export const AFTER_A_CRASH =
  "After a crash: every file tool (read, ls, search, edit, write, patch) first recovers what a killed forge command left in this work tree — a patch cut short is rolled back, so each of its files is all old or all new, and forge's temp files (.NAME.forge-*.tmp) are removed — and says so on stderr (warning: …), terminal or not. A recovery it cannot do is kept for the next command and reported the same way, never an error.";

/** What recovery found in one crashed process's journal. */
export interface Recovery {
  /** The forge process that died part-way (null when the journal directory itself could not be read). */
  pid: number | null;
  /**
   * rolled-back: its change was cut short and every file is as before it; completed: no file was
   * half-changed (it died before its first write or after its last), only its leftovers were
   * removed; discarded: a journal torn (an original missing) or not forge's (naming files outside
   * the work tree) dropped, files left as they are; failed: recovery itself failed and the journal
   * is kept for the next command.
   */
  outcome: 'rolled-back' | 'completed' | 'discarded' | 'failed';
  /** The files put back (rolled-back). */
  files: string[];
  /** Why, for discarded and failed. */
  reason?: string;
}

/**
 * Recovers every journal under `root` whose process died: rolls back a change cut short, removes
 * the temp files it listed, drops the journal and, when nothing is left, `root` itself. A journal
 * whose owner still runs is another command at work and is left alone; one naming a file outside
 * that `mayTouch` refuses (a file tool's rule: outside the work tree, in git's files) was not
 * written by forge and is discarded untouched. Never throws: what
 * it could not do is a 'failed' entry, and the command that asked goes on.
 */
export async function recoverJournals({
  root,
  mayTouch,
}: {
  root: string;
  mayTouch: (abs: string) => Promise<boolean>;
}): Promise<Recovery[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? []
      : [{ pid: null, outcome: 'failed', files: [], reason: `cannot read '${root}': ${(err as Error).message}` }];
  }
  const found: Recovery[] = [];
  // Newest first: when two crashed changes touched one file, the older original is put back last.
  const journals = names.flatMap((name) => {
    const m = NAME.exec(name);
    return m ? [{ name, ms: Number(m[1]), pid: Number(m[2]), rest: m[3]! }] : [];
  });
  for (const j of journals.sort((a, b) => b.ms - a.ms)) {
    const dir = join(root, j.name);
    if (active.has(dir) || (j.pid !== process.pid && processAlive(j.pid))) continue;
    // Claimed by renaming it to our pid: of two commands recovering at once, one does it, and the
    // other sees a live owner. A recovery killed in turn is taken over the same way.
    const claimed = join(root, `${j.ms}-${process.pid}-${j.rest}`);
    if (active.has(claimed)) continue;
    active.add(claimed);
    try {
      if (claimed !== dir) await rename(dir, claimed);
    } catch {
      active.delete(claimed);
      continue; // another command took it
    }
    try {
      found.push({ pid: j.pid, ...(await recoverJournal(claimed, mayTouch)) });
    } catch (err) {
      // Given back under its owner's name: the next try reports the process that crashed, not this one.
      await rename(claimed, dir).catch(() => {});
      found.push({ pid: j.pid, outcome: 'failed', files: [], reason: `cannot recover '${dir}': ${(err as Error).message}` });
    } finally {
      active.delete(claimed);
    }
  }
  if (found.length) await rmdir(root).catch(() => {});
  return found;
}

/** A journal file through its validator: absent, or its value (null when it does not parse or match). */
async function readJournalFile<K extends 'editTemps' | 'editManifest'>({
  path,
  file,
}: {
  path: string;
  file: StateFile<K>;
}): Promise<{ absent: true } | { absent: false; value: StateKinds[K] | null }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { absent: true };
    throw err;
  }
  const r = checkJson({ text, file });
  return { absent: false, value: r.ok ? r.value : null };
}

/** The manifest's entries; a list of {path, backup} is one written before temps and modes were journaled. */
function manifestEntries(value: StateKinds['editManifest']): ManifestEntry[] {
  return value.map((e) => ({
    path: e.path,
    backup: e.backup === null ? null : basename(e.backup),
    mode: e.mode ?? null,
    temp: e.temp ?? tempPathFor(e.path),
  }));
}

const TEMP_NAME = /^\..*\.forge-\w+\.tmp$/;

/**
 * Recovers one journal this process owns (see recoverJournals), then removes it. With `mayTouch`,
 * a journal naming a file it refuses, or a temp file not named as forge names them, is not
 * forge's: it is discarded without touching a file (a journal planted in the user's directory
 * must not become a way to write or delete files elsewhere).
 */
async function recoverJournal(dir: string, mayTouch: ((abs: string) => Promise<boolean>) | null): Promise<Omit<Recovery, 'pid'>> {
  const temps = await readJournalFile({ path: join(dir, TEMPS), file: validators.editTemps });
  // A temps list cut short was being written before any temp file existed.
  const listed = (!temps.absent && temps.value) || [];
  const manifest = await readJournalFile({ path: join(dir, MANIFEST), file: validators.editManifest });
  const entries = manifest.absent ? [] : manifest.value && manifestEntries(manifest.value);
  const tempNames = [...listed, ...(entries ?? []).map((e) => e.temp)];
  const paths = [...tempNames, ...(entries ?? []).map((e) => e.path)];
  let result: Omit<Recovery, 'pid'>;
  if (
    mayTouch !== null &&
    (!tempNames.every((t) => TEMP_NAME.test(basename(t))) ||
      !(await Promise.all(paths.map((p) => isAbsolute(p) && mayTouch(p)))).every(Boolean))
  ) {
    result = {
      outcome: 'discarded',
      files: [],
      reason: "it names a file outside the work tree or in git's own files, or a temp file forge would not name so",
    };
  } else {
    // Before a rollback, which writes through the same temp names.
    await Promise.all(listed.map(removeFile));
    result = manifest.absent ? { outcome: 'completed', files: [] } : await rollBack(dir, entries);
  }
  // The manifest first: a journal without one is never rolled back, whatever else is left of it.
  await rm(join(dir, MANIFEST), { force: true });
  await rm(dir, { recursive: true, force: true });
  return result;
}

/** Puts back every original a complete manifest names; a torn or unreadable one is discarded, no file touched. */
async function rollBack(dir: string, entries: ManifestEntry[] | null): Promise<Omit<Recovery, 'pid'>> {
  const missing =
    entries &&
    (
      await Promise.all(
        entries.map(async (e) =>
          e.backup &&
          !(await stat(join(dir, e.backup)).then(
            () => true,
            () => false,
          ))
            ? e.backup
            : null,
        ),
      )
    ).find(Boolean);
  // Only a forge older than this protocol, or a hand, leaves this: putting back some files and not others would be worse than neither.
  if (!entries || missing)
    return {
      outcome: 'discarded',
      files: [],
      reason: entries ? `its copy '${missing}' of an original is gone` : 'its manifest is unreadable',
    };
  for (const e of entries) {
    if (!e.backup) {
      await removeFile(e.path);
      continue;
    }
    await writeTemp({ abs: e.path, temp: e.temp, data: await readFile(join(dir, e.backup)), mode: e.mode });
    await rename(e.temp, e.path);
  }
  return { outcome: 'rolled-back', files: entries.map((e) => e.path) };
}

/** One line for stderr saying what recovery did and what it means for the user's files. */
export function recoveryWarning(r: Recovery): string {
  const who = r.pid === null ? 'an earlier forge command' : `forge process ${r.pid}`;
  const n = `${r.files.length} file${r.files.length === 1 ? '' : 's'}`;
  switch (r.outcome) {
    case 'rolled-back':
      return `${who} was killed part-way through a change: rolled it back, its ${n} are as they were before it`;
    case 'completed':
      return `${who} was killed part-way: no file was left half-written; removed its journal and temp files`;
    case 'discarded':
      return `discarded the journal of ${who} without rolling anything back (${r.reason}): its files are left as they are`;
    case 'failed':
      return `could not recover after ${who}: ${r.reason}; the next forge file command tries again`;
  }
}
