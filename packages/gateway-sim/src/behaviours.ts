/** What a charge made with a token does. Fixed tokens and hosted-field tokens map to one of these. */
export type Behaviour =
  | 'approve'
  | 'decline'
  | 'reject'
  | 'challenge'
  | 'unavailable'
  | 'hang'
  // Approved now; once saved, later charges of the saved method are declined (insufficient funds),
  // or want the payer's authentication (declined with authentication_required off-session).
  | 'save_then_decline'
  | 'save_then_authenticate';

/** What later charges of a saved method do, by the behaviour of the charge that saved it. */
export type SavedBehaviour = 'approve' | 'decline' | 'authenticate';

export function savedBehaviourOf(behaviour: Behaviour | null): SavedBehaviour {
  if (behaviour === 'save_then_decline') return 'decline';
  if (behaviour === 'save_then_authenticate') return 'authenticate';
  return 'approve';
}

/** The fixed tokens a merchant server may send without going through the hosted fields. */
export const fixedTokens: ReadonlyMap<string, Behaviour> = new Map([
  ['tok_sim_approve', 'approve'],
  ['tok_sim_decline', 'decline'],
  ['tok_sim_reject', 'reject'],
  ['tok_sim_challenge', 'challenge'],
  ['tok_sim_unavailable', 'unavailable'],
  ['tok_sim_hang', 'hang'],
  ['tok_sim_save_then_decline', 'save_then_decline'],
  ['tok_sim_save_then_authenticate', 'save_then_authenticate'],
]);

/**
 * Test card numbers the hosted fields accept. They are the Stripe test numbers with the same
 * meaning, so a developer who knows Stripe recognises them; all pass the Luhn check.
 */
export const testCards: ReadonlyMap<string, Behaviour> = new Map([
  ['4242424242424242', 'approve'],
  ['4000000000000002', 'decline'],
  ['4000000000009995', 'reject'],
  ['4000000000003220', 'challenge'],
  ['4000000000000119', 'unavailable'],
  // Stripe's meanings again: 0341 is saved but its later charges fail, 3155 wants authentication.
  ['4000000000000341', 'save_then_decline'],
  ['4000002500003155', 'save_then_authenticate'],
]);

/** Digits of a card number typed with optional spaces or dashes; null when it is not one. */
export function normaliseCardNumber(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(digits) ? digits : null;
}

/** Amount rules of refunds: ending in 99 fails, ending in 13 settles late, anything else succeeds. */
export function refundBehaviour(amountMinor: number): 'succeed' | 'fail' | 'settle_late' {
  const lastTwo = amountMinor % 100;
  if (lastTwo === 99) return 'fail';
  if (lastTwo === 13) return 'settle_late';
  return 'succeed';
}
