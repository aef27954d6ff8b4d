import { Migration } from '@mikro-orm/migrations';

/**
 * Identity: provider links, email verification, due-feed tokens, erasure marks, OpenID Connect
 * login attempts (state, nonce, PKCE verifier kept server-side) and personal data requests.
 */
export class Migration0004Identity extends Migration {
  override name = 'Migration0004Identity';

  override up(): void {
    this.addSql(`alter table sovereigns add column idp_issuer text`);
    this.addSql(`alter table sovereigns add column idp_subject text`);
    this.addSql(
      `create unique index sovereigns_idp on sovereigns (idp_issuer, idp_subject) where idp_subject is not null`,
    );
    this.addSql(`alter table sovereigns add column email_pending text`);
    this.addSql(`alter table sovereigns add column email_token_hash text`);
    this.addSql(`alter table sovereigns add column email_token_expires_at timestamptz`);
    this.addSql(`alter table sovereigns add column due_token_hash text`);
    this.addSql(
      `create unique index sovereigns_due_token on sovereigns (due_token_hash) where due_token_hash is not null`,
    );
    this.addSql(`alter table sovereigns add column erased_at timestamptz`);

    // One row per login attempt at the provider; looked up by the SHA-256 of `state`, used once.
    this.addSql(`create table oidc_logins (
      state_hash text primary key,
      code_verifier text not null,
      nonce text not null,
      return_to text not null,
      link_sovereign_id uuid references sovereigns(id) on delete cascade,
      created_at timestamptz not null,
      expires_at timestamptz not null
    )`);

    this.addSql(`create table data_requests (
      id text primary key,
      sovereign_id uuid not null references sovereigns(id) on delete cascade,
      kind text not null check (kind in ('export', 'erasure')),
      status text not null default 'pending' check (status in ('pending', 'completed', 'declined')),
      created_at timestamptz not null,
      processed_at timestamptz,
      processed_by text,
      note text,
      receipt_id text not null
    )`);
    this.addSql(`create index data_requests_sovereign on data_requests (sovereign_id, created_at)`);
    this.addSql(`create index data_requests_pending on data_requests (created_at) where status = 'pending'`);
    this.addSql(
      `create unique index data_requests_one_open on data_requests (sovereign_id, kind) where status = 'pending'`,
    );
  }
}
