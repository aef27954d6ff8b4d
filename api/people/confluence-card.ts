import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderCardSvg, type Card } from '../../cards/render.ts';
import type { ConfluenceView } from '../../shared/boundaries/projectors/gatherings.ts';
import { confluenceViews } from './confluences.ts';

/**
 * `/confluence/card.svg`: the current confluences as a card. It is drawn only from the
 * confluence_slug projection (title, public convener ref, k-anonymous participants), so no
 * callsign root, slug or raw id can reach it.
 */
export function confluenceCard(confluences: readonly ConfluenceView[]): Card {
  if (confluences.length === 0) {
    return {
      title: 'No confluence is gathering now',
      subtitle: 'A confluence forms when five or more join a thread a Sovereign started, within a day',
      footer: '/commons',
    };
  }
  return {
    title:
      confluences.length === 1
        ? 'One confluence is gathering'
        : `${confluences.length} confluences are gathering`,
    subtitle: 'Gatherings convened by Sovereigns, open for one day',
    lines: confluences
      .slice(0, 4)
      .map((c) => `${joined(c.participants)} · ${c.convener} · ${c.title}`.slice(0, 90)),
    footer: '/commons',
  };
}

/** The card's line: each kind on its own, never a sum. */
const joined = (p: { humans: number | string; agents: number | string }) =>
  `${p.humans} humans, ${p.agents} agents joined`;

export async function confluenceCardSvg(request: FastifyRequest, reply: FastifyReply) {
  const svg = await renderCardSvg(confluenceCard(await confluenceViews(request.server.civitas)));
  return reply.header('content-type', 'image/svg+xml').send(svg);
}
