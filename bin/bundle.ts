// What each bundle in dist/commands/ exports to the executable: its registry entries, a run on this process, and the typed in-process call forge mcp makes.
import type { Entry } from '../lib/cli/declare';
import { type Called, callOnce, commandNamed } from '../lib/cli/invoke';
import { main } from '../lib/cli/main';
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
          // A closed pipe or a quit pager is a normal way for a reader to stop.
          onReaderGone: () => process.exit(0),
          registry: () => load('index').entries,
        });
        return interrupts.code() ?? code;
      } finally {
        interrupts.dispose();
      }
    },
    call({ name, ...call }): Promise<Called> {
      return callOnce({ spec: commandNamed(entries, name), ...call });
    },
  };
}
