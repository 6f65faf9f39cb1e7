/**
 * How the frame talks to a gateway's hosted card field. The simulated gateway's protocol is the
 * only one so far; a gateway with another one adds an entry keyed by its gateway_id.
 */
export interface HostedFieldsProtocol {
  submitMessage: unknown;
  /** A token, a field error to show, or null for a message that is not the field's. */
  read(data: unknown): { token: string } | { error: string } | null;
}

const simProtocol: HostedFieldsProtocol = {
  submitMessage: { type: 'paygate-sim:submit' },
  read(data) {
    if (typeof data !== 'object' || data === null) return null;
    const message = data as { type?: unknown; token?: unknown; message?: unknown };
    if (message.type === 'paygate-sim:token' && typeof message.token === 'string')
      return { token: message.token };
    if (message.type === 'paygate-sim:error' && typeof message.message === 'string') {
      return { error: message.message };
    }
    return null;
  },
};

const protocols: Record<string, HostedFieldsProtocol> = { sim: simProtocol };

export function hostedFieldsProtocol(gatewayId: string): HostedFieldsProtocol {
  return protocols[gatewayId] ?? simProtocol;
}

/**
 * The hosted field's address: it posts its token to `parent_origin` (this frame) only, and lets
 * the pages above this frame (`ancestor_origins`) frame it too, since browsers check them all.
 */
export function hostedFieldsAddress(hostedFieldsUrl: string, parentOrigin: string): string {
  const url = new URL(hostedFieldsUrl);
  const ancestors =
    typeof location.ancestorOrigins === 'object' && location.ancestorOrigins.length > 0
      ? Array.from(location.ancestorOrigins)
      : [parentOrigin];
  url.searchParams.set('parent_origin', location.origin);
  url.searchParams.set('ancestor_origins', ancestors.slice(0, 5).join(' '));
  return url.href;
}
