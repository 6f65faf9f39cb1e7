import type { Customer } from '@paygate/contract';
import type { CustomerRecord } from '../../storage/repositories/customers.ts';

/** A customer as the API and the customer.* events show it (CONTRACT.md, second round: Customers). */
export function customerResource(customer: CustomerRecord): Customer {
  return {
    id: customer.id,
    object: 'customer',
    email: customer.email,
    name: customer.name,
    metadata: customer.metadata,
    livemode: customer.livemode,
    created_at: customer.createdAt.toISOString(),
    version: customer.version,
    deleted: customer.deletedAt !== null,
  };
}
