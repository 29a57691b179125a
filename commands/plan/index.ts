// forge plan: the group of plan-contract commands.
import { defineGroup } from '../../lib/cli/declare';
import ack from './ack';
import activate from './activate';
import advance from './advance';
import check from './check';
import end from './end';
import installHook from './install-hook';
import journal from './journal';
import newPlan from './new';
import pause from './pause';
import preflight from './preflight';
import resume from './resume';
import status from './status';

export default defineGroup({
  name: 'plan',
  summary: 'Typed plan contracts: check them in hooks and CI, gate an agent with them',
  description:
    'A plan contract is a Markdown plan under docs/plans/ whose YAML envelopes say, for the whole plan and for each unit, which tools and paths an agent may use, how far its changes may reach and what evidence ends a unit. forge plan check validates them (and JSON module plans) as a pre-push hook or a CI gate. forge plan activate records one on the state ref and enters its first unit; from then on forge plan preflight gates each tool call (install-hook claude makes it a Claude Code PreToolUse hook), ack lets a soft refusal through once, advance moves unit by unit to done, pause/resume work the kill switch, end stops a plan before its last unit (activate --replace takes up an edited one), and journal shows every decision.',
  commands: [ack, activate, advance, check, end, installHook, journal, newPlan, pause, preflight, resume, status],
});
