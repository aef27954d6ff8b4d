/**
 * Where an API process's log lines go: stdout, asynchronously and gathered. Lines are written
 * 4 KB at a time, at least every 250 ms, a line at `error` or above at once, and whatever is left
 * on exit (pino flushes its destination then). With one line per request (the access log,
 * CIVITAS_ACCESS_LOG_SAMPLE = 1 by default) a write per line cost about 8% of an API process's CPU
 * under imprint writes at 8 connections (docs/record.md, "Benchmark").
 */
import pino from 'pino';

/** pino's level number of `error`. */
const ERROR_LEVEL = 50;

export type LogDestination = pino.DestinationStream & { flush(): void };

/** `periodicFlushMs` 0: only a full buffer, an error's line or the exit write (the test's case). */
export function logDestination(periodicFlushMs = 250): LogDestination {
  return pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: periodicFlushMs });
}

/** pino's `hooks.logMethod`: writes the line, then flushes `destination` when it is an error's. */
export function errorsAtOnce(destination: LogDestination | undefined) {
  return function logMethod(
    this: pino.Logger,
    args: Parameters<pino.LogFn>,
    method: pino.LogFn,
    level: number,
  ) {
    method.apply(this, args);
    if (level >= ERROR_LEVEL) destination?.flush();
  };
}
