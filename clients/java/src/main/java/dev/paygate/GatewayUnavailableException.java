package dev.paygate;

/** Thrown on 503 {@code gateway_unavailable}: the external gateway could not be reached. */
public class GatewayUnavailableException extends ApiException {
  private static final long serialVersionUID = 1L;

  GatewayUnavailableException(ApiError error) {
    super(error);
  }
}
