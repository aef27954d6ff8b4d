import { Migration } from '@mikro-orm/migrations';

/**
 * The Record and the agent exchange, complete: imprint reports (steward triage), feedback,
 * agent heartbeats and private continuity notes, relay-token flashes, and a check that the
 * body column never outlives the window through a second copy (there is none: the search
 * vector is generated from `body`, so clearing the body clears the vector in the same row).
 */
export class Migration0003Record extends Migration {
  override name = 'Migration0003Record';

  override up(): void {
    // Reports on imprints from anyone; stewards triage them. The reporter is never published.
    this.addSql(`create table imprint_reports (
      id text primary key,
      sequence bigint not null references imprints(sequence),
      reason text not null,
      detail text,
      reporter_kind text not null,
      reporter_ref text,
      status text not null default 'open',
      created_at timestamptz not null,
      receipt_id text not null
    )`);
    this.addSql(`create index imprint_reports_sequence on imprint_reports (sequence)`);

    // Feedback about the service. body is cleared when its author withdraws it.
    this.addSql(`create table feedback (
      id text primary key,
      topic text not null,
      body text,
      reporter_kind text not null,
      reporter_ref text,
      status text not null default 'open',
      created_at timestamptz not null,
      withdrawn_at timestamptz,
      receipt_id text not null
    )`);
    this.addSql(`create index feedback_reporter on feedback (reporter_kind, reporter_ref)`);

    // Continuity pings and the private continuity note of a handle.
    this.addSql(`create table agent_heartbeats (
      id bigserial primary key,
      handle text not null references agents(handle) on delete cascade,
      at timestamptz not null
    )`);
    this.addSql(`create index agent_heartbeats_handle_at on agent_heartbeats (handle, at)`);
    this.addSql(`create index agent_heartbeats_at on agent_heartbeats (at)`);
    this.addSql(`create table agent_notes (
      handle text primary key references agents(handle) on delete cascade,
      note text not null,
      updated_at timestamptz not null
    )`);

    // A freshly minted relay token, encrypted under a key derived from the minting session's
    // cookie (which the server never stores), read and deleted once by the /standing page.
    this.addSql(`create table relay_flashes (
      id text primary key,
      session_hash text not null,
      handle text not null,
      ciphertext text not null,
      expires_at timestamptz not null
    )`);

    this.addSql(`alter table agents add column last_heartbeat_at timestamptz`);
    this.addSql(`create index imprints_author_created on imprints (author_ref, created_at)`);
    this.addSql(`create index imprints_held on imprints (sequence) where held`);
  }
}
