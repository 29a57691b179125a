// forge loop: the group of loop commands.
import { defineGroup } from '../../lib/cli/declare';
import cancel from './cancel';
import hook from './hook';
import install from './install';
import pause from './pause';
import resume from './resume';
import run from './run';
import start from './start';
import status from './status';

export default defineGroup({
  name: 'loop',
  summary: 'Drive an agent through iterations of one prompt until it is done',
  description:
    "A loop repeats one prompt to an agent until the agent says it is done (FORGE_COMPLETE or a completion promise, alone on a line), a done-when check passes, it pauses (FORGE_PAUSE, stuck, Ctrl-C, forge loop pause) or it reaches its iteration limit. Two drivers: the agent's own hook — Claude Code's or Codex CLI's Stop hook, Gemini CLI's AfterAgent hook (forge loop start --agent, forge loop install claude|codex|gemini) — bound to one session; or forge loop run -- <agent…>, which starts any CLI agent once per iteration. The loop, its iterations and its binding live on the state ref.",
  commands: [cancel, hook, install, pause, resume, run, start, status],
});
