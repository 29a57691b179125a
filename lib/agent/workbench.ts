// What surrounds a model run: the tools (forge's own and MCP servers'), the contract gate, on_edit hooks, checkpoints.
import type { Entry } from '../cli/declare';
import { runGit } from '../git/exec';
import type { ToolCallGuards } from './agent';
import { contractGate } from './gate';
import { agentTools, type AgentTools } from './tools';

export interface Workbench {
  tools: AgentTools;
  guards: ToolCallGuards;
  /** A checkpoint of the work tree; its commit, or null outside git. */
  checkpoint(message: string): Promise<string | null>;
  /** Paths changed since a checkpoint, untracked files included. */
  changedSince(checkpoint: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function openWorkbench({ entries, root, cwd, env, inRepo }: { entries: readonly Entry[]; root: string; cwd: string; env: NodeJS.ProcessEnv; inRepo: boolean }): Promise<Workbench> {
  const tools = agentTools({ entries, cwd, root, env });
  // Outside a repository there is no state ref, so no contract can be active.
  const guards: ToolCallGuards = inRepo ? { gate: contractGate({ entries, cwd, env }) } : {};
  return {
    tools,
    guards,
    checkpoint: async () => null,
    changedSince: async (checkpoint) => {
      const r = await runGit({ cwd: root, args: ['diff', '--name-only', checkpoint] });
      return r.stdout.toString('utf8').split('\n').filter(Boolean);
    },
    close: async () => {},
  };
}
