import type { FastifyReply, FastifyRequest } from 'fastify';
import { atomFeed } from '../feeds.ts';
import ical from 'ical-generator';
import { Refusal } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { cacheControlForPersonalized } from '../../shared/security.ts';
import type { SignedIn } from '../plugins/session.ts';
import { calibrationDueItems } from '../calibration/views.ts';

export interface DueItem {
  id: string;
  title: string;
  due_at: string;
  href: string;
  detail: string;
}

/**
 * What comes due for the signed-in person, from stored state: a pending email confirmation (it
 * expires) and data requests awaiting a steward. Prophecies, pacts and confluences join this list
 * when their families store them (calibration, people).
 */
export async function dueItems(ctx: AppContext, me: SignedIn): Promise<DueItem[]> {
  const items: DueItem[] = [];
  const [row] = await ctx.db.query<{ email_pending: string | null; email_token_expires_at: string | null }>(
    'select email_pending, email_token_expires_at from sovereigns where id = $1',
    [me.sovereignId],
  );
  if (row?.email_pending && row.email_token_expires_at && new Date(row.email_token_expires_at) > ctx.clock.now()) {
    items.push({
      id: 'email-confirmation',
      title: 'Confirm your email address',
      due_at: new Date(row.email_token_expires_at).toISOString(),
      href: '/sovereign',
      detail: 'The confirmation code sent to your address expires at this time.',
    });
  }
  const requests = await ctx.db.query<{ id: string; kind: string; created_at: string }>(
    `select id, kind, created_at from data_requests where sovereign_id = $1 and status = 'pending' order by created_at`,
    [me.sovereignId],
  );
  for (const request of requests) {
    items.push({
      id: request.id,
      title: `Your ${request.kind} request awaits a steward`,
      due_at: new Date(request.created_at).toISOString(),
      href: '/settings/data',
      detail: `Data request ${request.id} was filed at this time and is pending.`,
    });
  }
  items.push(...(await calibrationDueItems(ctx, me)));
  return items.sort((a, b) => a.due_at.localeCompare(b.due_at));
}

/** `/sovereign/due.ics` and `/sovereign/due.xml`: the signed-in person's due items; private caching. */
export function dueFeed(format: 'ics' | 'atom') {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const me = request.sovereign;
    if (!me) throw new Refusal('identity_required', {}, 'The due feed is personal: sign in (the feed follows your session cookie).');
    const ctx = request.server.civitas;
    const items = await dueItems(ctx, me);
    const origin = ctx.config.origin;
    reply.header('cache-control', cacheControlForPersonalized());
    if (format === 'ics') {
      const calendar = ical({ name: `civitas — due for ${me.tag}`, prodId: { company: 'civitas', product: 'due' } });
      for (const item of items) {
        calendar.createEvent({ id: `${item.id}@civitas`, start: new Date(item.due_at), end: new Date(new Date(item.due_at).getTime() + 15 * 60_000), summary: item.title, description: item.detail, url: `${origin}${item.href}`, stamp: ctx.clock.now() });
      }
      return reply.header('content-type', 'text/calendar; charset=utf-8').send(calendar.toString());
    }
    const feed = atomFeed(ctx, {
      title: `civitas — due for ${me.tag}`,
      description: 'What comes due for you: confirmations and requests with their times.',
      id: `${origin}/sovereign/due.xml`,
      link: `${origin}/sovereign`,
      updated: items.length ? new Date(items[items.length - 1].due_at) : ctx.clock.now(),
      copyright: 'Personal feed of one sovereign',
      feedLinks: { atom: `${origin}/sovereign/due.xml` },
    });
    for (const item of items) {
      feed.addItem({ title: item.title, id: `${origin}/sovereign/due.xml#${item.id}`, link: `${origin}${item.href}`, date: new Date(item.due_at), description: item.detail });
    }
    return reply.header('content-type', 'application/atom+xml; charset=utf-8').send(feed.atom1());
  };
}
