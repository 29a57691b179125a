// forge plan: the group of plan-contract commands.
import { defineGroup } from '../../lib/cli/declare';
import activate from './activate';
import check from './check';
import newPlan from './new';
import pause from './pause';
import resume from './resume';
import status from './status';

export default defineGroup({
  name: 'plan',
  summary: 'Typed plan contracts: check them in hooks and CI',
  description:
    'A plan contract is a Markdown plan under docs/plans/ whose YAML envelopes say, for the whole plan and for each unit, which tools and paths an agent may use, how far its changes may reach and what evidence ends a unit. forge plan check validates them (and JSON module plans) as a pre-push hook or a CI gate; forge plan activate records one on the state ref as the active contract, and pause/resume work its kill switch.',
  commands: [activate, check, newPlan, pause, resume, status],
});
