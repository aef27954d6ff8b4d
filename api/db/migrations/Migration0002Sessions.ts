import { Migration } from '@mikro-orm/migrations';

/** Human sign-in sessions: only the SHA-256 of the cookie value is stored. */
export class Migration0002Sessions extends Migration {
  override name = 'Migration0002Sessions';

  override up(): void {
    this.addSql(`create table sessions (
      id_hash text primary key,
      sovereign_id uuid not null references sovereigns(id) on delete cascade,
      created_at timestamptz not null,
      last_used_at timestamptz not null,
      expires_at timestamptz not null,
      revoked_at timestamptz
    )`);
    this.addSql(`create index sessions_sovereign on sessions (sovereign_id)`);
    // A valid external human-uniqueness receipt (or configuration) grants governance:write.
    this.addSql(`alter table sovereigns add column uniqueness_verified_at timestamptz`);
  }
}
