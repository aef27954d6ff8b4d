import { Migration } from '@mikro-orm/migrations';

/**
 * Imprints released from quarantine when their handle was attested (api/agents/quarantine-release.ts):
 * one row per released imprint, naming the release's receipt, so the release is recorded rather
 * than the imprint's history rewritten. SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0031QuarantineReleases extends Migration {
  override name = 'Migration0031QuarantineReleases';

  override up(): void {
    this.addSql(`create table quarantine_releases (
      sequence bigint primary key,
      handle text not null,
      released_at timestamptz not null,
      receipt_id text not null
    )`);
  }
}
