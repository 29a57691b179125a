// The recommendation after a validation attempt: PROCEED, RETRY or ESCALATE, and why.
import { isStagnant, oscillatesWith, sameAsPrev, velocity, VELOCITY_WINDOW, type Attempt } from '../iter/iter';

export type Recommendation = 'PROCEED' | 'RETRY' | 'ESCALATE';

/** A module still failing at this attempt goes to a person (or a stronger model) instead. */
export const DEFAULT_MAX_ATTEMPTS = 5;

export interface Verdict {
  recommendation: Recommendation;
  reason: string;
  stagnant: boolean;
  oscillating: boolean;
  sameAsPrev: boolean;
  velocity: number | null;
}

/**
 * `attempts` ends with the attempt just made. PROCEED when it passed; ESCALATE when the working
 * directory is missing, when stagnant, when oscillating, or at maxAttempts; RETRY otherwise.
 */
export function recommend({
  attempts,
  cwdMissing,
  maxAttempts,
}: {
  attempts: Attempt[];
  cwdMissing: boolean;
  maxAttempts: number;
}): Verdict {
  const n = attempts.length;
  const last = attempts[n - 1]!;
  const repeated = oscillatesWith(attempts);
  const facts = {
    stagnant: isStagnant(attempts),
    oscillating: repeated !== null,
    sameAsPrev: sameAsPrev(attempts),
    velocity: velocity(attempts),
  };
  const verdict = (recommendation: Recommendation, reason: string): Verdict => ({ recommendation, reason, ...facts });
  if (last.status === 'passed') return verdict('PROCEED', 'every check passed');
  if (cwdMissing) return verdict('ESCALATE', 'the working directory does not exist: nothing can be checked until it does');
  if (facts.sameAsPrev) return verdict('ESCALATE', `stagnant: the same checks failed as in attempt ${n - 1}`);
  if (facts.stagnant) return verdict('ESCALATE', `stagnant: the score has not risen over the last ${VELOCITY_WINDOW} scored attempts`);
  if (repeated !== null) return verdict('ESCALATE', `oscillating: the same checks failed as in attempt ${repeated}`);
  if (n >= maxAttempts) return verdict('ESCALATE', `attempt ${n} of at most ${maxAttempts}`);
  const failed = last.issues.length;
  return verdict('RETRY', `${failed} check${failed === 1 ? '' : 's'} failed; attempt ${n} of at most ${maxAttempts}`);
}
