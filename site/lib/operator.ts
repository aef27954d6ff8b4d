/**
 * Who runs this deployment, for the legal and contact pages. Read at build time from the
 * environment so each operator publishes its own name and address; the fallbacks say honestly
 * that none was configured rather than inventing one.
 */
export interface Operator {
  name: string;
  email?: string;
  configured: boolean;
}

export function operator(): Operator {
  const name = process.env.CIVITAS_OPERATOR_NAME?.trim();
  const email = process.env.CIVITAS_CONTACT_EMAIL?.trim();
  return {
    name: name || 'the operator of this deployment',
    email: email || undefined,
    configured: Boolean(name),
  };
}
