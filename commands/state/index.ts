// forge state: the group of commands that show, export and share the state ref.
import { defineGroup } from '../../lib/cli/declare';
import exportCmd from './export';
import log from './log';
import show from './show';
import sync from './sync';

export default defineGroup({
  name: 'state',
  summary: 'Show, export and share refs/forge/state',
  description:
    "All of forge's machine state is committed under .forge/ on the shadow ref refs/forge/state: one commit per change, moved by compare-and-swap, never touching HEAD, the index, the work tree or any branch. These commands read it, copy it out and share it with a remote; plain git reads it too (git log refs/forge/state; git grep -h -a '' refs/forge/state -- .forge/memory/project prints project memory, whose buckets, like the segments of logs, telemetry and the plan journal, are files of one directory).",
  commands: [exportCmd, log, show, sync],
});
