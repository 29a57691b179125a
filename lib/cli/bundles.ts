// How one command's bundle reaches another's: forge mcp loads the code of a command it serves only when that command is called.
import type { Entry } from './declare';
import type { Called, CallOptions } from './invoke';

/** What each built bundle (dist/commands/<path>.js) exports: bin/bundle.ts. */
export interface CommandBundle {
  entries: readonly Entry[];
  run(args: { argv: string[]; load: CommandLoader }): Promise<number>;
  /** Calls one command of this bundle in-process (lib/cli/invoke.ts callOnce): its own copy of the shared call path. */
  call(call: { name: string } & CallOptions): Promise<Called>;
}

/** Loads the bundle of a command by its catalog path (`memory/recall`). */
export type CommandLoader = (path: string) => CommandBundle;

let loader: CommandLoader | null = null;

/** Set by the bundle the executable runs; never set when the sources run in-process (tests). */
export function setCommandLoader(load: CommandLoader): void {
  loader = load;
}

/** The loader of the running executable, or null outside a built bundle. */
export function commandLoader(): CommandLoader | null {
  return loader;
}
