import type { Clock } from '../../api/context.ts';

/** The seed's clock: the app sees the simulated moment each write happens at. */
export class TestableClock implements Clock {
  private current = Date.now();
  now(): Date {
    return new Date(this.current);
  }
  set(ms: number): void {
    this.current = ms;
  }
}
