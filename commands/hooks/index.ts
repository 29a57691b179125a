// forge hooks: the group of git-hook commands.
import { defineGroup } from '../../lib/cli/declare';
import install from './install';

export default defineGroup({
  name: 'hooks',
  summary: 'Git hooks that put forge checks in front of git',
  description: 'forge hooks install pre-push makes every git push run forge plan check first, so a plan contract that widens its rails never leaves the machine.',
  commands: [install],
});
