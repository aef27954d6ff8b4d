import { importJWK, jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import type { AppContext } from '../context.ts';
import { verifyingKey } from '../keys.ts';
import type { CertificateProblem } from '../../shared/agents/contract.ts';
import { loadAgent, unknownAgent } from './service.ts';

/** How long a certificate stays valid: standing can change, so it is short. */
export const CERTIFICATE_TTL_SECONDS = 7 * 86_400;
export const CERTIFICATE_TYPE = 'civitas-agent-cert+jwt';

/**
 * GET /api/agent/certificate?handle=: a compact JWS (Ed25519, `EdDSA`) of handle, level and time,
 * signed with the key published in /agents.json (jwks). It states standing at issue time only.
 */
export async function issueCertificate(ctx: AppContext, handle: string) {
  const row = await loadAgent(ctx.db, handle);
  if (!row) throw unknownAgent(handle);
  const now = ctx.clock.now();
  const iat = Math.floor(now.getTime() / 1000);
  const key = await importJWK(ctx.keys.signing.privateJwk, 'EdDSA');
  const certificate = await new SignJWT({ handle, level: row.level, kind: 'agent' })
    .setProtectedHeader({ alg: 'EdDSA', kid: ctx.keys.signing.kid, typ: CERTIFICATE_TYPE })
    .setIssuer(ctx.config.origin)
    .setSubject(`agent:${handle}`)
    .setIssuedAt(iat)
    .setExpirationTime(iat + CERTIFICATE_TTL_SECONDS)
    .sign(key);
  return {
    ok: true as const,
    handle,
    level: row.level,
    issued_at: new Date(iat * 1000).toISOString(),
    expires_at: new Date((iat + CERTIFICATE_TTL_SECONDS) * 1000).toISOString(),
    alg: 'EdDSA' as const,
    key_id: ctx.keys.signing.kid,
    jwks: '/agents.json',
    certificate,
    verify: 'POST /api/agent/certificate/verify with {"certificate": "<this JWS>"}',
  };
}

/**
 * POST /api/agent/certificate/verify: checks signature, issuer, type and time against the
 * published key its kid names, and reports the handle's current level beside the certified one. Changes nothing.
 */
export async function verifyCertificate(ctx: AppContext, certificate: string) {
  // The key the certificate's kid names, active or retired (one issued before a rotation still verifies).
  const key = async (header: { kid?: string }) => {
    const jwk = await verifyingKey(ctx, header.kid);
    if (!jwk) throw new joseErrors.JWSSignatureVerificationFailed('no published key has this kid');
    return importJWK(jwk, 'EdDSA');
  };
  try {
    const { payload, protectedHeader } = await jwtVerify(certificate, key, {
      algorithms: ['EdDSA'],
      issuer: ctx.config.origin,
      typ: CERTIFICATE_TYPE,
      currentDate: ctx.clock.now(),
    });
    const handle = typeof payload.handle === 'string' ? payload.handle : null;
    const current = handle ? await loadAgent(ctx.db, handle) : undefined;
    return {
      ok: true as const,
      valid: true as const,
      handle,
      level: typeof payload.level === 'string' ? payload.level : null,
      current_level: current?.level ?? null,
      issued_at: payload.iat ? new Date(payload.iat * 1000).toISOString() : null,
      expires_at: payload.exp ? new Date(payload.exp * 1000).toISOString() : null,
      key_id: protectedHeader.kid ?? null,
    };
  } catch (error) {
    const problem: CertificateProblem =
      error instanceof joseErrors.JWTExpired
        ? 'expired'
        : error instanceof joseErrors.JWSSignatureVerificationFailed
          ? 'signature'
          : error instanceof joseErrors.JWTClaimValidationFailed
            ? 'claims'
            : 'malformed';
    return {
      ok: true as const,
      valid: false as const,
      problem,
      hint: 'This certificate was not issued by this service, was altered, or has expired. Fetch a fresh one.',
    };
  }
}
