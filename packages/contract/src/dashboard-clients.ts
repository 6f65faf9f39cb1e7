import { Type } from 'typebox';
import { Timestamp } from './common.ts';

export const ClientUsageList = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      client: Type.String({
        description: 'paygate-node, paygate-python, paygate-php, paygate-java, or other',
      }),
      version: Type.String({ description: 'The client version; empty for other' }),
      request_count: Type.Integer({ minimum: 1 }),
      first_seen_at: Timestamp,
      last_seen_at: Timestamp,
    }),
  ),
});
