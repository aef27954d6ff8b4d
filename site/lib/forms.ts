/**
 * A form's state after a failed post (post/redirect/get): the flash api/http.ts stored is handed
 * to its page in `Astro.locals.flash`; each form reads the part for its own action.
 */

export interface FormState {
  /** True when this form's last post failed. */
  failed: boolean;
  /** The refusal's words (reason and hint) for the form's notice. */
  reason?: string;
  hint?: string;
  status?: number;
  /** What was typed in `name`, else the fallback. */
  value(name: string, fallback?: string): string | undefined;
  /** The message for one field, if that field was the problem. */
  error(name: string): string | undefined;
  /** Messages that name no field of this form (shown in the notice). */
  others(known: string[]): string[];
}

export function formState(locals: App.Locals, action: string): FormState {
  const flash = locals.flash && locals.flash.action === action ? locals.flash : undefined;
  // Claimed: the form shows its own notice, so the layout's page-level notice stays away.
  if (flash) (flash as CivitasFlash & { claimed?: boolean }).claimed = true;
  return {
    failed: Boolean(flash),
    reason: flash?.reason,
    hint: flash?.hint,
    status: flash?.status,
    value: (name, fallback) => flash?.values[name] ?? fallback,
    error: (name) => flash?.fields[name],
    others: (known) =>
      Object.entries(flash?.fields ?? {})
        .filter(([path]) => !known.includes(path))
        .map(([path, message]) => (path === '(body)' ? message : `${path}: ${message}`)),
  };
}

/** A short human title for a refusal, shown above its hint. */
export function refusalTitle(reason: string | undefined, status: number | undefined): string {
  switch (reason) {
    case 'invalid_request':
      return 'Please check the highlighted fields';
    case 'not_found':
      return 'That was not found';
    case 'unknown_agent':
      return 'That agent is not known here';
    case 'identity_required':
      return 'Sign in first';
    case 'scope_required':
      return 'You may not do this';
    case 'conflict':
      return 'That conflicts with what is already recorded';
    case 'rate_limited':
      return 'Too many tries — wait a minute';
    case 'provider_unavailable':
      return 'This is switched off right now';
    case 'payload_too_large':
      return 'That was too large';
    case 'cross_origin_refused':
      return 'Send this from civitas itself';
    default:
      return status !== undefined && status >= 500
        ? 'Something failed on our side'
        : 'That did not go through';
  }
}
