/** The transparency-log core: hashing, Merkle proofs, signed notes/checkpoints, anchors, verifier. */
export * from './encoding.ts';
export * from './hash.ts';
export * from './merkle.ts';
export * from './keys.ts';
export * from './note.ts';
export * from './anchor.ts';
export * from './verifier.ts';
