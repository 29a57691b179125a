// What forge agent records on the state ref besides its plans (telemetry, session turns), where each goes, and the profile key and variables that turn it off.
import type { ConfigProfile, Recording } from './config-types';
import { SESSIONS_DIR } from './sessions';
import { TELEMETRY_DIR } from './telemetry';

/**
 * What forge agent records on the state ref besides its plans, and what turns each off: the
 * profile key, or any of the variables (DO_NOT_TRACK=1 is the cross-tool "no telemetry" wish,
 * consoledonottrack.com). Off wins: recording happens only when nothing says off.
 */
export const RECORDINGS = {
  telemetry: { what: 'telemetry', path: `${TELEMETRY_DIR}/`, key: 'telemetry_disabled', envs: ['FORGE_NO_TELEMETRY', 'DO_NOT_TRACK'] },
  sessions: { what: 'the session', path: `${SESSIONS_DIR}/`, key: 'sessions_disabled', envs: ['FORGE_NO_SESSIONS'] },
} as const satisfies Record<Recording, { what: string; path: string; key: keyof ConfigProfile; envs: readonly string[] }>;

/** A variable set to anything but empty, 0 or false turns its recording off. */
export function envSaysOff(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
