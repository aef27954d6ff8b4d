import type { FastifyReply, FastifyRequest } from 'fastify';
import { atomFeed } from '../feeds.ts';
import ical from 'ical-generator';
import { Refusal } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import type { SignedIn } from '../plugins/session.ts';
import { calibrationDueItems } from '../calibration/views.ts';
import { confluenceDueItems } from '../people/confluences.ts';
import { DataRequest, Sovereign } from './entities.ts';
import { feedReader } from './feed-token.ts';
import type { DueItem } from '../../shared/due.ts';

export type { DueItem };

/**
 * What comes due for the signed-in person, from stored state: a pending email confirmation (it
 * expires), data requests awaiting a steward, prophecies and pacts (calibration) and the current
 * confluences they convened or joined, closing when their day ends (people).
 */
export async function dueItems(ctx: AppContext, me: SignedIn): Promise<DueItem[]> {
  const items: DueItem[] = [];
  const em = ctx.db.em();
  const person = await em.findOne(Sovereign, me.sovereignId, {
    fields: ['emailPending', 'emailTokenExpiresAt'],
  });
  const expires = person?.emailTokenExpiresAt;
  if (person?.emailPending && expires && expires > ctx.clock.now()) {
    items.push({
      id: 'email-confirmation',
      title: 'Confirm your email address',
      due_at: expires.toISOString(),
      href: '/sovereign',
      detail: 'The confirmation code sent to your address expires at this time.',
    });
  }
  const requests = await em.find(
    DataRequest,
    { sovereignId: me.sovereignId, status: 'pending' },
    { orderBy: { createdAt: 'asc' } },
  );
  for (const request of requests) {
    items.push({
      id: request.id,
      title: `Your ${request.kind} request awaits a steward`,
      due_at: request.createdAt.toISOString(),
      href: '/settings/data',
      detail: `Data request ${request.id} was filed at this time and is pending.`,
    });
  }
  items.push(...(await calibrationDueItems(ctx, me)), ...(await confluenceDueItems(ctx, me.sovereignId)));
  return items.sort((a, b) => a.due_at.localeCompare(b.due_at));
}

/**
 * Whose due feed this request reads: a `token` in the URL decides when present (a calendar app
 * sends no cookie, and a subscription URL must mean the same thing whoever opens it); otherwise
 * the session.
 */
async function dueReader(request: FastifyRequest): Promise<SignedIn> {
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  if (token !== undefined) return feedReader(request.server.civitas, typeof token === 'string' ? token : '');
  if (request.sovereign) return request.sovereign;
  throw new Refusal(
    'identity_required',
    {},
    'The due feed is personal: sign in (the feed follows your session cookie), or subscribe with the private address made on /sovereign.',
  );
}

/** `/sovereign/due.ics` and `/sovereign/due.xml`: one sovereign's due items; private caching. */
export function dueFeed(format: 'ics' | 'atom') {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const me = await dueReader(request);
    const ctx = request.server.civitas;
    const items = await dueItems(ctx, me);
    const origin = ctx.config.origin;
    if (format === 'ics') {
      const calendar = ical({
        name: `civitas — due for ${me.tag}`,
        prodId: { company: 'civitas', product: 'due' },
      });
      for (const item of items) {
        calendar.createEvent({
          id: `${item.id}@civitas`,
          start: new Date(item.due_at),
          end: new Date(new Date(item.due_at).getTime() + 15 * 60_000),
          summary: item.title,
          description: item.detail,
          url: `${origin}${item.href}`,
          stamp: ctx.clock.now(),
        });
      }
      return reply.header('content-type', 'text/calendar; charset=utf-8').send(calendar.toString());
    }
    const feed = atomFeed(ctx, {
      title: `civitas — due for ${me.tag}`,
      description: 'What comes due for you: confirmations and requests with their times.',
      id: `${origin}/sovereign/due.xml`,
      link: `${origin}/sovereign`,
      updated: new Date(items.at(-1)?.due_at ?? ctx.clock.now()),
      copyright: 'Personal feed of one sovereign',
      feedLinks: { atom: `${origin}/sovereign/due.xml` },
    });
    for (const item of items) {
      feed.addItem({
        title: item.title,
        id: `${origin}/sovereign/due.xml#${item.id}`,
        link: `${origin}${item.href}`,
        date: new Date(item.due_at),
        description: item.detail,
      });
    }
    return reply.header('content-type', 'application/atom+xml; charset=utf-8').send(feed.atom1());
  };
}
