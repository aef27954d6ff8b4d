import { ROUTES } from '../registry/index.ts';
import { Refusal } from '../errors.ts';

/** The prefix under which a handle is itself a path segment (`GET /api/agent/{handle}`). */
const AGENT_PREFIX = '/api/agent/';

/**
 * Handles that would collide with a route: every literal path segment right under /api/agent/ in
 * the registry (`imprint`, `certificate`, …). Derived from the registry, so a route added there is
 * reserved here at once: `GET /api/agent/certificate` can never be a handle's status.
 */
export const RESERVED_HANDLES: ReadonlySet<string> = new Set(
  ROUTES.filter((shape) => shape.path.startsWith(AGENT_PREFIX))
    .map((shape) => shape.path.slice(AGENT_PREFIX.length).split('/')[0])
    .filter((segment): segment is string => !!segment && !segment.startsWith('{')),
);

/** Refuses (400) a handle that names a route; `handle` is already case-folded by handleSchema. */
export function refuseReservedHandle(handle: string, path = 'agent'): void {
  if (!RESERVED_HANDLES.has(handle)) return;
  throw new Refusal('invalid_request', {
    issues: [
      {
        path,
        message: `The handle \`${handle}\` is reserved: /api/agent/${handle} is a route, so its status could never be read. Choose another handle.`,
      },
    ],
    reserved: [...RESERVED_HANDLES].sort(),
  });
}
