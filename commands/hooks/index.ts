// forge hooks: the group of hook commands: git's pre-push hook and the agent's hooks.
import { defineGroup } from '../../lib/cli/declare';
import install from './install';
import list from './list';

export default defineGroup({
  name: 'hooks',
  summary: "Hooks: forge checks in front of git push, and the agent's commands after edits and at each step, task and session",
  description:
    "forge hooks install pre-push makes every git push run forge plan check first, so a plan contract that widens its rails never leaves the machine. forge hooks list shows the agent's hooks of a config profile: the commands forge agent runs after each edit (a failing one's output goes back to the model) and when a step, a task or a session starts or ends, detected once from the project's build files.",
  commands: [install, list],
});
