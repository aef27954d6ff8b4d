import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../../shared/errors.ts';
import { renderCardSvg } from '../../cards/render.ts';
import { beginReceipt } from './begin-receipt.ts';
import { passport } from './views.ts';
import { count } from '../../shared/plural.ts';

/**
 * Proof cards of public projections (cards/render.ts). They are the same projections the JSON
 * and pages show — a passport card never names the holder of a colliding tag.
 */
function sendSvg(reply: FastifyReply, svg: string) {
  return reply.header('content-type', 'image/svg+xml').send(svg);
}

export async function passportCard(request: FastifyRequest, reply: FastifyReply) {
  const tag = (request.query as Record<string, unknown>)?.tag;
  const view = await passport(request.server.civitas, typeof tag === 'string' ? tag : '');
  const title = view.status === 'addressable' ? `Passport ${view.tag}` : `Tag ${view.tag}`;
  const lines =
    view.status === 'addressable'
      ? [
          view.holder?.callsign ? `Callsign: ${view.holder.callsign}` : 'Callsign not shown',
          `Crossed on ${view.holder?.joined_on}`,
          `${count(view.standing?.imprints ?? 0, 'imprint', 'imprints')} · ${count(view.standing?.receipts ?? 0, 'receipt', 'receipts')}`,
        ]
      : [view.note];
  const svg = await renderCardSvg({
    title,
    subtitle:
      view.status === 'unaddressable' ? 'Unaddressable: this tag names no one' : 'A sovereign of civitas',
    lines,
    footer: `/passport?tag=${view.tag}`,
  });
  return sendSvg(reply, svg);
}

export async function beginReceiptCard(request: FastifyRequest, reply: FastifyReply) {
  const { token } = request.params as { token: string };
  if (typeof token !== 'string') throw new Refusal('not_found');
  const view = await beginReceipt(request.server.civitas, token);
  const svg = await renderCardSvg({
    title: 'A first step, recorded',
    subtitle: `${view.receipt.step} · ${view.receipt.subject}`,
    lines: [
      `Receipt ${view.receipt.id}`,
      `Recorded ${view.receipt.recorded_at.replace('T', ' ').slice(0, 19)} UTC`,
      `Log ${view.receipt.log.date} leaf ${view.receipt.log.leaf_index}`,
    ],
    footer: 'A receipt proves a step was recorded, not that a change was applied',
  });
  return sendSvg(reply, svg);
}
