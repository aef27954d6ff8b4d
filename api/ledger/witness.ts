/**
 * Witnesses co-sign sealed anchors: a witness signs the anchor's C2SP checkpoint text with its own
 * Ed25519 key (a signed-note signature line under its key name). The first verified mark
 * registers (name, key); later marks under that name must use the same key.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { Refusal } from '../../shared/errors.ts';
import {
  fromBase64,
  fromBase64Url,
  isValidKeyName,
  parseNote,
  toBase64Url,
  verifyNote,
} from '../../shared/ledger/index.ts';
import type { Ed25519Jwk } from '../../shared/ledger/index.ts';
import { recordReceipt } from './receipts.ts';
import { anchorOf } from './anchors.ts';
import { dayText, isoText, logKeyName, receiptById } from './log.ts';
import { receiptView } from './projection.ts';
import { decodeCursor, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';
import { one, type Counts, type RowOf } from '../db/rows.ts';
import type { Witness, WitnessMark } from './entities.ts';
import { sql } from 'kysely';
import { constant } from '../db/kysely.ts';

export const WITNESS_COOKIE = 'civitas_witness';
const SIG_PREFIX = '\u2014 ';

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function decodeKey(text: string): Uint8Array | null {
  for (const decode of [fromBase64, fromBase64Url]) {
    try {
      const bytes = decode(text.trim());
      if (bytes.length === 32) return bytes;
    } catch {
      /* try the other alphabet */
    }
  }
  return null;
}

export interface MarkInput {
  date: string;
  witness: string;
  /** base64 (or base64url) of the 32-byte Ed25519 public key */
  public_key: string;
  /** the signature line `— <witness> <base64(key id || signature)>`, or just its base64 part */
  signature: string;
}

export async function markWitness(ctx: AppContext, input: MarkInput) {
  const issue = (path: string, message: string) =>
    new Refusal('invalid_request', { issues: [{ path, message }] });
  if (!isValidKeyName(input.witness))
    throw issue('witness', 'witness must be a key name without spaces, plus signs or control characters');
  if (input.witness === logKeyName(ctx))
    throw issue('witness', "a witness cannot use the log's own key name");
  const keyBytes = decodeKey(input.public_key);
  if (!keyBytes) throw issue('public_key', 'public_key must be the base64 of a 32-byte Ed25519 public key');
  const jwk: Ed25519Jwk = { kty: 'OKP', crv: 'Ed25519', x: toBase64Url(keyBytes) };

  const anchor = await anchorOf(ctx.db, input.date);
  if (!anchor)
    throw new Refusal(
      'not_found',
      { date: input.date },
      'That day has no sealed anchor to co-sign (yet). /verify/anchor-chain lists the sealed days.',
    );

  let b64 = input.signature.trim();
  if (b64.startsWith(SIG_PREFIX)) {
    const rest = b64.slice(SIG_PREFIX.length);
    const space = rest.indexOf(' ');
    if (space < 0 || rest.slice(0, space) !== input.witness)
      throw issue('signature', 'the signature line must carry the witness key name');
    b64 = rest.slice(space + 1);
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64))
    throw issue('signature', 'signature must be base64 (key id || Ed25519 signature)');
  const line = `${SIG_PREFIX}${input.witness} ${b64}`;
  const note = `${anchor.checkpoint}${line}\n`;
  let verified: boolean;
  try {
    parseNote(note);
    verified = (await verifyNote(note, jwk, input.witness)).ok;
  } catch {
    verified = false;
  }
  if (!verified)
    throw issue(
      'signature',
      `the signature does not verify over the checkpoint text of ${input.date} with this key and name`,
    );

  const at = ctx.clock.now();
  const result = await ctx.db.transaction(async (tx) => {
    await tx.query(
      'insert into witnesses (name, public_key, first_marked_at) values ($1, $2, $3) on conflict (name) do nothing',
      [input.witness, jwk.x, at.toISOString()],
    );
    const known = one(
      await tx.kysely
        .selectFrom('witnesses')
        .select('public_key')
        .where('name', '=', input.witness)
        .forUpdate()
        .execute(),
    );
    if (known.public_key !== jwk.x) {
      throw new Refusal(
        'conflict',
        { witness: input.witness },
        'That witness name is registered with another key. Use the registered key, or another name.',
      );
    }
    const [existing] = await tx.kysely
      .selectFrom('witness_marks')
      .select('receipt_id')
      .where('witness', '=', input.witness)
      .where('date', '=', input.date)
      .execute();
    if (existing) return { existing: existing.receipt_id };
    const receipt = await recordReceipt(tx, {
      step: 'ledger.witness_mark',
      subject: `anchor:${input.date}`,
      at,
    });
    const token = `wt_${randomBytes(32).toString('base64url')}`;
    await tx.query(
      'insert into witness_marks (witness, date, signature_line, receipt_id, token_hash, marked_at) values ($1, $2, $3, $4, $5, $6)',
      [input.witness, input.date, line, receipt.id, tokenHash(token), at.toISOString()],
    );
    return {
      ok: true as const,
      already_marked: false,
      witness: input.witness,
      date: input.date,
      signature_line: line,
      receipt_id: receipt.id,
      receipt: {
        id: receipt.id,
        step: receipt.step,
        subject: receipt.subject,
        recorded_at: receipt.recorded_at,
        leaf_hash: receipt.leaf_hash,
        log: receipt.log,
      },
      receipt_link: `/witness/receipt/${token}`,
      hint: 'Keep receipt_link: it is shown once. Opening it shows this mark and remembers you as this witness on /witness.',
    };
  });
  if (!('existing' in result)) return result;
  const existingId = (result as { existing: string }).existing;
  const row = await receiptById(ctx.db, existingId);
  return {
    ok: true as const,
    already_marked: true,
    witness: input.witness,
    date: input.date,
    signature_line: line,
    receipt_id: existingId,
    receipt: row ? await receiptView(ctx, row) : null,
    receipt_link: null,
    hint: 'This witness had already marked this anchor; the mark and its receipt are unchanged.',
  };
}

