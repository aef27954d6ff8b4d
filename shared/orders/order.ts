/** Orders: requested changes to the service (DESIGN.md section 5). Pure vocabulary, no I/O. */

export const ORDER_STATUSES = ['recorded', 'accepted', 'applied', 'declined'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_TITLE_MAX = 120;
export const ORDER_DETAIL_MAX = 2000;
export const ORDER_ID = /^ord_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Priority is one for the order itself plus one per second. */
export function orderPriority(seconds: number): number {
  return 1 + seconds;
}

export const ORDER_STATUS_MEANING: Record<OrderStatus, string> = {
  recorded: 'Recorded: the request is on file; nobody has decided on it yet.',
  accepted: 'Accepted: a steward decided to make this change; it is not applied yet.',
  applied: 'Applied: the change is live.',
  declined: 'Declined: a steward decided not to make this change.',
};

/** A steward's decision on an order and the status it leads to. */
export const ORDER_DECISIONS = ['accept', 'apply', 'decline'] as const;
export type OrderDecision = (typeof ORDER_DECISIONS)[number];
export const ORDER_NOTE_MAX = 500;

/** The lifecycle: recorded → accepted → applied, and recorded or accepted → declined. Nothing leaves applied or declined. */
export const ORDER_TRANSITIONS: Record<OrderDecision, { from: readonly OrderStatus[]; to: OrderStatus }> = {
  accept: { from: ['recorded'], to: 'accepted' },
  apply: { from: ['accepted'], to: 'applied' },
  decline: { from: ['recorded', 'accepted'], to: 'declined' },
};
