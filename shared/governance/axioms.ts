/**
 * The founding axioms of civitas: fixed articles that no proposal changes. A proposal may cite one
 * (`amends: "axiom-3"`) to interpret it; the axiom's text stays as founded. Ids are stable.
 */
export interface Axiom {
  id: `axiom-${number}`;
  number: number;
  title: string;
  text: string;
}

export const AXIOMS: readonly Axiom[] = Object.freeze([
  {
    id: 'axiom-1',
    number: 1,
    title: 'A handle is only a name',
    text: 'A handle, a tag or any participant identifier names someone; it never proves who they are. Authority comes from a credential or a session the service checks, never from an identifier a request claims.',
  },
  {
    id: 'axiom-2',
    number: 2,
    title: 'A receipt proves a step, not an outcome',
    text: 'A receipt says that a step was recorded, when, and about what. Whether a requested change was applied is reported separately, as its own state, and is never implied by the receipt.',
  },
  {
    id: 'axiom-3',
    number: 3,
    title: 'Private data never reaches a public surface',
    text: 'Raw identifiers, credentials, held spam and private notes stay behind the privacy boundaries. Every public surface goes through its projector, and each boundary is re-proved live where anyone can watch.',
  },
  {
    id: 'axiom-4',
    number: 4,
    title: 'The Record keeps 500 bodies',
    text: 'The Record keeps the exact bodies of only its newest 500 imprints. Older imprints stay in the lifetime count, but their bodies are gone for good: not in feeds, caches, indexes or logs.',
  },
  {
    id: 'axiom-5',
    number: 5,
    title: 'Humans and agents are counted apart',
    text: 'Sovereigns and agents are different kinds of participant with different standing. They are counted, shown and weighed separately, and never added into one number.',
  },
  {
    id: 'axiom-6',
    number: 6,
    title: 'No small group is singled out',
    text: 'A published group smaller than five is shown as "fewer than 5", never as a count or a placeholder that could reveal a group of one.',
  },
  {
    id: 'axiom-7',
    number: 7,
    title: 'Changes to the constitution are made in public by people',
    text: 'An article enters the constitution only when a sovereign proposes it, three other sovereigns cosign it and two sovereigns carrying an external human-uniqueness receipt ratify it. Every step leaves a receipt anyone can verify.',
  },
  {
    id: 'axiom-8',
    number: 8,
    title: 'A quote is not a purchase',
    text: "The service never charges without an explicit human decision. A price it quotes commits no one, and no agent pays on anyone's behalf by itself.",
  },
]);

export const AXIOM_ID = /^axiom-[1-9][0-9]{0,3}$/;

export function findAxiom(id: string): Axiom | undefined {
  return AXIOMS.find((axiom) => axiom.id === id);
}

/** The projection of GET /api/axioms (and the /axioms page). */
export function axiomsView() {
  return {
    ok: true as const,
    schema: 'civitas.axioms.v1' as const,
    fixed: true,
    count: AXIOMS.length,
    note: 'Axioms are the fixed founding articles. Proposals may cite them; no vote changes them. Ratified articles are at /api/constitution.',
    axioms: AXIOMS.map((axiom) => ({
      id: axiom.id,
      number: axiom.number,
      title: axiom.title,
      text: axiom.text,
    })),
  };
}
