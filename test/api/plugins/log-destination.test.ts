/**
 * The API process's log destination (api/plugins/log-destination.ts) gathers lines instead of
 * writing each, yet an error's line goes out at once (with everything gathered before it), and
 * nothing gathered is lost when the process exits. Run in a child process: it is stdout.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const module = fileURLToPath(new URL('../../../api/plugins/log-destination.ts', import.meta.url));

/** A child that logs `lines` ([level, message]) with no periodic flush, then waits for stdin to close. */
function logger(lines: Array<['info' | 'error', string]>) {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import pino from 'pino';
       import { errorsAtOnce, logDestination } from ${JSON.stringify(module)};
       const destination = logDestination(0);
       const log = pino({ hooks: { logMethod: errorsAtOnce(destination) } }, destination);
       for (const [level, message] of ${JSON.stringify(lines)}) log[level](message);
       process.stdin.resume();
       process.stdin.on('end', () => process.exit(0));`,
    ],
    { cwd: fileURLToPath(new URL('../../..', import.meta.url)), stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    output: () => out,
    /** Resolves once `text` has been written, the child still running. */
    written: (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => (out.includes(text) ? resolve() : child.stdout.once('data', check));
        check();
      }),
    end: async () => {
      child.stdin.end();
      await exited;
      return out;
    },
  };
}

describe('the log destination', () => {
  it("writes an error's line at once, with the lines gathered before it", async () => {
    const child = logger([
      ['info', 'gathered first'],
      ['error', 'an error'],
    ]);
    await child.written('an error'); // the child is still running: nothing but the error flushed it
    expect(child.output()).toContain('gathered first');
    await child.end();
  });

  it('loses no gathered line when the process exits', async () => {
    const child = logger([
      ['info', 'one'],
      ['info', 'two'],
    ]);
    const out = await child.end();
    expect(out).toContain('"msg":"one"');
    expect(out).toContain('"msg":"two"');
  });
});
