// After a task or a plan: what changed since its checkpoint (git diff --stat style) and the change-impact warnings.
import type { FileChange } from '../git/checkpoint';
import type { ImpactWarning } from './impact';
import type { HookEvent } from './config-types';
import type { AgentIO } from './io';
import type { Workbench } from './workbench';

export async function emitSweep({
  io,
  checkpoint,
  number,
  changes,
  warnings,
}: {
  io: Pick<AgentIO, 'emit' | 'cmd'>;
  checkpoint: string;
  number: number | null;
  changes: FileChange[];
  warnings: ImpactWarning[];
}): Promise<void> {
  const width = Math.max(0, ...changes.map((c) => c.path.length));
  for (const c of changes) {
    const counts = c.insertions === null ? 'binary' : `+${c.insertions} -${c.deletions}`;
    await io.emit(
      { type: 'change', path: c.path, status: c.status, insertions: c.insertions, deletions: c.deletions },
      ` ${c.path.padEnd(width)} | ${c.status} ${counts}`,
    );
  }
  const n = number && number > 1 ? [number] : [];
  const how = number ? ` (${io.cmd('diff', ...n)} shows them, ${io.cmd('undo', ...n)} takes them back)` : '';
  if (changes.length)
    await io.emit(
      { type: 'changes', files: changes.length, checkpoint, number },
      ` ${changes.length} file${changes.length === 1 ? '' : 's'} changed since checkpoint ${number ?? checkpoint.slice(0, 10)}${how}`,
    );
  for (const w of warnings)
    await io.emit({ type: 'impact', symbol: w.symbol, file: w.file, change: w.change, references: w.references, more: w.more }, w.text);
}

/** A finished piece of work (a task, a plan step, a plan): its hooks' report, then the auto-commit the profile asks for, each told. */
export async function hooksThenCommit({
  io,
  bench,
  event,
  at,
  message,
}: {
  io: Pick<AgentIO, 'emit'>;
  bench: Workbench;
  event: HookEvent;
  at: 'task' | 'step' | 'plan';
  message: string;
}): Promise<void> {
  const report = await bench.hook(event);
  if (report) await io.emit({ type: 'hooks', text: report }, report);
  const commit = await bench.commit(at, message);
  if (commit) await io.emit({ type: 'commit', commit }, `committed ${commit.slice(0, 10)} (auto_commit)`);
}
