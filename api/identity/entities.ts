/**
 * The identity family's tables as entities: the typed description of what its migrations build.
 * Checked against the migrated schema by test/api/db/entities-drift.test.ts.
 */
import { defineEntity, p } from '@mikro-orm/core';

/** A human. The raw id never leaves the server; the public face is the 4-hex tag. */
export const Sovereign = defineEntity({
  name: 'Sovereign',
  tableName: 'sovereigns',
  properties: {
    id: p.uuid().primary(),
    tag: p.character().length(4),
    callsign: p.text().nullable(),
    callsignVisible: p.boolean().default(false),
    keyHash: p.text().nullable(),
    email: p.text().nullable(),
    emailVerifiedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    lastSeenAt: p.datetime().nullable(),
    uniquenessVerifiedAt: p.datetime().nullable(),
    idpIssuer: p.text().nullable(),
    idpSubject: p.text().nullable(),
    emailPending: p.text().nullable(),
    emailTokenHash: p.text().nullable(),
    emailTokenExpiresAt: p.datetime().nullable(),
    dueTokenHash: p.text().nullable(),
    erasedAt: p.datetime().nullable(),
  },
});

/** A signed-in session, stored only as the hash of its cookie value. */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    idHash: p.text().primary(),
    sovereignId: p.uuid(),
    createdAt: p.datetime(),
    lastUsedAt: p.datetime(),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
  },
});

/** An identity-provider sign-in in flight (state stored as a hash), until it returns or expires. */
export const OidcLogin = defineEntity({
  name: 'OidcLogin',
  tableName: 'oidc_logins',
  properties: {
    stateHash: p.text().primary(),
    codeVerifier: p.text(),
    nonce: p.text(),
    returnTo: p.text(),
    linkSovereignId: p.uuid().nullable(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
  },
});

/** A person's export or erasure request, pending until a steward processes it. */
export const DataRequest = defineEntity({
  name: 'DataRequest',
  tableName: 'data_requests',
  properties: {
    id: p.text().primary(),
    sovereignId: p.uuid(),
    kind: p.enum(['export', 'erasure']),
    status: p.enum(['pending', 'completed', 'declined', 'withdrawn']).default('pending'),
    createdAt: p.datetime(),
    processedAt: p.datetime().nullable(),
    processedBy: p.text().nullable(),
    note: p.text().nullable(),
    receiptId: p.text(),
  },
});

/** A failed form's error and values, kept for one read on the page it returns to. */
export const FormFlash = defineEntity({
  name: 'FormFlash',
  tableName: 'form_flashes',
  properties: {
    id: p.text().primary(),
    payload: p.json<unknown>(),
    expiresAt: p.datetime(),
  },
});
