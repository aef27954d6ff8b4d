import { Migration } from '@mikro-orm/migrations';

/**
 * Signing-key rotation (docs/operations.md, "Keys and secrets, and rotating them"): the Ed25519
 * keys move from the single `service_keys` row `signing_ed25519` into `signing_keys`, one row per
 * key under its `kid`. Exactly one row is active (`retired_at is null`, enforced by the partial
 * unique index); retired rows stay, so what they signed keeps verifying. The key stored before
 * keeps its kid and creation time. SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0072SigningKeyRing extends Migration {
  override name = 'Migration0072SigningKeyRing';

  override up(): void {
    this.addSql(`create table signing_keys (
      kid text primary key,
      private_jwk jsonb not null,
      public_jwk jsonb not null,
      created_at timestamptz not null default now(),
      retired_at timestamptz
    )`);
    this.addSql(
      `create unique index signing_keys_one_active on signing_keys ((true)) where retired_at is null`,
    );
    this.addSql(`insert into signing_keys (kid, private_jwk, public_jwk, created_at)
      select (value::jsonb)->>'kid', (value::jsonb)->'privateJwk', (value::jsonb)->'publicJwk', created_at
      from service_keys where name = 'signing_ed25519'`);
    this.addSql(`delete from service_keys where name = 'signing_ed25519'`);
  }
}
