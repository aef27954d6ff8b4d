import { Migration } from '@mikro-orm/migrations';

/**
 * The log's tree interior, kept as leaves are appended (docs/ledger.md, "Tiles"): `log_tiles` holds
 * C2SP-style tiles of 256 hashes per tile level (full tiles never change; the partial right edge
 * grows by appending), `log_days.frontier` the compact range of the day's tree (one hash per set
 * bit of its size, highest first). Both are written by the statement after the one that claims the
 * leaves, under the day's row lock. A day logged before this migration has no frontier (null)
 * until the `ledger.tile` job has built its tiles from its leaves.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0060LogTiles extends Migration {
  override name = 'Migration0060LogTiles';

  override up(): void {
    this.addSql(`alter table log_days add column frontier bytea`);
    this.addSql(`create table log_tiles (
      date date not null references log_days(date),
      level smallint not null,
      idx bigint not null,
      hashes bytea not null,
      primary key (date, level, idx)
    )`);
  }
}
