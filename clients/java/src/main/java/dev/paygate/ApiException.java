package dev.paygate;

import com.google.gson.JsonObject;
import java.util.Optional;

/**
 * Thrown when the service answered with an HTTP error. Decide on {@link #code()}, never on the
 * message. A code this client version does not know gets this class itself.
 */
public class ApiException extends PaygateException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String code;
  private final transient JsonObject problem;
  private final String requestId;
  private final String idempotencyKey;

  ApiException(ApiError error) {
    super(messageOf(error));
    this.status = error.status();
    this.code = error.code();
    this.problem = error.problem().deepCopy();
    this.requestId = error.requestId();
    this.idempotencyKey = error.idempotencyKey();
  }

  private static String messageOf(ApiError error) {
    JsonObject problem = error.problem();
    for (String member : new String[] {"detail", "title"}) {
      if (problem.has(member) && problem.get(member).isJsonPrimitive()) {
        String text = problem.get(member).getAsString();
        if (!text.isEmpty()) return error.code() + ": " + text;
      }
    }
    return error.code() + ": HTTP " + error.status();
  }

  /** HTTP status of the response. */
  public int status() {
    return status;
  }

  /** The stable code of the problem document, e.g. {@code card_declined}. */
  public String code() {
    return code;
  }

  /** The full RFC 9457 problem document exactly as received (a copy; integers stay integers). */
  public JsonObject problem() {
    return problem.deepCopy();
  }

  /** {@code X-Request-Id} of the response (or the problem's {@code request_id}); quote it to support. */
  public Optional<String> requestId() {
    return Optional.ofNullable(requestId);
  }

  /** The Idempotency-Key sent with the request, when there was one. */
  public Optional<String> idempotencyKey() {
    return Optional.ofNullable(idempotencyKey);
  }

  /** Builds the exception for an error response: the one place where the code picks the class. */
  static ApiException of(ApiError error) {
    switch (error.code()) {
      case "validation_error":
      case "payload_too_large":
      case "unsupported_media_type":
        return new InvalidRequestException(error);
      case "invalid_api_key":
      case "invalid_client_secret":
      case "invalid_webhook_signature":
        return new AuthenticationException(error);
      case "card_declined":
      case "gateway_rejected":
        return new CardException(error);
      case "insufficient_permissions":
        return new PermissionException(error);
      case "resource_not_found":
        return new NotFoundException(error);
      case "idempotency_key_reuse":
      case "idempotency_key_in_flight":
        return new IdempotencyException(error);
      case "invalid_state_transition":
        return new InvalidStateException(error);
      case "currency_not_supported":
      case "amount_below_minimum":
      case "amount_exceeds_refundable":
      case "amount_exceeds_capturable":
        return new AmountException(error);
      case "rate_limited":
        return new RateLimitException(error);
      case "internal_error":
        return new InternalServerException(error);
      case "gateway_unavailable":
        return new GatewayUnavailableException(error);
      default:
        return new ApiException(error);
    }
  }
}
