/** Shapes of the Record's JSON projections, as the record pages read them (see api/record). */
export interface PublicImprint {
  sequence: number;
  kind: string;
  body: string | null;
  author: { kind: string; name: string };
  recorded_at: string;
  unattested: boolean;
  reply_to: number | null;
  receipt_id: string;
}
