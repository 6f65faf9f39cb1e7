package dev.paygate;

/** Thrown on 403 {@code insufficient_permissions}: the key may not perform this operation. */
public class PermissionException extends ApiException {
  private static final long serialVersionUID = 1L;

  PermissionException(ApiError error) {
    super(error);
  }
}
