// What surrounds a model run: the tools (forge's own and MCP servers'), the contract gate, on_edit hooks, checkpoints.
import type { Entry } from '../cli/declare';
import { createCheckpoint, workTreeChanges, type CheckpointKind, type FileChange } from '../git/checkpoint';
import type { ToolCallGuards } from './agent';
import { contractGate } from './gate';
import type { ImpactWarning } from './impact';
import { agentTools, type AgentTools } from './tools';

export interface Workbench {
  tools: AgentTools;
  guards: ToolCallGuards;
  /** A checkpoint of the work tree (untracked files included) on refs/forge/checkpoints; its commit, or null outside git. */
  checkpoint(summary: string, kind: CheckpointKind): Promise<string | null>;
  /** Paths changed since a checkpoint, untracked files included. */
  changedSince(checkpoint: string): Promise<string[]>;
  /** What changed since a checkpoint, and the change-impact sweep's warnings. */
  sweep(checkpoint: string): Promise<{ changes: FileChange[]; warnings: ImpactWarning[] }>;
  close(): Promise<void>;
}

export async function openWorkbench({ entries, root, cwd, env, inRepo }: { entries: readonly Entry[]; root: string; cwd: string; env: NodeJS.ProcessEnv; inRepo: boolean }): Promise<Workbench> {
  const tools = agentTools({ entries, cwd, root, env });
  // Outside a repository there is no state ref, so no contract can be active.
  const guards: ToolCallGuards = inRepo ? { gate: contractGate({ entries, cwd, env }) } : {};
  return {
    tools,
    guards,
    checkpoint: async (summary, kind) => (inRepo ? ((await createCheckpoint({ cwd: root, message: summary, kind }))?.oid ?? null) : null),
    changedSince: async (checkpoint) => (await workTreeChanges({ cwd: root, base: checkpoint })).files.map((f) => f.path),
    sweep: async (checkpoint) => {
      const { impactSweep } = await import('./impact');
      const [{ files }, impact] = await Promise.all([workTreeChanges({ cwd: root, base: checkpoint }), impactSweep({ cwd: root, base: checkpoint })]);
      return { changes: files, warnings: impact.warnings };
    },
    close: async () => {},
  };
}
