package dev.paygate;

/** Thrown on 404 {@code resource_not_found}. */
public class NotFoundException extends ApiException {
  private static final long serialVersionUID = 1L;

  NotFoundException(ApiError error) {
    super(error);
  }
}
