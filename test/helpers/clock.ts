// Timeouts on a clock the test runs: one expires when the test says so, one never does; neither depends on how fast the machine is.
import type { StartTimeout } from '../../lib/timeout';

/** For an operation that must finish on its own: however slow the machine, it is never cut short (the harness bounds a hang). */
export const neverExpires: StartTimeout = () => () => {};

/**
 * Timeouts that run until the test calls `expire()`: a test of a timeout waits for the state it
 * wants to see cut short (a child started, a request sent), then expires it.
 */
export class TestClock {
  private readonly running = new Map<number, () => void>();
  private started = 0;
  /** The limits asked for, in the order they were started. */
  readonly limits: number[] = [];

  readonly startTimeout: StartTimeout = (ms, expire) => {
    const id = this.started++;
    this.limits.push(ms);
    this.running.set(id, expire);
    return () => this.running.delete(id);
  };

  /** Timeouts started and neither expired nor cancelled. */
  get pending(): number {
    return this.running.size;
  }

  /** Expires every running timeout; how many there were. */
  expire(): number {
    const due = [...this.running.values()];
    this.running.clear();
    for (const expire of due) expire();
    return due.length;
  }
}
