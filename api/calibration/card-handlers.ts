/**
 * Calibration's cards (SVG): the scores, the prophecies, the almanac, and one card per claim (a
 * prophecy or a pact), open or answered. Bound by key in api/calibration/routes.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineRoute } from '../route.ts';
import { renderCardSvg } from '../../cards/render.ts';
import { Refusal } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { prophecyById, PROPHECY_ID } from './prophecies.ts';
import { ANSWERED_BY, pactById, PACT_ID } from './pacts.ts';
import { almanacView, calibrationView, prophecyView } from './views.ts';
import { count } from '../../shared/plural.ts';

function sendSvg(reply: FastifyReply, svg: string) {
  return reply.header('content-type', 'image/svg+xml').send(svg);
}

const fmt = (n: number | null, places = 3) => (n === null ? '—' : n.toFixed(places));
const day = (iso: string) => iso.slice(0, 10);

async function claimOf(ctx: AppContext, id: string) {
  if (PROPHECY_ID.test(id)) {
    const p = await prophecyById(ctx.db, id);
    return p ? ({ kind: 'prophecy', view: p } as const) : null;
  }
  if (PACT_ID.test(id)) {
    const p = await pactById(ctx.db, id, ctx.clock.now());
    return p ? ({ kind: 'pact', view: p } as const) : null;
  }
  return null;
}

async function claimCard(request: FastifyRequest, reply: FastifyReply, answered: boolean) {
  const { id } = request.params as { id: string };
  const ctx = request.server.civitas;
  const claim = await claimOf(ctx, String(id ?? ''));
  if (!claim)
    throw new Refusal(
      'not_found',
      {},
      'No prophecy (pro_…) or pact (pact_…) is recorded under that id. See /almanac.',
    );
  if (claim.kind === 'prophecy') {
    const p = claim.view;
    if (answered && p.status !== 'resolved')
      throw new Refusal(
        'not_found',
        {},
        'This prophecy is not answered yet; it resolves at its due time. Its open card is /almanac/claim/{id}/card.svg.',
      );
    const svg = await renderCardSvg(
      answered
        ? {
            title: p.outcome ? 'It came true' : 'It did not come true',
            subtitle: p.statement,
            lines: [
              `Said at ${Math.round(p.probability * 100)}% by ${p.forecaster.display}`,
              `Observed ${p.observed} at ${day(p.due_at)}`,
            ],
            footer: `/prophecy · receipt ${p.resolution_receipt_id}`,
          }
        : {
            title: `${Math.round(p.probability * 100)}%: ${p.statement}`,
            subtitle: `A prophecy by ${p.forecaster.display}`,
            lines: [
              `Due ${p.due_at.replace('T', ' ').slice(0, 16)} UTC`,
              p.status === 'open'
                ? 'Open: resolved automatically when due'
                : `Resolved: ${p.outcome ? 'came true' : 'did not come true'}`,
            ],
            footer: '/prophecy',
          },
    );
    return sendSvg(reply, svg);
  }
  const p = claim.view;
  if (answered && (p.status === 'open' || p.status === 'awaiting_author'))
    throw new Refusal(
      'not_found',
      {},
      'This pact is not answered yet; its author (or a steward for them) answers it once it is due, else it lapses as broken after the grace period.',
    );
  const svg = await renderCardSvg(
    answered
      ? {
          title: p.status === 'kept' ? 'Pact kept' : 'Pact broken',
          subtitle: p.title,
          lines: [
            `By ${p.author.display}, stake ${count(p.stake, 'point', 'points')}`,
            `Answered by ${ANSWERED_BY[p.answered_by ?? 'author']}`,
            `Stakes settled: ${count(p.stakes.paid_out ?? 0, 'point', 'points')} paid out`,
          ],
          footer: `/almanac · receipt ${p.resolution_receipt_id ?? p.receipt_id}`,
        }
      : {
          title: p.title,
          subtitle: `A pact by ${p.author.display}`,
          lines: [
            `Due ${day(p.due_at)} · stake ${count(p.stake, 'point', 'points')}`,
            `Staked: ${p.stakes.kept} on kept, ${p.stakes.broken} on broken`,
          ],
          footer: '/almanac',
        },
  );
  return sendSvg(reply, svg);
}

export const cardHandlers = [
  defineRoute('GET /calibration/card.svg', {
    async handler(request, reply) {
      const view = await calibrationView(request.server.civitas);
      const svg = await renderCardSvg({
        title: `Brier ${fmt(view.overall.brier_score)} over ${count(view.overall.count, 'prophecy', 'prophecies')}`,
        subtitle: 'Calibration of predictions about civitas itself (not outside accuracy)',
        lines: [
          `The service: Brier ${fmt(view.by_forecaster.service.brier_score)} (${view.by_forecaster.service.count})`,
          `Sovereigns: Brier ${fmt(view.by_forecaster.sovereigns.brier_score)} (${view.by_forecaster.sovereigns.count})`,
          `Log score ${fmt(view.overall.log_score)} · ${view.open} open`,
        ],
        footer: '/calibration',
      });
      return sendSvg(reply, svg);
    },
  }),
  defineRoute('GET /prophecy/card.svg', {
    async handler(request, reply) {
      const view = await prophecyView(request.server.civitas, 500);
      const trueCount = view.resolved.filter((p) => p.outcome).length;
      const svg = await renderCardSvg({
        title: `${view.open.length} open · ${view.resolved.length} resolved`,
        subtitle: 'Prophecies about civitas itself',
        lines: [
          `${trueCount} came true, ${view.resolved.length - trueCount} did not`,
          view.open[0] ? `Next due: ${view.open[0].statement}` : 'Nothing is due',
        ],
        footer: '/prophecy',
      });
      return sendSvg(reply, svg);
    },
  }),
  defineRoute('GET /almanac/card.svg', {
    async handler(request, reply) {
      const view = await almanacView(request.server.civitas, 50);
      const svg = await renderCardSvg({
        title: `Almanac ${view.season.name}`,
        subtitle: `${count(view.due.length, 'prophecy or pact', 'prophecies and pacts')} coming due`,
        lines: view.due.slice(0, 3).map((d) => `${day(d.due_at)} · ${d.title}`.slice(0, 80)),
        footer: '/almanac',
      });
      return sendSvg(reply, svg);
    },
  }),
  defineRoute('GET /almanac/claim/{id}/card.svg', {
    handler: (request, reply) => claimCard(request, reply, false),
  }),
  defineRoute('GET /almanac/claim/{id}/answered.svg', {
    handler: (request, reply) => claimCard(request, reply, true),
  }),
];
