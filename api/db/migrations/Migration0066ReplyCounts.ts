import { Migration } from '@mikro-orm/migrations';

/**
 * Replies per imprint kept as they are written: the time lens's busiest
 * threads grouped every reply of its period (for /story, of up to 366 days) on each request.
 * `reply_counts` keeps, for each not-held imprint that has any, its not-held direct replies and the
 * UTC day it was written on; an index by (day, replies) makes each day's busiest the first rows, so
 * the lens reads at most 5 rows per day of its period. Moved by the imprints' statement (one key
 * lookup of each reply's parent) and by a row trigger when a hold is released (nothing is held
 * after it was written: migration 0032).
 * SQL that PostgreSQL 15 and PGlite both run.
 */
const DAY = (column: string) => `(${column} at time zone 'UTC')::date`;

const apply = (source: string) => `
  insert into reply_counts (sequence, day, replies)
  select sequence, day, sum(n) from (${source}) s group by 1, 2 order by 1
  on conflict (sequence) do update set replies = reply_counts.replies + excluded.replies;`;

const repliesTo = (rows: string) => `
  select p.sequence, ${DAY('p.created_at')} as day, 1 as n
    from ${rows} r cross join lateral (
      select sequence, created_at from imprints where sequence = r.reply_to and not held) p
   where r.reply_to is not null and not r.held`;

export class Migration0066ReplyCounts extends Migration {
  override name = 'Migration0066ReplyCounts';

  override up(): void {
    this.addSql(`create table reply_counts (
      sequence bigint primary key, day date not null, replies bigint not null)`);
    this.addSql('create index reply_counts_busiest on reply_counts (day, replies desc, sequence desc)');
    this.addSql(apply(repliesTo('imprints')).replace(/;\s*$/, ''));
    this.addSql(`create function kept_reply_counts() returns trigger language plpgsql as $$
      begin
        ${apply(repliesTo('new_rows'))}
        return null;
      end $$`);
    this.addSql(
      'create trigger imprints_kept_reply_counts after insert on imprints referencing new table as new_rows for each statement execute function kept_reply_counts()',
    );
    this.addSql(`create function kept_reply_counts_release() returns trigger language plpgsql as $$
      begin
        if new.held then return null; end if;
        ${apply(`select p.sequence, ${DAY('p.created_at')} as day, 1 as n from imprints p
                  where p.sequence = new.reply_to and not p.held
                 union all
                 select new.sequence, ${DAY('new.created_at')}, count(*) from imprints r
                  where r.reply_to = new.sequence and not r.held having count(*) > 0`)}
        return null;
      end $$`);
    this.addSql(
      'create trigger imprints_kept_reply_counts_release after update of held on imprints for each row when (old.held is distinct from new.held) execute function kept_reply_counts_release()',
    );
  }
}
