// The registry: every forge command and group, sorted by name (no directory scanning).
import type { Entry } from '../lib/cli/declare';
import agent from './agent';
import checkpoint from './checkpoint';
import completion from './completion';
import diff from './diff';
import edit from './edit';
import evaluate from './eval';
import hooks from './hooks/index';
import init from './init';
import iter from './iter/index';
import logs from './logs';
import loop from './loop/index';
import ls from './ls';
import mcp from './mcp';
import memory from './memory/index';
import patch from './patch';
import plan from './plan/index';
import read from './read';
import replace from './replace';
import schema from './schema';
import search from './search';
import session from './session/index';
import state from './state/index';
import stats from './stats';
import undo from './undo';
import validate from './validate';
import write from './write';

export const entries: readonly Entry[] = [
  agent,
  checkpoint,
  completion,
  diff,
  edit,
  evaluate,
  hooks,
  init,
  iter,
  logs,
  loop,
  ls,
  mcp,
  memory,
  patch,
  plan,
  read,
  replace,
  schema,
  search,
  session,
  state,
  stats,
  undo,
  validate,
  write,
];
