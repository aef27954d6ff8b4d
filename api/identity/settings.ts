/**
 * Owner settings: callsign visibility and the email address (requested, verified, removed).
 */
import { randomBytes } from 'node:crypto';
import { Refusal } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { matchesHash, sha256Hex } from '../agents/credentials.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { mailerFor } from '../mail/mailer.ts';
import type { SignedIn } from '../plugins/session.ts';
import { providerOff } from '../plugins/errors.ts';
import { EMAIL_TOKEN_LIFETIME_MS } from './service.ts';
import { one } from '../db/rows.ts';

export async function setCallsignVisibility(
  ctx: AppContext,
  signedIn: SignedIn,
  visible: boolean,
  callsign?: string | null,
) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    if (callsign !== undefined) {
      await tx.query('update sovereigns set callsign = $2, callsign_visible = $3 where id = $1', [
        signedIn.sovereignId,
        callsign,
        visible && callsign !== null,
      ]);
    } else {
      await tx.query('update sovereigns set callsign_visible = $2 and callsign is not null where id = $1', [
        signedIn.sovereignId,
        visible,
      ]);
    }
    const row = one(
      await tx.kysely
        .selectFrom('sovereigns')
        .select(['callsign', 'callsign_visible'])
        .where('id', '=', signedIn.sovereignId)
        .execute(),
    );
    const receipt = await recordReceipt(tx, {
      step: 'identity.callsign_visibility',
      subject: `sovereign:${signedIn.tag}`,
      at: now,
    });
    return {
      ok: true as const,
      callsign: row.callsign,
      callsign_visible: row.callsign_visible,
      receipt_id: receipt.id,
    };
  });
}

/**
 * Sets the email to verify: stored as pending with a one-time token (SHA-256 kept) and a message
 * sent through SMTP. The address becomes the email only when its token comes back signed in.
 */
export async function requestEmail(ctx: AppContext, signedIn: SignedIn, email: string) {
  const mailer = mailerFor(ctx.config);
  if (!mailer) {
    throw providerOff(
      new Refusal(
        'provider_unavailable',
        {},
        'Mail is not configured in this environment, so an address cannot be verified here.',
      ),
    );
  }
  const token = randomBytes(24).toString('base64url');
  const now = ctx.clock.now();
  const link = `${ctx.config.origin}/sovereign?email_token=${token}`;
  // Send first: if the mail server refuses, nothing is stored and no receipt is recorded.
  await mailer.send({
    to: email,
    subject: 'Confirm your email for civitas',
    text: [
      'Someone (we hope you) asked civitas to send due reminders and receipts to this address.',
      '',
      `To confirm, open this link while signed in and press "Confirm": ${link}`,
      `Or paste this code on your owner page: ${token}`,
      '',
      'The link works for 24 hours. If this was not you, ignore this message: nothing changes.',
    ].join('\n'),
  });
  return ctx.db.transaction(async (tx) => {
    await tx.query(
      'update sovereigns set email_pending = $2, email_token_hash = $3, email_token_expires_at = $4 where id = $1',
      [
        signedIn.sovereignId,
        email,
        sha256Hex(token),
        new Date(now.getTime() + EMAIL_TOKEN_LIFETIME_MS).toISOString(),
      ],
    );
    const receipt = await recordReceipt(tx, {
      step: 'identity.email_requested',
      subject: `sovereign:${signedIn.tag}`,
      at: now,
    });
    return { ok: true as const, status: 'verification_sent' as const, receipt_id: receipt.id };
  });
}

export async function verifyEmail(ctx: AppContext, signedIn: SignedIn, token: string) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.kysely
      .selectFrom('sovereigns')
      .select(['email_pending', 'email_token_hash', 'email_token_expires_at'])
      .where('id', '=', signedIn.sovereignId)
      .forUpdate()
      .execute();
    const valid =
      row?.email_pending &&
      matchesHash(token, row.email_token_hash) &&
      row.email_token_expires_at &&
      new Date(row.email_token_expires_at) > now;
    if (!valid) {
      throw new Refusal('invalid_request', {
        issues: [
          {
            path: 'token',
            message: 'That confirmation code is not valid (or has expired). Ask for a new message.',
          },
        ],
      });
    }
    await tx.query(
      `update sovereigns set email = email_pending, email_verified_at = $2, email_pending = null, email_token_hash = null, email_token_expires_at = null
        where id = $1`,
      [signedIn.sovereignId, now.toISOString()],
    );
    const receipt = await recordReceipt(tx, {
      step: 'identity.email_verified',
      subject: `sovereign:${signedIn.tag}`,
      at: now,
    });
    return { ok: true as const, status: 'verified' as const, receipt_id: receipt.id };
  });
}

export async function removeEmail(ctx: AppContext, signedIn: SignedIn) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    await tx.query(
      `update sovereigns set email = null, email_verified_at = null, email_pending = null, email_token_hash = null, email_token_expires_at = null
        where id = $1`,
      [signedIn.sovereignId],
    );
    const receipt = await recordReceipt(tx, {
      step: 'identity.email_removed',
      subject: `sovereign:${signedIn.tag}`,
      at: now,
    });
    return { ok: true as const, status: 'removed' as const, receipt_id: receipt.id };
  });
}
