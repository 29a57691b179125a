// State files read through validators: what the shared ref holds (from any clone, an old forge, a hand edit) is trusted once it parses and matches.
import { RefusedError } from '../errors';
import { shellJoin } from '../quote';

/**
 * Every kind of file forge reads back, and the type its readers use: the state layer's own here,
 * each feature's added where its type is declared (`declare module '../state/read'`), so this
 * module imports none of them. The schemas are in
 * schemas.ts (zod), checked against these types by the compiler; `make docs` compiles them into
 * plain validators (validators.gen.ts, by Ajv), so a command loads no schema library: building
 * zod's schemas for the plan gate took 2-3 ms of every call.
 */
export interface StateKinds {
  planPointer: { plan_id: string };
  agentPlanPointer: { id: string };
  loopPointer: { loop_id: string };
  /** Any JSONL record that has an id: what a merge or a conversion keeps once. */
  recordId: { id: string };
  /** Any JSON document, for the stamp a merge keeps the newer copy by. */
  stamped: { updatedAt?: string; lastUpdatedAt?: string };
  editTemps: string[];
  editManifest: Array<{ path: string; backup: string | null; mode?: number | null; temp?: string }>;
}

export type StateKind = keyof StateKinds;

/** One error of a compiled validator (Ajv's shape). */
export interface ValidatorError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** A compiled validator: true when `data` matches (defaults filled in, in place); its errors otherwise. */
export interface Validator {
  (data: unknown): boolean;
  errors?: ValidatorError[] | null;
}

/** One kind of file as the generated module exports it (validators.gen.ts): a command's bundle holds only the kinds it reads. */
export interface StateFile<K extends StateKind> {
  file: StateFile<K>;
  /** What it is, in a message: "is not <what>". */
  what: string;
  validate: Validator;
}

/** An id that may name a file or directory, as one pattern: lib/errors.ts isValidId (ID_PATTERN, not '.' or '..'). */
export const STATE_ID = /^(?!\.\.?$)[\w.-]{1,128}$/;

/** What is wrong with a state file, where it is. */
export interface StateProblem {
  path: string;
  problem: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The first error as one line: where (a dotted path) and what. */
function problemOf(errors: ValidatorError[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return 'does not match';
  const at = e.instancePath ? `${e.instancePath.slice(1).replaceAll('/', '.')}: ` : '';
  if (e.keyword === 'pattern' && String(e.params.pattern) === STATE_ID.source)
    return `${at}not an id (1-128 letters, digits, '_', '.' or '-', not '.' or '..')`;
  const allowed = Array.isArray(e.params.allowedValues) ? ` (${e.params.allowedValues.join(', ')})` : '';
  return `${at}${e.message ?? e.keyword}${allowed}`;
}

/** Checks a parsed value; the problem names the first field that does not fit. Defaults are filled in. */
export function checkValue<K extends StateKind>({ value, file }: { value: unknown; file: StateFile<K> }): Checked<StateKinds[K]> {
  const { validate } = file;
  return validate(value) ? { ok: true, value: value as StateKinds[K] } : { ok: false, problem: problemOf(validate.errors) };
}

/** Parses JSON text and checks it. */
export function checkJson<K extends StateKind>({ text, file }: { text: string; file: StateFile<K> }): Checked<StateKinds[K]> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `not JSON (${(err as Error).message})` };
  }
  return checkValue({ value, file });
}

/**
 * The error for a state file a command needs and cannot use: STATE_INVALID, exit 1, with the
 * path and the problem as data. The default Fix lists the commits that wrote the file: the one
 * before the bad one holds the last good copy (`git show <commit>:<path>`).
 */
export function stateInvalid({ path, problem, file, fix }: StateProblem & { file: StateFile<StateKind>; fix?: string }): RefusedError {
  return new RefusedError('STATE_INVALID', `${path} on the state ref is not ${file.what}: ${problem}`, {
    fix: fix ?? shellJoin(['git', 'log', '--oneline', 'refs/forge/state', '--', path]),
    data: { path, problem },
  });
}

/** Where a file is read from: the current state (StateStore) or a transaction (StateTx). */
export interface StateSource {
  read(path: string): Promise<Buffer | null>;
}

/** A state file through its validator, its problem returned rather than thrown (a listing skips it); null when absent. */
export async function tryStateJson<K extends StateKind>({
  from,
  path,
  file,
}: {
  from: StateSource;
  path: string;
  file: StateFile<K>;
}): Promise<Checked<StateKinds[K]> | null> {
  const buf = await from.read(path);
  return buf === null ? null : checkJson({ text: buf.toString('utf8'), file });
}

/** A state file through its validator: null when absent; STATE_INVALID when it does not parse or match. */
export async function readStateJson<K extends StateKind>({
  from,
  path,
  file,
  fix,
}: {
  from: StateSource;
  path: string;
  file: StateFile<K>;
  /** The command that mends it, when there is one better than looking at its history. */
  fix?: string;
}): Promise<StateKinds[K] | null> {
  const r = await tryStateJson({ from, path, file });
  if (r === null || r.ok) return r?.value ?? null;
  throw stateInvalid({ path, problem: r.problem, file, fix });
}

/**
 * The records of JSONL text that parse and match, in order; a line that does not is skipped and
 * counted, never the whole file lost. Blank lines are no records.
 */
export function parseStateLines<K extends StateKind>({
  text,
  file,
}: {
  text: string;
  file: StateFile<K>;
}): { entries: Array<StateKinds[K]>; skipped: number } {
  const entries: Array<StateKinds[K]> = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const r = checkJson({ text: line, file });
    if (r.ok) entries.push(r.value);
    else skipped++;
  }
  return { entries, skipped };
}

/** What listStateDir reads: the state ref's files at one commit (a StateStore). */
export interface StateListing {
  head(): Promise<string | null>;
  listAt(commit: string, dir: string): Promise<Array<{ name: string }>>;
  readAt(commit: string, path: string): Promise<Buffer | null>;
}

/**
 * The files of a state directory at the ref's head, in listing order, each judged by `check` from
 * its name and text: those that pass, with their names. One that does not is left out and `warn`
 * told (a sync brings state from any clone: one bad file never hides the rest). A name `named`
 * rejects is no file of this listing: left out unread, without a word.
 */
export async function listStateDir<T>({
  store,
  dir,
  named = () => true,
  check,
  warn,
}: {
  store: StateListing;
  dir: string;
  named?: (name: string) => boolean;
  check: (name: string, text: string) => Checked<T>;
  warn?: (text: string) => Promise<void>;
}): Promise<Array<{ name: string; value: T }>> {
  const head = await store.head();
  if (!head) return [];
  const out: Array<{ name: string; value: T }> = [];
  for (const entry of await store.listAt(head, dir)) {
    if (!named(entry.name)) continue;
    const path = `${dir}/${entry.name}`;
    const r = check(entry.name, (await store.readAt(head, path))?.toString('utf8') ?? '');
    if (r.ok) out.push({ name: entry.name, value: r.value });
    else await warn?.(skippedLine({ path, problem: r.problem }));
  }
  return out;
}

/** A listing's line for a file it left out. */
export function skippedLine({ path, problem }: StateProblem): string {
  return `skipped ${path} on the state ref: ${problem}`;
}
