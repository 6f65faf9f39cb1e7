package dev.paygate;

/** Thrown on 401 {@code invalid_api_key}, {@code invalid_client_secret} or {@code invalid_webhook_signature}. */
public class AuthenticationException extends ApiException {
  private static final long serialVersionUID = 1L;

  AuthenticationException(ApiError error) {
    super(error);
  }
}
