/**
 * Setup file of every test file (vitest.config.ts): the service's JSON answers are checked against
 * their operation's schema, strictly (api/plugins/answer-check.ts); a test during which any answer
 * departed fails, naming the operation, the status and each field at fault (docs/testing.md).
 */
import { appendFileSync } from 'node:fs';
import { afterAll, afterEach } from 'vitest';
import type { AnswerDeparture } from '../../api/plugins/answer-check.ts';

// The plugin's process-wide holder, by its global symbols: importing the plugin here would load the
// whole registry into every test file, the unit lane's too.
const holder = globalThis as { [key: symbol]: unknown };
holder[Symbol.for('civitas.answerDepartures.collecting')] = true;
const departures = () => (holder[Symbol.for('civitas.answerDepartures')] ??= []) as AnswerDeparture[];

function failOnDepartures(): void {
  const found = departures().splice(0);
  if (!found.length) return;
  if (process.env.ANSWER_LOG)
    appendFileSync(process.env.ANSWER_LOG, found.map((d) => JSON.stringify(d) + '\n').join(''));
  const lines = found.map((d) => `${d.key} → ${d.status} (${d.url}):\n    ${d.issues.join('\n    ')}`);
  throw new Error(`${found.length} answer(s) depart from their schema:\n  ${lines.join('\n  ')}`);
}

afterEach(failOnDepartures);
afterAll(failOnDepartures);
