// After a task or a plan: what changed since its checkpoint (git diff --stat style) and the change-impact warnings.
import type { RunContext } from '../cli/declare';
import type { FileChange } from '../git/checkpoint';
import type { ImpactWarning } from './impact';

export async function emitSweep({
  ctx,
  checkpoint,
  number,
  changes,
  warnings,
}: {
  ctx: RunContext;
  checkpoint: string;
  number: number | null;
  changes: FileChange[];
  warnings: ImpactWarning[];
}): Promise<void> {
  const width = Math.max(0, ...changes.map((c) => c.path.length));
  for (const c of changes) {
    const counts = c.insertions === null ? 'binary' : `+${c.insertions} -${c.deletions}`;
    await ctx.emit(
      { type: 'change', path: c.path, status: c.status, insertions: c.insertions, deletions: c.deletions },
      ` ${c.path.padEnd(width)} | ${c.status} ${counts}`,
    );
  }
  const n = number && number > 1 ? [number] : [];
  const how = number ? ` (${ctx.cmd('diff', ...n)} shows them, ${ctx.cmd('undo', ...n)} takes them back)` : '';
  if (changes.length)
    await ctx.emit(
      { type: 'changes', files: changes.length, checkpoint, number },
      ` ${changes.length} file${changes.length === 1 ? '' : 's'} changed since checkpoint ${number ?? checkpoint.slice(0, 10)}${how}`,
    );
  for (const w of warnings)
    await ctx.emit({ type: 'impact', symbol: w.symbol, file: w.file, change: w.change, references: w.references, more: w.more }, w.text);
}
