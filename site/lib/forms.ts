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
  /** Every field message, in the order the refusal gave them. */
  problems(): [name: string, message: string][];
  /** The id of the control named `name` (the error summary links to it). */
  fieldId(name: string): string;
  /** The id of the error summary at the top of the form. */
  summaryId: string;
}

/**
 * The state of the form posting to `action` on this page. `prefix` makes its controls' ids unique
 * when a page holds several forms with the same field names.
 */
export function formState(
  locals: App.Locals,
  action: string,
  prefix = 'f-',
  /** For forms repeated per item: the failed post is this form's when its field `[0]` was `[1]`. */
  key?: [name: string, value: string],
): FormState {
  const posted = locals.flash && locals.flash.action === action ? locals.flash : undefined;
  const flash = posted && (!key || posted.values[key[0]] === key[1]) ? posted : undefined;
  // Claimed: the form shows its own notice, so the layout's page-level notice stays away.
  if (flash) (flash as CivitasFlash & { claimed?: boolean }).claimed = true;
  // A message about a list's item ("from.0") belongs to the field that holds the list ("from").
  const fields: Record<string, string> = {};
  for (const [path, message] of Object.entries(flash?.fields ?? {})) {
    const name = path === '(body)' ? path : path.split('.')[0]!; // split() returns ≥ 1 part
    fields[name] ??= message;
  }
  return {
    failed: Boolean(flash),
    reason: flash?.reason,
    hint: flash?.hint,
    status: flash?.status,
    value: (name, fallback) => flash?.values[name] ?? fallback,
    error: (name) => fields[name],
    others: (known) =>
      Object.entries(fields)
        .filter(([path]) => !known.includes(path))
        .map(([path, message]) => (path === '(body)' ? message : plainMessage(path, message))),
    problems: () => Object.entries(fields),
    fieldId: (name) => `${prefix}${name}`,
    summaryId: `${prefix}errors`,
  };
}

/** A field's name as a person reads it: `due_in_days` → "Due in days". */
export function fieldLabel(name: string): string {
  const words = name.replace(/[_.-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A refusal's message about one field as a sentence: the field's name becomes its label
 * ("title is at most 120 characters" → "Title is at most 120 characters.").
 */
export function plainMessage(name: string, message: string, label = fieldLabel(name)): string {
  // A label's parenthesis is a hint ("Title (up to 120 characters)"), not part of its name.
  label = label.replace(/\s*\(.*\)\s*$/, '');
  // Placeholders such as "axiom-<n>" become an example a person can copy: "such as axiom-2".
  let text = zodWords(message.trim(), label).replace(/\((\w+)-<n>\)/g, 'such as $1-2');
  if (text.toLowerCase().startsWith(`${name.toLowerCase()} `)) text = `${label}${text.slice(name.length)}`;
  else if (text.toLowerCase() === 'required' || text.toLowerCase() === 'invalid')
    text = `${label} is ${text.toLowerCase()}`;
  text = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** zod's default messages ("Too small: expected number to be >=1") said as a person would. */
function zodWords(message: string, label: string): string {
  const size = /^Too (small|big): expected (\w+) to (?:be|have) ([<>]=?)(\d+)(?: (\w+))?/.exec(message);
  if (size) {
    const [, which, type, op, n, unit] = size;
    const bound = Number(n) + (op === '>' ? 1 : op === '<' ? -1 : 0);
    const what = type === 'string' ? ` characters` : unit && type !== 'number' ? ` ${unit}` : '';
    return `${label} must be ${which === 'small' ? 'at least' : 'at most'} ${bound}${what}`;
  }
  const type = /^Invalid input: expected (\w+)/.exec(message);
  if (type)
    return `${label} must be ${type[1] === 'int' ? 'a whole number' : type[1] === 'number' ? 'a number' : 'filled in'}`;
  const options = /^Invalid option: expected one of (.+)$/.exec(message)?.[1];
  if (options !== undefined)
    return `${label} must be one of ${options.replaceAll('"', '').split('|').join(', ')}`;
  return message;
}

/**
 * What to do next after a refusal, in a person's words; the API's hint speaks to programs
 * (`issues`, headers, paths), so it is used only where it names something the person can act on.
 */
export function refusalAdvice(reason: string | undefined, hint: string | undefined): string {
  switch (reason) {
    case 'invalid_request':
      return 'Correct the fields listed here and send the form again. Everything you typed is still in place.';
    case 'identity_required':
      return 'Return with your key or cross to get one, then send the form again.';
    case 'scope_required':
      return 'Your account does not have the standing this needs.';
    case 'rate_limited':
      return 'Wait a minute and send it again; what you typed is still in place.';
    case 'cross_origin_refused':
      return 'Send the form from this site, not from a copy of it elsewhere.';
    case 'payload_too_large':
      return 'Shorten what you typed and send it again.';
    case 'internal_error':
      return 'Nothing you typed was lost. Check the ledger before sending it again: it may have been recorded.';
    default:
      return hint ?? 'Check what you typed and send it again.';
  }
}

/** A short human title for a refusal, shown above its hint. */
export function refusalTitle(reason: string | undefined, status: number | undefined): string {
  switch (reason) {
    case 'invalid_request':
      return 'There is a problem';
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

/**
 * The state of one of several forms posting to the same action: `state` when `mine` says the
 * failed post came from this form (a hidden field tells them apart), else a state that did not fail.
 */
export function stateIf(state: FormState, mine: boolean, prefix = 'x-'): FormState {
  return mine ? state : formState({}, '', prefix);
}
