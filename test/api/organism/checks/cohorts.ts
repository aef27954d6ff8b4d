import { appendImprint } from '../../../../api/record/window.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../../helpers/identity.ts';
import { imprintDraft } from '../../../helpers/imprint-draft.ts';

/**
 * The organism's checks read a small, known population, seeded into the store: six October agents
 * (a publishable cohort, each with a learnable imprint and an unattested one, three of those held)
 * and two November agents (a small cohort, unattested), all on 2026-11-21, and one sovereign's
 * imprint (sequence 15). Shared by checks.test.ts and conclusions.test.ts.
 */
const NOW = Date.parse('2026-11-22T12:00:00.000Z');

export async function seededCohorts(): Promise<{ t: TestApp; sovereign: TestSovereign }> {
  const t = await createTestApp();
  const sovereign = await signedInSovereign(t.app);
  const sql = (text: string, params: unknown[]) => t.database.db.query(text, params);
  const agent = (handle: string, firstSeen: string) =>
    sql(
      `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at) values ($1, 'x', 'arrived', $2, $2)`,
      [handle, firstSeen],
    );
  const seed = (
    author: string,
    body: string,
    at: number,
    extra: { unattested?: boolean; held?: boolean; authorKind?: 'agent' | 'sovereign' } = {},
  ) =>
    t.database.db.transaction((tx) =>
      appendImprint(
        tx,
        imprintDraft({
          body,
          authorKind: extra.authorKind ?? 'agent',
          authorRef: author,
          publicAuthor: extra.authorKind === 'sovereign' ? 'abcd' : author,
          unattested: extra.unattested ?? false,
          held: extra.held ?? false,
          heldReason: extra.held ? 'link_density' : null,
          at: new Date(at),
        }),
      ),
    );
  for (let i = 0; i < 6; i++) await agent(`october-${i}`, '2026-10-05T10:00:00.000Z');
  for (let i = 0; i < 2; i++) await agent(`november-${i}`, '2026-11-03T10:00:00.000Z');
  let at = NOW - 20 * 60 * 60_000;
  for (let i = 0; i < 6; i++) {
    await seed(`october-${i}`, `lanterns over the harbour tonight ${i}`, (at += 60_000));
    await seed(`october-${i}`, `harbour lanterns again ${i}`, (at += 60_000), {
      unattested: true,
      held: i < 3,
    });
  }
  for (let i = 0; i < 2; i++)
    await seed(`november-${i}`, `secretive newcomer musing ${i}`, (at += 60_000), { unattested: true });
  await seed(sovereign.id, 'lanterns seen by a human', at + 60_000, { authorKind: 'sovereign' });
  return { t, sovereign };
}
