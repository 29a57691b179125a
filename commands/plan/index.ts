// forge plan: the group of plan-contract commands.
import { defineGroup } from '../../lib/cli/declare';
import check from './check';
import newPlan from './new';

export default defineGroup({
  name: 'plan',
  summary: 'Typed plan contracts: check them in hooks and CI',
  description:
    'A plan contract is a Markdown plan under docs/plans/ whose YAML envelopes say, for the whole plan and for each unit, which tools and paths an agent may use, how far its changes may reach and what evidence ends a unit. forge plan check validates them (and JSON module plans) as a pre-push hook or a CI gate.',
  commands: [check, newPlan],
});
