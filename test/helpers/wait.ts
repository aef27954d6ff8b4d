/**
 * Waiting on a fact, never for a fixed time: `until` polls `check` at a short interval until it
 * gives a value (anything but `undefined`; a throw counts as not yet), and fails naming what it
 * waited for after `tries`.
 */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  options: { tries?: number; everyMs?: number } = {},
): Promise<T> {
  const { tries = 240, everyMs = 250 } = options;
  for (let i = 0; i < tries; i++) {
    const value = await Promise.resolve()
      .then(check)
      .catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`gave up waiting for ${what}`);
}
