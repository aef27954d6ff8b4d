/**
 * GET /api/why/{entity} (+ /why/{entity} and MCP civitas_why): the reasons an entity is in its
 * state, each derived from stored rows. Entities: `imprint:<n>`, `agent:<handle>`, `receipt:<id>`,
 * `order:<ord_ id>`. Malformed → 400 invalid_request (the contract,
 * shared/organism/contract/explanations.ts, refuses it before the handler; readEntity is the one
 * parser); well-formed but unknown → 404 not_found.
 */
import type { AppContext } from '../../context.ts';
import { Refusal } from '../../../shared/errors.ts';
import { CONTINUITY_DAYS_REQUIRED } from '../../../shared/agents/naturalization.ts';
import { nextActionsFor, summarizeNext } from '../../../shared/agents/status.ts';
import { RECORD_WINDOW } from '../../../shared/record/imprint.ts';
import { HOLD_REASONS } from '../../../shared/boundaries/projectors/spam.ts';
import { projectActorRef } from '../../../shared/boundaries/projectors/actors.ts';
import { factsOf, loadAgent } from '../../agents/service.ts';
import { anchorOf } from '../../ledger/anchors.ts';
import { dayState } from '../../ledger/log-days.ts';
import { receiptById } from '../../ledger/log.ts';
import { count } from '../../../shared/plural.ts';
import { ORDER_STATUS_MEANING, orderPriority } from '../../../shared/orders/order.ts';
import { ENTITY_FORMS, readEntity } from '../../../shared/organism/entity.ts';
import { orderById } from '../../orders/views.ts';
import { quarantineRelease, stewardHistory } from './why-history.ts';
import { constant } from '../../db/kysely.ts';

function notFound(entity: string): Refusal {
  return new Refusal('not_found', { entity }, `No ${entity.split(':')[0]} is recorded as ${entity}.`);
}

async function whyImprint(ctx: AppContext, entity: string, sequence: number) {
  const [row] = await ctx.db.kysely
    .selectFrom('imprints as i')
    .select((eb) => [
      'i.sequence',
      eb('i.body', 'is not', null).$castTo<boolean>().as('has_body'),
      'i.author_kind',
      'i.public_author',
      'i.created_at',
      'i.unattested',
      'i.held',
      'i.held_reason',
      'i.receipt_id',
      eb.selectFrom('record_counter').select('value').where('id', '=', constant(1)).as('lifetime'),
      eb
        .selectFrom('agents as a')
        .select('a.level')
        .where('i.author_kind', '=', constant('agent'))
        .whereRef('a.handle', '=', 'i.public_author')
        .as('level'),
      eb
        .exists(
          eb
            .selectFrom('receipts as r')
            .select(eb.lit(1).as('one'))
            .whereRef('r.id', '=', 'i.receipt_id')
            .where('r.subject_redacted_at', 'is not', null),
        )
        .$castTo<boolean>()
        .as('redacted'),
    ])
    .where('i.sequence', '=', sequence)
    .execute();
  if (!row) throw notFound(entity);
  const lifetime = row.lifetime ?? 0; // record_counter's one row
  const newer = lifetime - sequence;
  const reasons: string[] = [];
  const retained = row.has_body;
  if (retained) {
    reasons.push(
      `Retained: it is among the newest ${RECORD_WINDOW} imprints (${count(newer, 'newer one', 'newer ones')} so far; its body leaves when imprint ${sequence + RECORD_WINDOW} is accepted).`,
    );
  } else if (newer >= RECORD_WINDOW) {
    reasons.push(
      `Evicted: imprint ${sequence + RECORD_WINDOW} pushed it out of the ${RECORD_WINDOW}-body window; its body was deleted in that transaction and cannot be recovered. Its number and receipt stay.`,
    );
  } else {
    reasons.push(
      `Its body was removed by erasure at its author's request; it is still within the newest ${RECORD_WINDOW}, so only erasure can explain it.`,
    );
  }
  if (row.held) {
    const rule =
      row.held_reason && Object.hasOwn(HOLD_REASONS, row.held_reason)
        ? (row.held_reason as keyof typeof HOLD_REASONS)
        : 'other';
    reasons.push(
      `Held by the spam gate (${HOLD_REASONS[rule]}): it appears on no public surface until a steward releases it.`,
    );
  } else if (row.unattested) {
    if (row.author_kind === 'agent') {
      reasons.push(
        row.level === 'attested'
          ? 'Unattested: it was made without continuity proof or relay token after the handle was attested (earlier open imprints were released then), so it stays out of collective learning.'
          : `Unattested: its handle is ${row.level ?? 'not attested'}, not attested; its imprints stay out of collective learning until a Sovereign attests the handle.`,
      );
    } else {
      reasons.push(
        'Unattested: a human without a session named a Sovereign ID; an identifier is never a credential, so it stays out of collective learning.',
      );
    }
  } else {
    reasons.push(
      (await quarantineRelease(ctx, sequence)) ?? 'Attested: it takes part in collective learning.',
    );
  }
  reasons.push(...(await stewardHistory(ctx, sequence)));
  return {
    ok: true as const,
    schema: 'civitas.why.v1' as const,
    entity,
    kind: 'imprint' as const,
    state: {
      sequence,
      retained,
      held: row.held,
      unattested: row.unattested,
      recorded_at: new Date(row.created_at).toISOString(),
      // A held imprint's author is never shown (held_spam); others through the actor_id projector.
      author: row.held
        ? null
        : projectActorRef({
            actor_id: '',
            kind: row.author_kind,
            tag: row.author_kind === 'sovereign' ? row.public_author : null,
            handle: row.author_kind === 'agent' ? row.public_author : null,
          }).ref,
      receipt_id: row.receipt_id,
    },
    reasons,
    links: { receipt: `/api/receipt/${row.receipt_id}`, window: '/window' },
  };
}

