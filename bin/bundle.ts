// What each bundle in dist/commands/ exports to the executable: its registry entries, a run on this process, and the in-process call forge mcp makes.
import type { Entry } from '../lib/cli/declare';
import { invoke, type Invocation } from '../lib/cli/invoke';
import { main } from '../lib/cli/main';
import { leaves } from '../lib/cli/registry';
import { setCommandLoader, type CommandBundle, type CommandLoader } from '../lib/cli/bundles';
import { catchInterrupts } from './interrupt';
import { inputSource, outputStream } from './stdio';

export function commandBundle(entries: readonly Entry[]): CommandBundle {
  return {
    entries,
    async run({ argv, load }: { argv: string[]; load: CommandLoader }): Promise<number> {
      setCommandLoader(load);
      const interrupts = catchInterrupts();
      try {
        const code = await main({
          entries,
          argv,
          env: process.env,
          cwd: process.cwd(),
          // process.stdin is made only for a terminal, and on first use: making it costs a few ms.
          stdin: inputSource(0, () => process.stdin),
          stdout: outputStream(1, () => process.stdout),
          stderr: outputStream(2, () => process.stderr),
          signal: interrupts.signal,
        });
        return interrupts.code() ?? code;
      } finally {
        interrupts.dispose();
      }
    },
    invoke({ name, args, cwd, env, json, signal, onProgress }): Promise<Invocation> {
      const spec = leaves(entries).find((s) => s.name === name);
      if (!spec) throw new Error(`no command '${name}' in this bundle`);
      return invoke({ entries, spec, args, cwd, env, json, ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) });
    },
  };
}
