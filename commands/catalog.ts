// Where each command's module is, so the executable loads only the command it runs (start-up time).
// A test keeps it equal to the registry in index.ts.
import type { CommandSpec } from '../lib/cli/declare';

export type Load = () => Promise<{ default: CommandSpec<any> }>;

export const catalog: Record<string, Load | Record<string, Load>> = {
  agent: () => import('./agent'),
  checkpoint: () => import('./checkpoint'),
  diff: () => import('./diff'),
  edit: () => import('./edit'),
  hooks: {
    install: () => import('./hooks/install'),
    list: () => import('./hooks/list'),
  },
  init: () => import('./init'),
  iter: {
    get: () => import('./iter/get'),
    reset: () => import('./iter/reset'),
    update: () => import('./iter/update'),
  },
  logs: () => import('./logs'),
  loop: {
    cancel: () => import('./loop/cancel'),
    hook: () => import('./loop/hook'),
    install: () => import('./loop/install'),
    pause: () => import('./loop/pause'),
    resume: () => import('./loop/resume'),
    run: () => import('./loop/run'),
    start: () => import('./loop/start'),
    status: () => import('./loop/status'),
  },
  ls: () => import('./ls'),
  mcp: () => import('./mcp'),
  memory: {
    recall: () => import('./memory/recall'),
    save: () => import('./memory/save'),
  },
  patch: () => import('./patch'),
  plan: {
    ack: () => import('./plan/ack'),
    activate: () => import('./plan/activate'),
    advance: () => import('./plan/advance'),
    check: () => import('./plan/check'),
    'install-hook': () => import('./plan/install-hook'),
    journal: () => import('./plan/journal'),
    new: () => import('./plan/new'),
    pause: () => import('./plan/pause'),
    preflight: () => import('./plan/preflight'),
    resume: () => import('./plan/resume'),
    status: () => import('./plan/status'),
  },
  read: () => import('./read'),
  replace: () => import('./replace'),
  schema: () => import('./schema'),
  search: () => import('./search'),
  session: {
    list: () => import('./session/list'),
    load: () => import('./session/load'),
    save: () => import('./session/save'),
  },
  state: {
    export: () => import('./state/export'),
    log: () => import('./state/log'),
    show: () => import('./state/show'),
    sync: () => import('./state/sync'),
  },
  stats: () => import('./stats'),
  undo: () => import('./undo'),
  validate: () => import('./validate'),
  write: () => import('./write'),
};
