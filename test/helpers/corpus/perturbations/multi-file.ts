// Perturbations over a whole commit: every file's diff in one patch, applied whole, or refused whole when its last file conflicts.
import { fromText } from '../bases';
import { conflicted, type Perturbation } from '../cases';

export const MULTI_FILE_PERTURBATIONS: Perturbation[] = [
  {
    id: 'multi-file',
    what: "a whole commit's diff over several files",
    refuse: false,
    patch: (b, siblings) => {
      if (siblings.length < 2 || siblings[0] !== b) return null;
      return {
        name: `${b.name.replace(/:.*/, '')} multi-file`,
        perturbation: 'multi-file',
        before: Object.fromEntries(siblings.map((s) => [s.path, fromText(s.before)])),
        patch: siblings.map((s) => s.patch).join(''),
        after: Object.fromEntries(siblings.map((s) => [s.path, fromText(s.after)])),
      };
    },
  },
  {
    id: 'multi-file-conflict',
    what: "a whole commit's diff whose last file conflicts: must refuse and change no file",
    refuse: true,
    patch: (b, siblings) => {
      if (siblings.length < 2 || siblings[0] !== b) return null;
      const last = [...siblings].reverse().find((s) => s.plain && conflicted(s));
      if (!last) return null;
      const order = [...siblings.filter((s) => s !== last), last];
      const broken = conflicted(last)!.base;
      return {
        name: `${b.name.replace(/:.*/, '')} multi-file-conflict`,
        perturbation: 'multi-file-conflict',
        before: Object.fromEntries(order.map((s) => [s.path, fromText(s === last ? broken.before : s.before)])),
        patch: order.map((s) => s.patch).join(''),
        after: null,
      };
    },
  },
];
