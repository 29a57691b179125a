// After a task or a plan: what changed since its checkpoint (git diff --stat style) and the change-impact warnings.
import type { RunContext } from '../cli/declare';
import type { FileChange } from '../git/checkpoint';
import type { ImpactWarning } from './impact';

export async function emitSweep({ ctx, checkpoint, changes, warnings }: { ctx: RunContext; checkpoint: string; changes: FileChange[]; warnings: ImpactWarning[] }): Promise<void> {
  const width = Math.max(0, ...changes.map((c) => c.path.length));
  for (const c of changes) {
    const counts = c.insertions === null ? 'binary' : `+${c.insertions} -${c.deletions}`;
    await ctx.emit({ type: 'change', path: c.path, status: c.status, insertions: c.insertions, deletions: c.deletions }, ` ${c.path.padEnd(width)} | ${c.status} ${counts}`);
  }
  if (changes.length) await ctx.emit({ type: 'changes', files: changes.length, checkpoint }, ` ${changes.length} file${changes.length === 1 ? '' : 's'} changed since checkpoint ${checkpoint.slice(0, 10)} (forge diff shows them, forge undo takes them back)`);
  for (const w of warnings) await ctx.emit({ type: 'impact', symbol: w.symbol, file: w.file, change: w.change, references: w.references, more: w.more }, w.text);
}
