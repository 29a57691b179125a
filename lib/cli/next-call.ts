// A hint's forge command read as the tool call that runs it: the next step as data, for a caller that calls tools rather than a shell.
import type { CommandSpec } from './declare';
import { parseArgv, type ParsedArgv } from './parse';

/**
 * A command line's words (`forge <command> <args…>`, as shellSplit gives them) parsed against its
 * command's declaration; null for another program, a command `specOf` does not know (given the
 * words after `forge`), or words its parser refuses.
 */
export function forgeCall(
  words: readonly string[],
  specOf: (words: string[]) => CommandSpec<any> | null,
): { spec: CommandSpec<any>; parsed: ParsedArgv } | null {
  if (words[0] !== 'forge') return null;
  const spec = specOf(words.slice(1));
  if (!spec) return null;
  try {
    return { spec, parsed: parseArgv(spec, words.slice(1 + spec.name.split(' ').length)) };
  } catch {
    return null;
  }
}
