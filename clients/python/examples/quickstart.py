"""The quick start: one test payment and a partial refund against your Paygate service, then the
payment's transactions. PAYGATE_URL is the service (without /v1), PAYGATE_SECRET_KEY a sk_test_ key."""

import os
import uuid

import paygate

with paygate.Client(
    api_key=os.environ["PAYGATE_SECRET_KEY"],
    base_url=os.environ.get("PAYGATE_URL", "http://localhost:8080"),
) as client:
    # Keep the idempotency key with your order before the call: a lost create is repeated with it.
    intent = client.payment_intents.create(
        {"amount_minor": 1999, "currency": "USD", "gateway_id": "sim", "metadata": {"order_id": "order_42"}},
        idempotency_key=str(uuid.uuid4()),
    )
    # The simulator's approving test token; in a shop the browser component confirms instead.
    paid = client.payment_intents.confirm(intent.id, {"payment_method_token": "tok_sim_approve"})
    print(f"payment {paid.id} {paid.status} {paid.amount_minor} {paid.currency}")

    refund = client.refunds.create({"payment_intent_id": paid.id, "amount_minor": 500})
    print(f"refund {refund.id} {refund.status} {refund.amount_minor}")

    count = sum(1 for txn in client.transactions.list({"limit": 100}) if txn.payment_intent_id == paid.id)
    print(f"transactions of {paid.id}: {count}")
