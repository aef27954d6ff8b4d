import { Migration } from '@mikro-orm/migrations';
import { SYNC } from './Migration0076Ascensions.ts';

/**
 * A new handle's first imprint without a second write of its agent row (issue 20: imprint writes
 * beside pgbench at 8 connections). The agent door now inserts a new handle public when the gate
 * lets its first imprint through (api/agents/agent-imprint.ts); the imprints' trigger made it
 * public afterwards, in the same transaction, which wrote the row again and ran every trigger on
 * agents a second time (on the 1,000,000-imprint Record, PostgreSQL's own function times: 0.97 ms
 * of a batch's 1.6 ms in triggers). The trigger still makes public an agent whose held imprint is
 * released, or whose later imprint passes.
 * - `agents` counted public agents only when that trigger made one public (migration 0032): an
 *   insert of a public agent is now counted too (`agents_tally_in`).
 * - The ascensions' trigger on agents (migration 0076) ran its statement for every insert and
 *   update, matching no row unless an agent is, or was, public at level continuous or attested:
 *   it now asks that first.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0089LeanArrivals extends Migration {
  override name = 'Migration0089LeanArrivals';

  override up(): void {
    this.addSql(`create function record_tally_agents_in() returns trigger language plpgsql as $$
      declare delta bigint;
      begin
        select count(*) into delta from new_rows where public;
        if delta <> 0 then update record_tallies set value = value + delta where name = 'agents'; end if;
        return null;
      end $$`);
    this.addSql(
      `create trigger agents_tally_in after insert on agents referencing new table as new_rows for each statement execute function record_tally_agents_in()`,
    );
    const ascended = (rows: string) =>
      `exists (select 1 from ${rows} where public and level in ('continuous', 'attested'))`;
    this.addSql(`create or replace function agent_ascension_agents() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          if ${ascended('new_rows')} then
            ${SYNC(`select handle from new_rows where public and level in ('continuous', 'attested')`)}
          end if;
        elsif ${ascended('new_rows')} or ${ascended('old_rows')} then
          ${SYNC(`select handle, level, public, attested_at from new_rows
                  except select handle, level, public, attested_at from old_rows`)}
        end if;
        return null;
      end $$`);
  }
}
