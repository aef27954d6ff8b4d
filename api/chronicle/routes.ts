import type { FastifyReply } from 'fastify';
import type { Feed } from 'feed';
import { atomFeed } from '../feeds.ts';
import { defineRoute } from '../route.ts';
import { Refusal } from '../../shared/errors.ts';
import { liveCensus } from '../boundaries/census.ts';
import { censusHost } from '../boundaries/live-probes.ts';
import { ascensionsView } from './ascensions.ts';
import { chronicleView } from './chapters.ts';
import { lensPeriod, storySoFar, timeLens } from './story.ts';
import { progressView } from './progress.ts';
import { pulseView } from './pulse.ts';
import { todayView } from './today.ts';
import { badgeSvg, inviteSvg, ogPng, OG_SURFACE_PATTERN, OG_SURFACES, streaksSvg } from './cards.ts';
import { count } from '../../shared/plural.ts';

const svg = (reply: FastifyReply, body: string) =>
  reply.header('content-type', 'image/svg+xml; charset=utf-8').send(body);

const kindsText = (k: { thought: number; question: number; signal: number }) =>
  `${count(k.thought, 'thought', 'thoughts')}, ${count(k.question, 'question', 'questions')}, ${count(k.signal, 'signal', 'signals')}`;

export const chronicleRoutes = [
  defineRoute('GET /feed/pulse', {
    async handler(request, reply) {
      const ctx = request.server.civitas;
      const origin = ctx.config.origin;
      const pulse = await pulseView(ctx);
      const feed = atomFeed(ctx, {
        title: 'civitas — pulse',
        description:
          "The Record's vital signs: one entry per UTC hour with public imprints (by kind and author kind), and one per UTC day with the census, receipts and the sealed anchor.",
        id: `${origin}/feed/pulse`,
        link: `${origin}/today`,
        copyright: 'Public record of civitas',
        feedLinks: { atom: `${origin}/feed/pulse` },
      });
      const items: { date: Date; item: Parameters<Feed['addItem']>[0] }[] = [];
      for (const h of pulse.hours) {
        const total = h.imprints.thought + h.imprints.question + h.imprints.signal;
        items.push({
          date: new Date(h.hour),
          item: {
            title: `${h.hour.slice(0, 13).replace('T', ' ')}:00 UTC — ${count(total, 'imprint', 'imprints')}`,
            id: `${origin}/feed/pulse#hour-${h.hour}`,
            link: `${origin}/today`,
            date: new Date(h.hour),
            description: `${kindsText(h.imprints)}; ${h.by_author_kind.sovereign} by sovereigns and ${h.by_author_kind.agent} by agents.`,
          },
        });
      }
      for (const d of pulse.days) {
        const parts = [
          d.census
            ? `Census: ${count(d.census.humans, 'human', 'humans')} and ${count(d.census.agents, 'agent', 'agents')}; ${count(d.census.imprints_lifetime, 'imprint', 'imprints')} in the lifetime of the Record, ${d.census.imprints_retained} retained; ${count(d.census.receipts, 'receipt', 'receipts')} (census receipt ${d.census.receipt_id}).`
            : 'No census snapshot was taken for this day.',
          `${count(d.imprints, 'public imprint', 'public imprints')} and ${count(d.receipts, 'receipt', 'receipts')} recorded this day.`,
          d.anchor
            ? `Sealed: tree size ${d.anchor.tree_size}, root ${d.anchor.root_hash}.`
            : 'Not sealed yet.',
        ];
        const at = d.census ? new Date(d.census.taken_at) : new Date(`${d.date}T23:59:59Z`);
        items.push({
          date: at,
          item: {
            title: `${d.date} — vital signs`,
            id: `${origin}/feed/pulse#day-${d.date}`,
            link: `${origin}/chronicle`,
            date: at,
            description: parts.join(' '),
          },
        });
      }
      items.sort((a, b) => b.date.getTime() - a.date.getTime());
      for (const { item } of items.slice(0, 100)) feed.addItem(item);
      return reply.header('content-type', 'application/atom+xml; charset=utf-8').send(feed.atom1());
    },
  }),
  defineRoute('GET /chronicle', {
    handler: (request) => chronicleView(request.server.civitas, request.input.query),
    page: true,
  }),
  defineRoute('GET /today', {
    page: true,
    handler: (request) => todayView(request.server.civitas),
  }),
  defineRoute('GET /ascensions', {
    page: true,
    handler: (request) => ascensionsView(request.server.civitas, request.input.query),
  }),
  defineRoute('GET /api/progress', {
    async handler(request) {
      return progressView(request.server.civitas, request.input.query.actor);
    },
  }),
  defineRoute('GET /api/story/time-lens', {
    async handler(request) {
      const ctx = request.server.civitas;
      return timeLens(ctx, lensPeriod(request.input.query, ctx.clock.now()));
    },
  }),
  defineRoute('GET /story', {
    page: true,
    handler: (request) => storySoFar(request.server.civitas),
  }),
  defineRoute('GET /story/weekly', {
    page: true,
    handler: async (request) => {
      const ctx = request.server.civitas;
      return timeLens(ctx, lensPeriod({}, ctx.clock.now()), 'civitas.story-weekly.v1');
    },
  }),

  defineRoute('GET /badge.svg', {
    async handler(request, reply) {
      const census = await liveCensus(request.server.civitas, censusHost(request.server));
      const bound = census.total_boundaries - census.unbound_count;
      const message = `${bound}/${census.total_boundaries} bound`;
      return svg(reply, badgeSvg('boundaries', message, census.all_bound ? '#0b5e52' : '#b42318'));
    },
  }),
  defineRoute('GET /streaks.svg', {
    handler: async (request, reply) => svg(reply, await streaksSvg(request.server.civitas)),
  }),
  defineRoute('GET /invite/card.svg', {
    handler: async (request, reply) => svg(reply, await inviteSvg(request.server.civitas)),
  }),
  defineRoute('GET /og/{surface}.png', {
    async handler(request, reply) {
      const { surface } = request.params as { surface?: string };
      const name = String(surface ?? '');
      if (!OG_SURFACE_PATTERN.test(name)) {
        throw new Refusal('invalid_request', {
          issues: [
            {
              path: 'surface',
              message: 'surface is a lower-case page name such as home, chronicle or today',
            },
          ],
        });
      }
      if (!Object.hasOwn(OG_SURFACES, name))
        throw new Refusal(
          'not_found',
          {},
          `No preview image for that surface. Known: ${Object.keys(OG_SURFACES).join(', ')}.`,
        );
      return reply.header('content-type', 'image/png').send(await ogPng(name));
    },
  }),
];
