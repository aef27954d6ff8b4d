/**
 * The typed query layer (api/db/kysely.ts): a Kysely typed from the entities, on the connection and
 * in the transaction of the `Sql` it comes from, with the driver's values (a timestamp as text, an
 * int8 as a number) on whichever database the suite uses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
}, 60_000);
afterAll(() => test?.drop());

const lesson = (id: string) => ({
  id,
  title: 'A lesson',
  body: 'What was learned.',
  sources: [],
  steward: 'test',
  created_at: '2026-01-02 03:04:05+00',
  receipt_id: `r-${id}`,
});

describe('the typed Kysely', () => {
  it('reads rows as the driver returns them', async () => {
    const [row] = await test.db.kysely.selectFrom('record_counter').select(['id', 'value']).execute();
    expect(typeof row?.value).toBe('number');
    const [now] = await test.db.kysely
      .selectFrom('record_counter')
      .select((eb) => eb.fn<string>('now').as('now'))
      .execute();
    expect(typeof now?.now).toBe('string');
  });

  it('takes part in the transaction it comes from', async () => {
    await expect(
      test.db.transaction(async (tx) => {
        await tx.kysely.insertInto('lessons').values(lesson('kysely-rolled-back')).execute();
        const inside = await tx.kysely
          .selectFrom('lessons')
          .select('id')
          .where('id', '=', 'kysely-rolled-back')
          .execute();
        expect(inside).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const after = await test.db.kysely
      .selectFrom('lessons')
      .select('id')
      .where('id', '=', 'kysely-rolled-back')
      .execute();
    expect(after).toEqual([]);
  });

  it('runs in the plain-SQL transaction too', async () => {
    const created = await test.db.sqlTransaction(async (tx) =>
      tx.kysely.insertInto('lessons').values(lesson('kysely-kept')).returning(['id', 'created_at']).execute(),
    );
    expect(created).toHaveLength(1);
    expect(typeof created[0]?.created_at).toBe('string');
  });
});
