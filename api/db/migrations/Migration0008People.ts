import { Migration } from '@mikro-orm/migrations';

/**
 * People: daily census snapshots (one row per UTC day, taken by the census job that exactly one
 * process runs) and the signed feedback federation peers relay. SQL that PostgreSQL 15 and PGlite
 * both run.
 */
export class Migration0008People extends Migration {
  override name = 'Migration0008People';

  override up(): void {
    // The census of a day counts everything recorded before the end of that UTC day.
    this.addSql(`create table census_snapshots (
      date date primary key,
      humans integer not null,
      agents integer not null,
      imprints_lifetime bigint not null,
      imprints_retained integer not null,
      receipts bigint not null,
      taken_at timestamptz not null,
      receipt_id text not null
    )`);
    // Feedback a configured peer relayed with a verified Ed25519 JWS. `author` is the remote
    // author's public ref as the peer gave it (never a raw id of ours); (peer, jti) refuses replays.
    this.addSql(`create table federation_relays (
      id text primary key,
      peer text not null,
      jti text not null,
      topic text not null,
      body text not null,
      author text,
      issued_at timestamptz not null,
      received_at timestamptz not null,
      receipt_id text not null,
      unique (peer, jti)
    )`);
    this.addSql(`create index federation_relays_peer on federation_relays (peer, received_at)`);
  }
}
