// The real-history corpus applied in-process by the code forge patch and forge edit run: every perturbation, exact bytes or a refusal.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { ForgeError } from '../../../lib/errors';
import { applyLineOps, parseLineOp, replaceText } from '../../../lib/files/edit';
import { planPatch } from '../../../lib/files/patch-apply';
import { parsePatch } from '../../../lib/files/patch-parse';
import { locateWorkspace, type Workspace } from '../../../lib/files/workspace';
import {
  corpusBases,
  editCases,
  failureLine,
  judge,
  patchCases,
  PERTURBATIONS,
  sampleCases,
  type EditCase,
  type PatchCase,
} from '../../helpers/corpus';
import { tempRepo } from '../../helpers/repo';

const dir = tempRepo();
const wsOnce = locateWorkspace({ cwd: dir });

/** What a refusal or a crash prints first: `CODE: message`, or `internal error: …` for anything not a ForgeError. */
const firstLine = (err: unknown) =>
  (err instanceof ForgeError ? `${err.code}: ${err.message}` : `internal error: ${err instanceof Error ? err.stack : String(err)}`).split(
    '\n',
  )[0]!;

/** What each path holds now, as put wrote it (forge patch's plan writes nothing; forge edit's writes are read back). */
const onDisk = new Map<string, Buffer>();

function put(files: Record<string, Buffer>): void {
  for (const [p, data] of Object.entries(files)) {
    // Cases of one commit share their files: writing the same bytes again is most of a case's cost.
    if (onDisk.get(p)?.equals(data)) continue;
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), data);
    onDisk.set(p, data);
  }
}

/** forge patch's parse and plan (what it writes), on the case's files in a real repository: null when right. */
async function patchFailure(ws: Workspace, c: PatchCase): Promise<string | null> {
  put(c.before);
  let exit = 0;
  let error = '';
  let planned = new Map<string, Buffer | null>();
  try {
    const files = await planPatch({ ws, patches: parsePatch(c.patch) });
    planned = new Map(files.flatMap((f) => [...(f.removeDisplay ? [[f.removeDisplay, null] as const] : []), [f.display, f.data] as const]));
  } catch (err) {
    if (!(err instanceof ForgeError)) exit = -1;
    else exit = err.exitCode;
    error = firstLine(err);
  }
  const now = (p: string) => (planned.has(p) ? planned.get(p)! : (c.before[p] ?? null));
  const outcome = exit === -1 ? 'wrong' : judge({ want: c.after, before: c.before, exit, now });
  return outcome === 'correct'
    ? null
    : failureLine({ name: c.name, want: c.after, outcome, exit: exit === -1 ? 'INTERNAL' : exit, error, now });
}

/** forge edit's engine, each edit in turn on the file in a real repository: null when right. */
async function editFailure(ws: Workspace, c: EditCase): Promise<string | null> {
  put({ [c.path]: c.before });
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
  const bytes = readFileSync(join(dir, c.path));
  onDisk.set(c.path, bytes);
  const now = () => bytes;
  const want = c.after && { [c.path]: c.after };
  const outcome = exit === -1 ? 'wrong' : judge({ want, before: { [c.path]: c.before }, exit, now });
  return outcome === 'correct' ? null : failureLine({ name: c.name, want, outcome, exit: exit === -1 ? 'INTERNAL' : exit, error, now });
}

function report(failures: string[], total: number): string {
  const shown = failures.slice(0, 12);
  return `${failures.length} of ${total} cases failed:\n${shown.join('\n')}${failures.length > shown.length ? `\n… and ${failures.length - shown.length} more` : ''}`;
}

test("the corpus holds this project's whole history and a second real history", () => {
  const bases = corpusBases();
  // A shallow clone (CI may make one) has no history to read; a full one must give it.
  const shallow = execFileSync('git', ['rev-parse', '--is-shallow-repository'], { encoding: 'utf8' }).trim() === 'true';
  if (!shallow)
    assert.ok(
      bases.some((b) => b.name.startsWith('forge@')),
      'commits of this repository',
    );
  assert.ok(
    bases.some((b) => b.name.startsWith('node_modules@')),
    'package releases',
  );
  for (const p of PERTURBATIONS) {
    const first = (p.patch ? patchCases(p) : editCases(p)).next();
    assert.ok(!first.done, `no case for ${p.id}`);
  }
});

// The corpus grows with every commit of this repository (77,000 patch cases by stop 33): the suite
// takes a deterministic sample of each perturbation, FORGE_CORPUS_SAMPLE=all the whole of it, as
// bench/files.ts does.
const PATCH_SAMPLE = process.env.FORGE_CORPUS_SAMPLE === 'all' ? Number.POSITIVE_INFINITY : Number(process.env.FORGE_CORPUS_SAMPLE) || 500;

for (const p of PERTURBATIONS.filter((x) => x.patch)) {
  test(`forge patch, ${p.id} (${Number.isFinite(PATCH_SAMPLE) ? PATCH_SAMPLE : 'all'} cases): ${p.what}`, async () => {
    const ws = await wsOnce;
    const failures: string[] = [];
    let total = 0;
    for (const c of Number.isFinite(PATCH_SAMPLE) ? sampleCases(p, PATCH_SAMPLE, 'patch') : patchCases(p)) {
      total++;
      const f = await patchFailure(ws, c);
      if (f) failures.push(f);
    }
    assert.ok(failures.length === 0, report(failures, total));
  });
}

// An edit is a journaled write per hunk (about 5 ms a case): a deterministic sample keeps this file
// under a minute on a loaded 2-core machine; bench/files.ts and forge patch above take the whole history.
const EDIT_SAMPLE = 100;

for (const p of PERTURBATIONS.filter((x) => x.edit)) {
  test(`forge edit, ${p.id} (${EDIT_SAMPLE} cases): ${p.what}`, async () => {
    const ws = await wsOnce;
    const failures: string[] = [];
    let total = 0;
    for (const c of sampleCases(p, EDIT_SAMPLE, 'edit')) {
      total++;
      const f = await editFailure(ws, c);
      if (f) failures.push(f);
    }
    assert.ok(failures.length === 0, report(failures, total));
  });
}

test.run();
