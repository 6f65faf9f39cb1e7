package dev.paygate;

/** Root of every exception this client throws (unchecked): catch it to catch them all. */
public class PaygateException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  PaygateException(String message) {
    super(message);
  }

  PaygateException(String message, Throwable cause) {
    super(message, cause);
  }
}
