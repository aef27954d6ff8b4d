/**
 * The "check a receipt" box (site/components/ledger/VerifyBox.astro): what a person pastes — an id,
 * a receipt's address, a line of text holding one — becomes the receipt's page, or nothing.
 */
const RECEIPT = /rcpt_[0-9A-Za-z]{10,40}/;

export function receiptPageFor(pasted: string): string | null {
  const id = RECEIPT.exec(pasted)?.[0];
  return id ? `/receipt/${id}` : null;
}
