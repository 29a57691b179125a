// forge session: the group of session snapshot commands.
import { defineGroup } from '../../lib/cli/declare';
import list from './list';
import load from './load';
import save from './save';

export default defineGroup({
  name: 'session',
  summary: 'Resumable snapshots of a run',
  description:
    "A session snapshot records where a run is — its phase and each module's status — so a crashed, restarted or paused orchestrator picks up exactly where it left off. Snapshots live at .forge/sessions/<runId>.json on the state ref.",
  commands: [list, load, save],
});
