// forge memory: the group of memory commands.
import { defineGroup } from '../../lib/cli/declare';
import recall from './recall';
import save from './save';

export default defineGroup({
  name: 'memory',
  summary: 'Learned patterns that outlive a run',
  description:
    'Memory is a primitive, human-readable JSONL store of lessons: conventions, failure and success patterns, test commands, architecture, dependencies, tool usage. Project memory is committed on refs/forge/state and shared with `forge state sync`; global memory is a file in $XDG_DATA_HOME/forge.',
  commands: [recall, save],
});
