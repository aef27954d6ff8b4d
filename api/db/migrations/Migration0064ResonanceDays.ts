import { Migration } from '@mikro-orm/migrations';

/**
 * Resonance kept as replies are written: /api/resonance and the cohort
 * amplification joined every reply of the window to the imprint it answered on each request.
 * `resonance_days` keeps, per UTC day of the reply and per author answered, the replies that count
 * (both sides neither held nor unattested, replier and author not the same ref), so a request reads
 * the window's days of rows. Erased sovereigns are left out when read (their imprints' author_ref
 * is rewritten, and an erased sovereign is never shown).
 * - A reply written: one key lookup of its parent, in the writer's statement.
 * - A hold released or a quarantine released (one row each, `held` or `unattested` changed): the
 *   imprint's reply to its parent and the replies it received move by the difference. A quarantine
 *   release concerns one agent's imprints, whose replies to each other are self-replies, so no pair
 *   has both of its sides changed by one statement.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
const DAY = (column: string) => `(${column} at time zone 'UTC')::date`;

const apply = (source: string) => `
  insert into resonance_days (day, author_kind, author_ref, replies)
  select day, author_kind, author_ref, sum(n) from (${source}) s group by 1, 2, 3 having sum(n) <> 0 order by 1, 2, 3
  on conflict (day, author_kind, author_ref) do update set replies = resonance_days.replies + excluded.replies;`;

/** Counting replies among `rows` (one each, sign `sign`) to a parent that counts. */
const counted = (rows: string, sign: string) => `
  select ${DAY('n.created_at')} as day, o.author_kind, o.author_ref, ${sign} as n
    from ${rows} n cross join lateral (
      select p.author_kind, p.author_ref from imprints p
       where p.sequence = n.reply_to and not p.held and not p.unattested) o
   where n.reply_to is not null and not n.held and not n.unattested and n.author_ref <> o.author_ref`;

export class Migration0064ResonanceDays extends Migration {
  override name = 'Migration0064ResonanceDays';

  override up(): void {
    this.addSql(`create table resonance_days (
      day date not null, author_kind text not null, author_ref text not null, replies bigint not null,
      primary key (day, author_kind, author_ref))`);
    this.addSql('create index resonance_days_author on resonance_days (author_ref, day)');
    this.addSql(apply(counted('imprints', '1')).replace(/;\s*$/, ''));

    this.addSql(`create function kept_resonance() returns trigger language plpgsql as $$
      begin
        ${apply(counted('new_rows', '1'))}
        return null;
      end $$`);
    this.addSql(
      'create trigger imprints_kept_resonance after insert on imprints referencing new table as new_rows for each statement execute function kept_resonance()',
    );
    // One imprint's standing changed: d is +1 when it now counts and did not, −1 the other way.
    this.addSql(`create function kept_resonance_change() returns trigger language plpgsql as $$
      declare d int := (not new.held and not new.unattested)::int - (not old.held and not old.unattested)::int;
      begin
        if d = 0 then return null; end if;
        ${apply(`select ${DAY('new.created_at')} as day, o.author_kind, o.author_ref, d as n
                   from imprints o where o.sequence = new.reply_to and not o.held and not o.unattested and o.author_ref <> new.author_ref
                 union all
                 select ${DAY('r.created_at')}, new.author_kind, new.author_ref, d
                   from imprints r where r.reply_to = new.sequence and not r.held and not r.unattested and r.author_ref <> new.author_ref`)}
        return null;
      end $$`);
    this
      .addSql(`create trigger imprints_kept_resonance_change after update of held, unattested on imprints for each row
      when (old.held is distinct from new.held or old.unattested is distinct from new.unattested)
      execute function kept_resonance_change()`);
  }
}
