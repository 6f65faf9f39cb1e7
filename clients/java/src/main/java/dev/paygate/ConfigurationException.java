package dev.paygate;

/**
 * Thrown locally, before anything is sent, when the client or a webhook check is given an invalid
 * option: a publishable key, a base address that is not http(s), a time-out that is not positive.
 */
public class ConfigurationException extends PaygateException {
  private static final long serialVersionUID = 1L;

  ConfigurationException(String message) {
    super(message);
  }
}
