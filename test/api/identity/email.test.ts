import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { closeMailers } from '../../../api/mail/mailer.ts';
import { at, missing } from '../../helpers/elements.ts';

/**
 * The owner's email address, confirmed through a real SMTP server the test listens with: the code
 * arrives by mail and confirms the address only for the session that asked; the address never shows
 * publicly; with mail unconfigured the door says so and stores nothing.
 */
let t: TestApp;
let smtp: SMTPServer;
const inbox: { to: string[]; raw: string }[] = [];
/** Says 'mail' on each delivery, so a test waits for the message itself, not for a span of time. */
const deliveries = new EventEmitter();

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        deliveries.emit('mail');
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  t = await createTestApp({
    config: {
      smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
      mailFrom: 'civitas <noreply@civitas.test>',
    },
  });
});
afterAll(async () => {
  closeMailers();
  await t?.close();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

const { get, post, form } = requests(() => t.app);

async function waitForMail(count: number) {
  // No deadline of our own: a delivery that never comes fails at the test's timeout, a slow one passes.
  while (inbox.length < count) await once(deliveries, 'mail');
  expect(inbox.length).toBeGreaterThanOrEqual(count);
  return PostalMime.parse(at(inbox, count - 1).raw);
}

describe('email through SMTP', () => {
  it('sends a verification message and confirms the address only with its code, signed in', async () => {
    const me = await signedInSovereign(t.app);
    const res = await post('/sovereign/email', { email: 'ada@example.org' }, me);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, status: 'verification_sent' });
    const mail = await waitForMail(1);
    expect(at(inbox, 0).to).toEqual(['ada@example.org']);
    expect(mail.subject).toContain('Confirm');
    const code = /email_token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
    expect(code).toBeTruthy();
    // Not yet the email; a wrong code changes nothing.
    let owner = (await get('/sovereign', me)).json();
    expect(owner.email).toMatchObject({ address: null, pending: 'ada@example.org', verified: false });
    const wrong = await post('/sovereign/email', { action: 'verify', token: 'nope' }, me);
    expect(wrong.statusCode).toBe(400);
    // Someone else's session cannot use the code.
    const other = await signedInSovereign(t.app);
    expect((await post('/sovereign/email', { token: code }, other)).statusCode).toBe(400);
    const ok = await post('/sovereign/email', { token: code }, me);
    expect(ok.json()).toMatchObject({ ok: true, status: 'verified' });
    owner = (await get('/sovereign', me)).json();
    expect(owner.email).toMatchObject({ address: 'ada@example.org', verified: true, pending: null });
    // The address never appears on a public surface.
    const passport = await get(`/passport?tag=${me.tag}`);
    expect(passport.body).not.toContain('ada@example.org');
    // A form post answers 303 back to the owner page.
    const removed = await form('/sovereign/email', 'action=remove', me);
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe('/sovereign?email=removed');
  });

  it('refuses a malformed address before sending anything', async () => {
    const me = await signedInSovereign(t.app);
    const before = inbox.length;
    for (const email of ['not-an-address', 'a@' + 'b'.repeat(300) + '.org']) {
      const res = await post('/sovereign/email', { email }, me);
      expect(res.statusCode).toBe(400);
      expect(res.json().issues[0].path).toBe('email');
    }
    expect(inbox.length).toBe(before);
  });

  it('with mail unconfigured, says so (503 in its own words) and stores nothing', async () => {
    const bare = await createTestApp();
    try {
      const me = await signedInSovereign(bare.app);
      const res = await requests(() => bare.app).post('/sovereign/email', { email: 'x@example.org' }, me);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ ok: false, reason: 'provider_unavailable' });
      const [row = missing()] = await bare.app.civitas.db.query<{ email_pending: string | null }>(
        'select email_pending from sovereigns where id = $1',
        [me.id],
      );
      expect(row.email_pending).toBeNull();
    } finally {
      await bare.close();
    }
  });
});
