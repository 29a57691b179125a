// The registry: every forge command and group, sorted by name (no directory scanning).
import type { Entry } from '../lib/cli/declare';
import iter from './iter/index';
import logs from './logs';
import memory from './memory/index';
import schema from './schema';
import session from './session/index';
import state from './state/index';

export const entries: readonly Entry[] = [iter, logs, memory, schema, session, state];
