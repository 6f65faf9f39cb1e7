package dev.paygate;

/**
 * Thrown on 422 {@code currency_not_supported}, {@code amount_below_minimum}, {@code
 * amount_exceeds_refundable} or {@code amount_exceeds_capturable}.
 */
public class AmountException extends ApiException {
  private static final long serialVersionUID = 1L;

  AmountException(ApiError error) {
    super(error);
  }
}
