/**
 * The form sweep's cases (test/e2e/forms.test.ts): every form of the site where a person types,
 * filled as a person would, with exactly one field the server refuses (or, signed out, a door that
 * needs a sign-in). Values are set through the DOM so client-side limits (maxlength, pattern) do
 * not stop the post: the server's refusal is what is under test.
 */
export interface FormCase {
  /** The page the form lives on. */
  path: string;
  /** The form's action (the first form on the page posting there). */
  action: string;
  /** Who sends it. */
  as: 'anonymous' | 'sovereign' | 'steward';
  /** Every typed field, bad one included: name → value (a radio or select picks that value). */
  fill: Record<string, string>;
  /** The field the server refuses; absent when the refusal names no field (a sign-in is needed). */
  bad?: string;
}

const long = (n: number) => 'Plain words that go on. '.repeat(Math.ceil(n / 24)).slice(0, n - 1) + '.';

export const FORM_CASES: FormCase[] = [
  {
    path: '/constitution',
    action: '/api/constitution/propose',
    as: 'sovereign',
    fill: { title: 'Minutes in plain words', text: long(1_500), amends: 'axiom 3' },
    bad: 'amends',
  },
  {
    path: '/constitution',
    action: '/api/constitution/propose',
    as: 'sovereign',
    fill: { title: long(121), text: 'A long motion. '.repeat(40).trim(), amends: 'axiom-2' },
    bad: 'title',
  },
  {
    path: '/orders',
    action: '/sovereign/order',
    as: 'sovereign',
    fill: { title: long(121), detail: 'Receipts are bright at night.' },
    bad: 'title',
  },
  {
    path: '/orders',
    action: '/sovereign/order',
    as: 'anonymous',
    fill: { title: 'A quieter receipt page', detail: 'Less glare, please.' },
  },
  {
    path: '/almanac',
    action: '/sovereign/pact',
    as: 'sovereign',
    fill: { title: 'I will plant a tree', detail: 'By the river.', stake: '0', due_in_days: '30' },
    bad: 'stake',
  },
  {
    path: '/operator',
    action: '/steward/lesson',
    as: 'steward',
    fill: { title: 'Bursts are spam', body: 'Ten imprints a minute from one handle were spam.', from: 'abc' },
    bad: 'from',
  },
  { path: '/initiate', action: '/initiate', as: 'anonymous', fill: { callsign: 'Wren<3' }, bad: 'callsign' },
  {
    path: '/imprint',
    action: '/sovereign/imprint',
    as: 'sovereign',
    fill: { body: 'Who keeps the ledger honest?', kind: 'question', reply_to: '999' },
    bad: 'reply_to',
  },
  {
    path: '/prophecy',
    action: '/sovereign/prophecy',
    as: 'sovereign',
    fill: { metric: 'agents', comparator: 'gte', threshold: '5', probability: '2', due_in_days: '10' },
    bad: 'probability',
  },
  {
    path: '/sovereign',
    action: '/sovereign/callsign-visibility',
    as: 'sovereign',
    fill: { callsign: 'Wren<3' },
    bad: 'callsign',
  },
  {
    path: '/verdicts',
    action: '/sovereign/court-sign',
    as: 'sovereign',
    fill: { target: 'imprint 4', reason: 'The steward held a fair question.' },
    bad: 'target',
  },
  {
    path: '/experiments',
    action: '/experiments',
    as: 'sovereign',
    fill: { variation: long(501) },
    bad: 'variation',
  },
  {
    path: '/feedback/mine',
    action: '/feedback/report',
    as: 'sovereign',
    fill: { topic: 'idea', body: long(4_001) },
    bad: 'body',
  },
];
