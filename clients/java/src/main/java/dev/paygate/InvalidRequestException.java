package dev.paygate;

/** Thrown on 400 {@code validation_error}: the request is malformed; see {@code problem().get("errors")}. */
public class InvalidRequestException extends ApiException {
  private static final long serialVersionUID = 1L;

  InvalidRequestException(ApiError error) {
    super(error);
  }
}
