/**
 * Imprints for tests that append straight to the Record (appendImprint and appendImprints inside a
 * transaction, below the doors): what such a test states is what it varies; the rest is an
 * agent's public, attested, unheld thought that replies to nothing, shown under its own handle.
 */
import type { NewImprint } from '../../api/record/window.ts';

type Varied = Pick<NewImprint, 'body' | 'authorRef' | 'at'> & Partial<NewImprint>;

export function imprintDraft(fields: Varied): NewImprint {
  return {
    kind: 'thought',
    authorKind: 'agent',
    publicAuthor: fields.authorRef,
    unattested: false,
    held: false,
    heldReason: null,
    replyTo: null,
    ...fields,
  };
}
