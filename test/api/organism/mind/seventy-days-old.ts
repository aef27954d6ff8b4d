import { appendImprint } from '../../../../api/record/window.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../../helpers/identity.ts';
import { imprintDraft } from '../../../helpers/imprint-draft.ts';

const DAY = 86_400_000;
export const NOW = Date.parse('2026-11-22T12:00:00.000Z');

/**
 * A service 70 days old with a known past, for mind.test.ts and persona.test.ts: one agent's
 * seven imprints (three thoughts 70 days ago, four questions two days ago) and six signed-in
 * sovereigns to take stances.
 */
export async function seventyDaysOld(): Promise<{ t: TestApp; people: TestSovereign[] }> {
  const t = await createTestApp();
  const seed = (kind: 'thought' | 'question' | 'signal', at: number) =>
    t.database.db.transaction((tx) =>
      appendImprint(
        tx,
        imprintDraft({ kind, body: `persona probe ${at}`, authorRef: 'persona-probe', at: new Date(at) }),
      ),
    );
  for (let i = 0; i < 3; i++) await seed('thought', NOW - 70 * DAY + i * 60_000);
  for (let i = 0; i < 4; i++) await seed('question', NOW - 2 * DAY + i * 60_000);
  const people: TestSovereign[] = [];
  for (let i = 0; i < 6; i++) people.push(await signedInSovereign(t.app));
  return { t, people };
}
