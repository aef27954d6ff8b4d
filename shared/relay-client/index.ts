/** Entry point of /relay-client.mjs (bundled by scripts/build.ts). */
export {
  createRelayClient,
  RelayError,
  retryAfterMs,
  type RelayClient,
  type RelayClientOptions,
  type ImprintKind,
} from './client.ts';
export { verifyReceiptProof } from '../ledger/verifier.ts';
