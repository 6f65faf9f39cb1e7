package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Set;

/**
 * A verified webhook event. {@link #type()} may be a type added after this client version: check
 * {@link #isKnownType()} and acknowledge unknown ones without processing them.
 */
public final class Event extends ApiObject {
  private static final Set<String> KNOWN_TYPES = EventTypes.KNOWN;

  Event(JsonObject json) {
    super(json);
  }

  /** Stable across redeliveries: deduplicate on it. */
  public String id() {
    return JsonObjects.string(json(), "id");
  }

  public String type() {
    return JsonObjects.string(json(), "type");
  }

  public String created() {
    return JsonObjects.string(json(), "created");
  }

  public boolean livemode() {
    return JsonObjects.bool(json(), "livemode");
  }

  public boolean isKnownType() {
    return KNOWN_TYPES.contains(type());
  }

  /** {@code data.object} as JSON (a copy). */
  public JsonObject dataObject() {
    return json().getAsJsonObject("data").getAsJsonObject("object").deepCopy();
  }

  /** {@code data.object} of a {@code payment_intent.*} event. */
  public PaymentIntent paymentIntent() {
    if (!type().startsWith("payment_intent.")) throw new IllegalStateException(type() + " carries no payment intent");
    return PaymentIntent.fromJson(dataObject());
  }

  /** {@code data.object} of a {@code refund.*} event. */
  public Refund refund() {
    if (!type().startsWith("refund.")) throw new IllegalStateException(type() + " carries no refund");
    return Refund.fromJson(dataObject());
  }

  /** {@code data.object} of a {@code dispute.*} event. */
  public Dispute dispute() {
    if (!type().startsWith("dispute.")) throw new IllegalStateException(type() + " carries no dispute");
    return Dispute.fromJson(dataObject());
  }

  /** {@code data.object} of a {@code customer.*} event. */
  public Customer customer() {
    if (!type().startsWith("customer.")) throw new IllegalStateException(type() + " carries no customer");
    return Customer.fromJson(dataObject());
  }

  /** {@code data.object} of a {@code saved_payment_method.*} event. */
  public SavedPaymentMethod savedPaymentMethod() {
    if (!type().startsWith("saved_payment_method.")) {
      throw new IllegalStateException(type() + " carries no saved payment method");
    }
    return SavedPaymentMethod.fromJson(dataObject());
  }
}