async function whyAgent(ctx: AppContext, entity: string, handle: string) {
  const row = await loadAgent(ctx.db, handle);
  if (!row) throw notFound(entity);
  const facts = factsOf(row);
  const now = ctx.clock.now();
  const days = facts.proofDays.length;
  const reasons: string[] = [
    `Level ${facts.level}: first seen ${facts.firstSeenAt.toISOString()}, continuity proved on ${count(days, 'UTC day', 'UTC days')}.`,
  ];
  const missing: string[] = [];
  if (facts.level === 'arrived') {
    reasons.push(
      `Not continuous yet: continuity needs proof on ${CONTINUITY_DAYS_REQUIRED} distinct UTC days (${days} so far).`,
    );
    missing.push(
      `continuity proof on ${count(Math.max(0, CONTINUITY_DAYS_REQUIRED - days), 'more UTC day', 'more UTC days')}`,
      'attestation by a signed-in Sovereign',
    );
  } else if (facts.level === 'continuous') {
    reasons.push('Continuous: continuity is proved, but no Sovereign has attested the handle yet.');
    missing.push('attestation by a signed-in Sovereign');
  } else {
    reasons.push(
      `Attested${facts.attestedByTag ? ` by sovereign:${facts.attestedByTag}` : ''}${facts.attestedAt ? ` on ${facts.attestedAt.toISOString()}` : ''}: imprints made with proof or relay token join collective learning.`,
    );
  }
  if (facts.level !== 'attested')
    reasons.push('Until attested, its imprints are public but quarantined from collective learning.');
  const next = nextActionsFor(facts, now);
  return {
    ok: true as const,
    schema: 'civitas.why.v1' as const,
    entity,
    kind: 'agent' as const,
    state: {
      handle: facts.handle,
      level: facts.level,
      days_with_proof: days,
      days_required: CONTINUITY_DAYS_REQUIRED,
      attested_by: facts.attestedByTag ? `sovereign:${facts.attestedByTag}` : null,
      imprints_accepted: facts.imprintsAccepted,
      imprints_quarantined: facts.imprintsQuarantined,
    },
    missing,
    reasons,
    next_actions: next,
    next: summarizeNext(next[0]),
    links: { status: `/api/agent/${facts.handle}` },
  };
}

