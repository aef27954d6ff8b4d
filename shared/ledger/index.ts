/** The transparency-log core: hashing, Merkle proofs, signed notes/checkpoints, anchors, verifier. */
export * from './encoding.ts';
export * from './hash.ts';
export { buildTree, rootHash, subtreeHash, type HashInput, type MerkleTree } from './merkle.ts';
export * from './inclusion.ts';
export * from './consistency.ts';
export * from './keys.ts';
export * from './note.ts';
export * from './anchor.ts';
export * from './verifier.ts';