export async function witnessByToken(ctx: AppContext, token: string) {
  if (!/^wt_[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await ctx.db.kysely
    .selectFrom('witness_marks')
    .select([
      'witness',
      dayText('date').as('date'),
      'signature_line',
      'receipt_id',
      isoText('marked_at').as('marked_at'),
    ])
    .where('token_hash', '=', tokenHash(token))
    .execute();
  return row ?? null;
}

/** The registered witnesses' order: by name (their key name, unique), a page at a time. */
export const WITNESS_ORDER: KeyOrder = {
  path: '/witness',
  columns: [{ sql: 'w.name', type: 'text' }],
  order: 'asc',
};

export async function witnessView(
  ctx: AppContext,
  you: string | null,
  query: { limit: number; after?: string } = { limit: 50 },
) {
  const cursor = decodeCursor(WITNESS_ORDER, query.after);
  const key = keyClause(WITNESS_ORDER, cursor, 2);
  // Raw: a keyset page (api/paging.ts). Each witness's marks are a tally and its latest date one
  // read of the (witness, date) key (migration 0070): no count of every mark it ever made.
  const rows = await ctx.db.query<
    Pick<RowOf<typeof Witness>, 'name' | 'public_key' | 'first_marked_at'> &
      Counts<'marks'> & { latest: RowOf<typeof WitnessMark>['date'] | null }
  >(
    `select w.name, w.public_key, to_char(w.first_marked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as first_marked_at,
       coalesce(t.value, 0) as marks,
       (select to_char(max(m.date), 'YYYY-MM-DD') from witness_marks m where m.witness = w.name) as latest
     from witnesses w left join record_tallies t on t.name = 'witness_marks:' || w.name
     where ${key.where} order by ${key.orderBy} limit $1`,
    [query.limit + 1, ...key.params],
  );
  const page = pageOf(rows, query.limit, cursor, (w) => [w.name]);
  const links = { limit: query.limit };
  // Ordered by the stored instant, qualified so it is the column and not the selected text of the
  // same name: the newest 20 by the `witness_marks_marked_at` index, not a sort of every mark.
  const recent = await ctx.db.kysely
    .selectFrom('witness_marks')
    .select(['witness', dayText('date').as('date'), isoText('marked_at').as('marked_at')])
    .orderBy('witness_marks.marked_at', 'desc')
    .orderBy('witness_marks.witness')
    .limit(constant(20))
    .execute();
  const [latest] = await ctx.db.kysely
    .selectFrom('anchors')
    .select(sql<string | null>`to_char(max(date), 'YYYY-MM-DD')`.as('date'))
    .execute();
  return {
    ok: true as const,
    key_name: logKeyName(ctx),
    latest_anchor: latest?.date ?? null,
    witnesses: page.rows.map((w) => ({
      name: w.name,
      public_key: w.public_key,
      first_marked_at: w.first_marked_at,
      marks: w.marks,
      latest_date: w.latest,
    })),
    ...pageFields(WITNESS_ORDER, page, query.limit, links),
    recent_marks: recent,
    you: you ? { witness: you } : null,
    how: [
      'Fetch /verify/anchor/{date} (or /witness/feed.xml) and verify the anchor and its checkpoint with the log key from /agents.json.',
      'Sign the checkpoint note text (the lines before the blank line) as a C2SP signed note with your Ed25519 key under your key name.',
      'POST /api/witness/mark with JSON {date, witness: your key name, public_key: base64 of your 32-byte public key, signature: your signature line}.',
      'Your first verified mark registers your name with your key; later marks must use the same key.',
    ],
  };
}
