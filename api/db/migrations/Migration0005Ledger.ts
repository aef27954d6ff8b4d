import { Migration } from '@mikro-orm/migrations';

/**
 * The transparency log made real: salted subject commitments on receipts (so erasure can redact a
 * subject without breaking proofs), signed daily anchors, witnesses and their cosignatures, and
 * denial receipts. SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0005Ledger extends Migration {
  override name = 'Migration0005Ledger';

  override up(): void {
    // A receipt's leaf commits to subject_digest = SHA-256(subject_salt || subject); erasure deletes
    // subject and salt (subject_redacted_at set), the digest and the leaf stay.
    this.addSql(`alter table receipts add column subject_salt text`);
    this.addSql(`alter table receipts add column subject_digest text`);
    this.addSql(`alter table receipts add column subject_redacted_at timestamptz`);
    this.addSql(`alter table receipts alter column subject drop not null`);
    // Receipts written before this migration: give them a salt and digest and re-derive their
    // leaf in the new definition (their days are not sealed: there were no anchors before).
    this.addSql(
      `update receipts set subject_salt = md5(random()::text || clock_timestamp()::text || id) where subject_salt is null`,
    );
    this.addSql(
      `update receipts set subject_digest = encode(sha256(decode(subject_salt, 'hex') || convert_to(subject, 'UTF8')), 'hex') where subject_digest is null`,
    );
    this.addSql(`update receipts set leaf_hash = encode(sha256('\\x00'::bytea || convert_to(
        '{"id":' || to_json(id)::text
        || ',"recorded_at":' || to_json(to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text
        || ',"step":' || to_json(step)::text
        || ',"subject_digest":"' || subject_digest || '"}', 'UTF8')), 'hex')`);
    this.addSql(`alter table receipts alter column subject_digest set not null`);
    this.addSql(`create index receipts_subject on receipts (subject)`);
    this.addSql(`create index receipts_step on receipts (step)`);

    // One signed anchor per sealed UTC day, chained by previous_anchor_hash (genesis: 64 zeros).
    this.addSql(`create table anchors (
      date date primary key references log_days(date),
      tree_size integer not null,
      root_hash text not null,
      previous_anchor_hash text not null,
      anchor_hash text not null unique,
      key_id text not null,
      signature text not null,
      checkpoint text not null,
      sealed_at timestamptz not null
    )`);

    // Witnesses: a key name and its Ed25519 public key, registered by their first verified mark.
    this.addSql(`create table witnesses (
      name text primary key,
      public_key text not null,
      first_marked_at timestamptz not null
    )`);
    this.addSql(`create table witness_marks (
      witness text not null references witnesses(name),
      date date not null references anchors(date),
      signature_line text not null,
      receipt_id text not null,
      token_hash text not null unique,
      marked_at timestamptz not null,
      primary key (witness, date)
    )`);

    // Denials that must leave a trace: the receipt is public (subject never an actor id); who was
    // denied stays here, for stewards only.
    this.addSql(`create table denials (
      receipt_id text primary key references receipts(id),
      denied_action text not null,
      reason text not null,
      actor_kind text,
      actor_ref text,
      actor_public text,
      recorded_at timestamptz not null
    )`);
    this.addSql(`create index denials_reason on denials (reason)`);
  }
}
