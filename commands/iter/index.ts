// forge iter: the group of iteration-state commands.
import { defineGroup } from '../../lib/cli/declare';
import get from './get';
import reset from './reset';
import update from './update';

export default defineGroup({
  name: 'iter',
  summary: 'Per-module retry state of a run',
  description:
    'Iteration state counts the attempts of each module in a run, keeps their scores and issues, and flags stagnation — the signal that decides between retrying and escalating. It lives at .forge/iterations/<runId>/<moduleId>.json on the state ref, scoped per run so a new run starts at attempt 1.',
  commands: [get, reset, update],
});
