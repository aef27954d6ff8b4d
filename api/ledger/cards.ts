import { renderCardSvg } from '../../cards/render.ts';
import { receiptLeafHash, subjectDigest, toHex } from '../../shared/ledger/index.ts';
import type { ReceiptView } from './projection.ts';

function short(hash: string): string {
  return `${hash.slice(0, 16)}…${hash.slice(-8)}`;
}

/** The proof card of a receipt: the receipt projection, nothing else (it is public and not personalized). */
export function receiptCard(view: ReceiptView, sealed: boolean): Promise<string> {
  return renderCardSvg({
    title: `Receipt: ${view.step}`,
    subtitle: view.subject_redacted
      ? 'subject redacted (erased); the receipt still verifies'
      : `subject ${view.subject}`,
    lines: [
      view.id,
      `recorded ${view.recorded_at}`,
      `leaf ${short(view.leaf_hash)}`,
      view.log
        ? `leaf ${view.log.leaf_index} of ${view.log.date}, ${sealed ? 'sealed in a signed anchor' : 'day still open'}`
        : 'not in the log',
    ],
    footer: `Recorded, not applied: verify at /verify/${view.id}`,
  });
}

/**
 * The fixture card of a release (/receipt/sov{release}-fixture/card.svg): a receipt of fixed,
 * known content rendered by the same template, for docs and card-rendering tests. Deterministic:
 * the same release always gives the same SVG.
 */
export async function fixtureReceiptCard(release: string): Promise<string> {
  const id = 'rcpt_00000000000000000000000000';
  const subject = `release:${release}`;
  const subject_salt = '00'.repeat(16);
  const subject_digest = await subjectDigest(subject, subject_salt);
  const recorded_at = '2026-01-01T00:00:00.000Z';
  const step = 'fixture.release';
  const leaf_hash = toHex(await receiptLeafHash({ id, step, subject_digest, recorded_at }));
  const view: ReceiptView = {
    id,
    step,
    subject,
    subject_salt,
    subject_digest,
    subject_redacted: false,
    recorded_at,
    leaf_hash,
    log: { date: '2026-01-01', leaf_index: 0 },
    change_status: null,
    meaning: 'fixture',
    links: { page: '', verify: '', inclusion: '', anchor: '', card: '', feed: '', ledger: '' },
  };
  return renderCardSvg({
    title: `Fixture receipt · sov${release}`,
    subtitle: `subject ${view.subject} (a fixture: not in the log)`,
    lines: [
      view.id,
      `recorded ${view.recorded_at}`,
      `leaf ${short(view.leaf_hash)}`,
      'leaf 0 of 2026-01-01, fixture',
    ],
    footer: 'Fixture card for docs and tests: content is fixed per release',
  });
}
