/** Shapes of the Record's JSON projections, as the record pages read them: the contract's own types. */
export type { PublicImprint } from '../../shared/record/imprint.ts';
