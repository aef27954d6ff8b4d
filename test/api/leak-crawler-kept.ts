/**
 * The leak crawler's private values that no door hands out as such (leak-crawler-seed.ts seeds the
 * rest): hashes of secrets and keys the store keeps, private notes, denials, a steward's note on a
 * data request, a pending email token, an identity-provider subject (each through the store, where
 * its table exists), and a steward's private triage notes and a reporter's words through
 * POST /sovereign/triage and /imprint/report.
 */
import { randomBytes } from 'node:crypto';
import { recordReceipt } from '../../api/ledger/receipts.ts';
import type { TestApp } from '../helpers/app.ts';
import type { TestSovereign } from '../helpers/identity.ts';
import { requests } from '../helpers/http.ts';
import { sovereignWithId } from './steward/helpers.ts';
import { missing } from '../helpers/elements.ts';

/** What the seeding so far hands on: the app, how to keep a secret, and whom and what it made. */
export interface Seeding {
  t: TestApp;
  /** Keeps a value the crawl must never find. */
  keep: (what: string, value: string | null | undefined) => void;
  /** Runs a seeding statement that needs a table another family may not have migrated yet. */
  optional: (what: string, work: () => Promise<unknown>) => Promise<void>;
  seeded: string[];
  mark: (what: string) => string;
  owner: TestSovereign;
  second: TestSovereign;
  agentHandle: string;
  receiptId: string;
  sequence: number;
  /** The steward configuration names by raw id; signed in here. */
  stewardId: string;
}

export async function seedKeptPrivately(s: Seeding): Promise<void> {
  const { t, keep, optional, seeded, mark, owner, second, agentHandle, receiptId, sequence } = s;
  const db = t.database.db;
  const { post } = requests(() => t.app);
  // Private values the store keeps: hashes of secrets and keys, private notes, denials, data requests.
  for (const row of await db.query<{ secret_hash: string }>('select secret_hash from agents'))
    keep('agent secret hash', row.secret_hash);
  for (const row of await db.query<{ key_hash: string | null }>('select key_hash from sovereigns'))
    keep('sovereign key hash', row.key_hash);
  for (const row of await db.query<{ id_hash: string }>('select id_hash from sessions'))
    keep('session id hash', row.id_hash);
  await optional('agent private note', () =>
    db.query('insert into agent_notes (handle, note, updated_at) values ($1, $2, now())', [
      agentHandle,
      mark('agent-note'),
    ]),
  );
  keep('agent private note', mark('agent-note'));
  await optional('denial with crossing actor', () =>
    db.transaction(async (tx) => {
      const receipt = await recordReceipt(tx, {
        step: 'identity.denied',
        subject: 'crossing:denied',
        at: t.clock.now(),
      });
      await tx.query(
        'insert into denials (receipt_id, denied_action, reason, actor_kind, actor_ref, actor_public, recorded_at) values ($1, $2, $3, $4, $5, $6, now())',
        [receipt.id, 'cross', 'rate', 'sovereign', second.id, mark('denied-public')],
      );
    }),
  );
  keep('denied actor public form', mark('denied-public'));
  await optional('steward note on a data request', () =>
    db.query(
      "insert into data_requests (id, sovereign_id, kind, status, created_at, processed_at, processed_by, note, receipt_id) values ($1, $2, 'export', 'completed', now(), now(), $3, $4, $5)",
      [
        `dr_${randomBytes(4).toString('hex')}`,
        second.id,
        mark('steward-id'),
        mark('steward-note'),
        receiptId,
      ],
    ),
  );
  keep('steward note', mark('steward-note'));
  keep('steward id', mark('steward-id'));
  await optional('pending email token', () =>
    db.query('update sovereigns set email_pending = $2, email_token_hash = $3 where id = $1', [
      owner.id,
      `${mark('email-pending')}@example.invalid`,
      mark('email-token-hash'),
    ]),
  );
  keep('pending email', mark('email-pending'));
  keep('email token hash', mark('email-token-hash'));
  await optional('identity-provider subject', () =>
    db.query('update sovereigns set idp_issuer = $2, idp_subject = $3 where id = $1', [
      second.id,
      'https://idp.example',
      mark('idp-subject'),
    ]),
  );
  keep('identity-provider subject', mark('idp-subject'));
  // Steward triage through POST /sovereign/triage: private notes (whispers) and a reporter's words.
  const steward = await sovereignWithId(t, s.stewardId);
  keep('steward raw sovereign id', steward.id);
  keep('steward session cookie value', steward.cookie.split('=')[1]);
  const [heldRow = missing()] = await db.query<{ sequence: string | number }>(
    'select sequence from imprints where held order by sequence desc limit 1',
  );
  const kept = await post(
    '/sovereign/triage',
    { target: `imprint:${heldRow.sequence}`, action: 'keep_held', note: mark('triage-note') },
    steward,
  );
  keep('triage steward note', mark('triage-note'));
  const report = await post('/imprint/report', { sequence, reason: 'other', detail: mark('report-detail') });
  keep('report detail', mark('report-detail'));
  const dismissed =
    report.statusCode === 200
      ? await post(
          '/sovereign/triage',
          { target: report.json().report_id, action: 'dismiss', note: mark('dismiss-note') },
          steward,
        )
      : null;
  keep('dismiss steward note', mark('dismiss-note'));
  if (kept.statusCode === 200 && dismissed?.statusCode === 200)
    seeded.push('whisper steward notes: triage keep_held and dismiss with notes (API)');
  else
    seeded.push(
      `whisper steward notes: triage answered ${kept.statusCode}/${dismissed?.statusCode ?? report.statusCode}, not seeded`,
    );
}
