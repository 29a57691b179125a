// The commands forge agent's tools run (lib/cli/agent-tools.ts VIEWS): the agent's registry, so its bundle holds these and not every command (nor imports commands/index.ts, which imports it).
import type { Entry } from '../../lib/cli/declare';
import edit from '../edit';
import ls from '../ls';
import memory from '../memory/index';
import patch from '../patch';
import read from '../read';
import replace from '../replace';
import search from '../search';
import validate from '../validate';
import write from '../write';

/** Sorted by name, as the registry is; a test holds it to every command a tool view names. */
export const toolCommands: readonly Entry[] = [edit, ls, memory, patch, read, replace, search, validate, write];
