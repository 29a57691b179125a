// A hint's forge command read as the tool call that runs it: the next step as data, for a caller that calls tools rather than a shell.
import { shellSplit } from '../quote';
import type { CommandSpec } from './declare';
import { parseArgv, type ParsedArgv } from './parse';

/**
 * `forge <command> <args…>` parsed against its command's declaration; null for another program, a
 * command `specOf` does not know (given the words after `forge`), or words its parser refuses.
 */
export function forgeCall(
  command: string,
  specOf: (words: string[]) => CommandSpec<any> | null,
): { spec: CommandSpec<any>; parsed: ParsedArgv } | null {
  const words = shellSplit(command);
  if (!words?.length || words[0] !== 'forge') return null;
  const spec = specOf(words.slice(1));
  if (!spec) return null;
  try {
    return { spec, parsed: parseArgv(spec, words.slice(1 + spec.name.split(' ').length)) };
  } catch {
    return null;
  }
}
