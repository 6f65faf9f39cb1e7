import { Type } from 'typebox';
import { IdOf, Timestamp } from './common.ts';

/**
 * A web origin allowed to embed the merchant's checkout frame: `scheme://host[:port]`, exactly,
 * with no path. It applies to both modes (the same site takes test and live payments).
 */
export const EmbedOrigin = Type.String({
  minLength: 8,
  maxLength: 300,
  pattern: '^https?://[^/?#\\s]+$',
  description: 'An http(s) origin such as https://shop.example or http://localhost:3000, with no path',
});

export const CreateEmbedDomainBody = Type.Object({ origin: EmbedOrigin }, { additionalProperties: false });

export const EmbedDomain = Type.Object({
  object: Type.Literal('embed_domain'),
  merchant_id: IdOf('acct'),
  origin: EmbedOrigin,
  created_at: Timestamp,
});

export const EmbedDomainList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(EmbedDomain),
});

/** The answer to a removal: which origin, and whether it was registered at all. */
export const RemovedEmbedDomain = Type.Object({
  object: Type.Literal('embed_domain'),
  merchant_id: IdOf('acct'),
  origin: EmbedOrigin,
  deleted: Type.Literal(true),
});