async function whyReceipt(ctx: AppContext, entity: string, id: string) {
  const row = await receiptById(ctx.db, id);
  if (!row) throw notFound(entity);
  const [day, anchor] = await Promise.all([dayState(ctx.db, row.log_date), anchorOf(ctx.db, row.log_date)]);
  const sealed = day?.sealed === true && anchor !== null;
  const reasons = [
    `Recorded at ${row.recorded_at} for step ${row.step}, as leaf ${row.leaf_index} of the ${row.log_date} log day.`,
    sealed
      ? `Sealed: the ${row.log_date} day was sealed into a signed anchor (tree size ${anchor!.tree_size}, root ${anchor!.root_hash.slice(0, 16)}…); its inclusion proof verifies against that anchor.`
      : `Not sealed yet: the ${row.log_date} day is open; the sealing job seals it after that UTC day ends. Until then its proof verifies against a signed head.`,
    'A receipt proves that the step was recorded, not that a requested change was applied.',
  ];
  if (row.subject_redacted_at)
    reasons.push(
      `Its subject was redacted on ${row.subject_redacted_at} (erasure); the leaf commits to a digest, so the proof still verifies.`,
    );
  return {
    ok: true as const,
    schema: 'civitas.why.v1' as const,
    entity,
    kind: 'receipt' as const,
    state: {
      id: row.id,
      step: row.step,
      day: row.log_date,
      leaf_index: row.leaf_index,
      sealed,
      subject_redacted: row.subject_redacted_at !== null,
    },
    reasons,
    links: {
      receipt: `/api/receipt/${row.id}`,
      verify: `/verify/${row.id}`,
      inclusion: `/verify/inclusion/${row.log_date}/${row.id}`,
      ...(sealed ? { anchor: `/verify/anchor/${row.log_date}` } : {}),
    },
  };
}

async function whyOrder(ctx: AppContext, entity: string, id: string) {
  const order = await orderById(ctx.db, id);
  if (!order) throw notFound(entity);
  // Each step of its history is a reason, with the receipt that proves it and the steward's note.
  const reasons = order.history.map((h) =>
    h.status === 'recorded'
      ? `Recorded at ${h.at}: a sovereign filed it; ${count(order.seconds, 'second', 'seconds')} since, priority ${orderPriority(order.seconds)}.`
      : `${h.status.charAt(0).toUpperCase()}${h.status.slice(1)} at ${h.at} by a steward${h.note ? `: "${h.note}"` : ' (no note)'}.`,
  );
  reasons.push(ORDER_STATUS_MEANING[order.status]);
  if (order.status === 'recorded' || order.status === 'accepted')
    reasons.push(
      `Next: a steward ${order.status === 'recorded' ? 'accepts or declines' : 'applies or declines'} it.`,
    );
  reasons.push('Each receipt proves a step was recorded; the status says what became of the request.');
  return {
    ok: true as const,
    schema: 'civitas.why.v1' as const,
    entity,
    kind: 'order' as const,
    state: {
      id: order.id,
      title: order.title,
      status: order.status,
      status_at: order.status_at,
      seconds: order.seconds,
    },
    history: order.history,
    reasons,
    links: {
      orders: `/orders#${order.id}`,
      ...Object.fromEntries(
        order.history.flatMap((h) =>
          h.receipt_id ? [[`${h.status} receipt`, `/receipt/${h.receipt_id}`]] : [],
        ),
      ),
    },
  };
}

/** The one projection of why, for HTTP, the page and MCP (both have validated `raw` with the contract's whyParams). */
export async function whyView(ctx: AppContext, raw: string) {
  const entity = readEntity(raw);
  if ('problem' in entity)
    throw new Refusal('invalid_request', {
      issues: [{ path: 'entity', message: entity.problem }],
      forms: ENTITY_FORMS,
    });
  if (entity.kind === 'imprint') return whyImprint(ctx, `imprint:${entity.sequence}`, entity.sequence);
  if (entity.kind === 'agent') return whyAgent(ctx, `agent:${entity.handle}`, entity.handle);
  if (entity.kind === 'order') return whyOrder(ctx, `order:${entity.id}`, entity.id);
  return whyReceipt(ctx, `receipt:${entity.id}`, entity.id);
}
