import type { FamilyDeclaration } from '../personal-data-contract.ts';

/** People: counts, and feedback relayed by federation peers (authored elsewhere, named by the peer). */
export const peoplePersonalData: FamilyDeclaration = {
  family: 'people',
  tables: [
    {
      table: 'federation_relays',
      personal: {
        author: "the author's ref on the peer service",
        body: 'words a person wrote on the peer service',
      },
      impersonal: ['id', 'peer', 'jti', 'topic', 'receipt_id'],
      notExported: 'authored on a peer, by no local sovereign',
      disposition: 'keep',
      keptWords: ['body'],
      why: 'Kept: authored by people of a federation peer, never by a local sovereign; the peer answers for them (a local erasure cannot name them).',
    },
    {
      table: 'census_snapshots',
      personal: {},
      impersonal: ['receipt_id'],
      disposition: 'keep',
      why: 'Daily counts; no person.',
    },
  ],
  async export() {
    return {};
  },
  async erase() {
    return {};
  },
};
