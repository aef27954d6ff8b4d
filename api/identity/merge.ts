import type { Sql } from '../db/database.ts';
import { PERSONAL_DATA } from '../personal-data.ts';
import type { Holder } from '../personal-data-contract.ts';

/**
 * Reconciling two rows of one person into one (`/reconcile`, when the provider identity moves to
 * the key's sovereign): everything the absorbed row holds moves to the kept row — every declared
 * holder column of every family (api/personal-data.ts), the provider link, the uniqueness receipt,
 * an email or callsign the kept row lacks — and the absorbed row is deleted. Nothing is left on an
 * orphan: the person counts once in `humans` and is one eligible ratifier. Where both rows made the
 * same act (both cosigned one proposal), the absorbed row's copy is dropped: one person, one act.
 */
export async function mergeSovereign(tx: Sql, fromId: string, toId: string): Promise<Record<string, number>> {
  const [from] = await tx.kysely
    .selectFrom('sovereigns')
    .select([
      'idp_issuer',
      'idp_subject',
      'uniqueness_verified_at',
      'email',
      'email_verified_at',
      'callsign',
      'due_token_hash',
      'last_seen_at',
    ])
    .where('id', '=', fromId)
    .forUpdate()
    .execute();
  const [to] = await tx.kysely
    .selectFrom('sovereigns')
    .select('tag')
    .where('id', '=', toId)
    .forUpdate()
    .execute();
  if (!from || !to) return {};
  const moved: Record<string, number> = {};
  for (const family of PERSONAL_DATA) {
    for (const table of family.tables) {
      if (table.holder)
        moved[table.table] = await moveRows(tx, table.table, table.holder, fromId, toId, to.tag);
    }
  }
  // The provider link first leaves the absorbed row (its unique index allows one holder).
  await tx.query(
    'update sovereigns set idp_issuer = null, idp_subject = null, due_token_hash = null where id = $1',
    [fromId],
  );
  await tx.query(
    `update sovereigns t set
        idp_issuer = coalesce(t.idp_issuer, $2), idp_subject = coalesce(t.idp_subject, $3),
        uniqueness_verified_at = greatest(t.uniqueness_verified_at, $4::timestamptz),
        email = coalesce(t.email, $5), email_verified_at = case when t.email is null then $6::timestamptz else t.email_verified_at end,
        callsign = coalesce(t.callsign, $7), due_token_hash = coalesce(t.due_token_hash, $8),
        last_seen_at = greatest(t.last_seen_at, $9::timestamptz)
      where t.id = $1`,
    [
      toId,
      from.idp_issuer,
      from.idp_subject,
      from.uniqueness_verified_at,
      from.email,
      from.email_verified_at,
      from.callsign,
      from.due_token_hash,
      from.last_seen_at,
    ],
  );
  await tx.query('delete from sovereigns where id = $1', [fromId]);
  return moved;
}

async function moveRows(
  tx: Sql,
  table: string,
  holder: Holder,
  fromId: string,
  toId: string,
  tag: string,
): Promise<number> {
  if (holder.merge) return holder.merge(tx, fromId, toId, tag);
  const mine = (alias: string, param: string) =>
    `${alias}.${holder.column}::text = ${param}${holder.kind ? ` and ${alias}.${holder.kind} = 'sovereign'` : ''}`;
  if (holder.unique) {
    const same = holder.unique.columns.map((c) => `b.${c} = a.${c}`).join(' and ');
    const where = holder.unique.where
      ? ` and ${holder.unique.where('a')} and ${holder.unique.where('b')}`
      : '';
    await tx.query(
      `delete from ${table} a where ${mine('a', '$1')} and exists (select 1 from ${table} b where ${mine('b', '$2')} and ${same}${where})`,
      [fromId, toId],
    );
  }
  const sets = [`${holder.column} = $2`];
  const params = [fromId, toId];
  if (holder.publicTag) sets.push(`${holder.publicTag} = $${params.push(tag)}`);
  if (holder.publicRef) sets.push(`${holder.publicRef} = $${params.push(`sovereign:${tag}`)}`);
  const rows = await tx.query(
    `update ${table} a set ${sets.join(', ')} where ${mine('a', '$1')} returning 1`,
    params,
  );
  return rows.length;
}
