package dev.paygate;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The Paygate client for merchant servers. Immutable and thread-safe: build one and share it.
 *
 * <pre>{@code
 * PaygateClient paygate = PaygateClient.builder()
 *     .apiKey(System.getenv("PAYGATE_SECRET_KEY"))
 *     .baseUrl("https://pay.example.com")
 *     .build();
 * PaymentIntent intent = paygate.paymentIntents().create(
 *     PaymentIntentCreateParams.builder().amountMinor(1999).currency("USD").gatewayId("sim").build(),
 *     RequestOptions.idempotencyKey(order.paymentKey()));
 * }</pre>
 */
public final class PaygateClient {
  /** The version of this client, sent in the User-Agent. */
  public static final String VERSION = "1.0.0";

  public static final String DEFAULT_BASE_URL = "http://localhost:8080";
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
  public static final int DEFAULT_MAX_RETRIES = 2;
  private static final Pattern SECRET_KEY = Pattern.compile("sk_(test|live)_[0-9A-Za-z]+");

  /** The checked configuration. */
  record Settings(
      String apiKey,
      String baseUrl,
      Duration timeout,
      int maxRetries,
      boolean telemetry,
      Transport transport,
      Sleeper sleeper,
      Clock clock) {}

  private final RequestSender sender;
  private final PaymentIntentService paymentIntents;
  private final RefundService refunds;
  private final DisputeService disputes;
  private final TransactionService transactions;
  private final CustomerService customers;
  private final SavedPaymentMethodService savedPaymentMethods;

  private PaygateClient(Settings settings) {
    this.sender = new RequestSender(settings);
    this.paymentIntents = new PaymentIntentService(sender);
    this.refunds = new RefundService(sender);
    this.disputes = new DisputeService(sender);
    this.transactions = new TransactionService(sender);
    this.customers = new CustomerService(sender);
    this.savedPaymentMethods = new SavedPaymentMethodService(sender);
  }

  public static Builder builder() {
    return new Builder();
  }

  public PaymentIntentService paymentIntents() {
    return paymentIntents;
  }

  public RefundService refunds() {
    return refunds;
  }

  /** Disputes (chargebacks) of your payments. */
  public DisputeService disputes() {
    return disputes;
  }

  public TransactionService transactions() {
    return transactions;
  }

  public CustomerService customers() {
    return customers;
  }

  public SavedPaymentMethodService savedPaymentMethods() {
    return savedPaymentMethods;
  }

  /** The exact User-Agent this client sends. */
  public String userAgent() {
    return sender.userAgent();
  }

  /** Every option is checked in {@link #build()}, so a misconfiguration fails at start-up. */
  public static final class Builder {
    private String apiKey;
    private String baseUrl = DEFAULT_BASE_URL;
    private Duration timeout = DEFAULT_TIMEOUT;
    private int maxRetries = DEFAULT_MAX_RETRIES;
    private boolean telemetry = true;
    private Transport transport;
    private Sleeper sleeper = duration -> Thread.sleep(duration.toMillis());
    private Clock clock = Clock.systemUTC();

    private Builder() {}

    /** A secret key, {@code sk_test_...} or {@code sk_live_...}; publishable keys are refused. */
    public Builder apiKey(String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /** Address of your Paygate service, http or https, without {@code /v1}. */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** Time-out of each HTTP attempt (default 30 s). */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** Retries after the first attempt, for GET (and a POST that never left): 0 to 10, default 2. */
    public Builder maxRetries(int maxRetries) {
      this.maxRetries = maxRetries;
      return this;
    }

    /** Sends the Java version in the User-Agent (default true); false sends the client version only. */
    public Builder telemetry(boolean telemetry) {
      this.telemetry = telemetry;
      return this;
    }

    /** Testing aid: how each attempt is sent (default {@link java.net.http.HttpClient}). */
    public Builder transport(Transport transport) {
      this.transport = Objects.requireNonNull(transport, "transport");
      return this;
    }

    /** Testing aid: how the client waits between attempts (default {@link Thread#sleep}). */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /** The clock used to read a {@code Retry-After} date (default the system clock). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public PaygateClient build() {
      Duration checkedTimeout = checkTimeout(timeout);
      return new PaygateClient(
          new Settings(
              checkApiKey(apiKey),
              checkBaseUrl(baseUrl),
              checkedTimeout,
              checkMaxRetries(maxRetries),
              telemetry,
              transport != null ? transport : new HttpClientTransport(checkedTimeout),
              sleeper,
              clock));
    }

    private static String checkApiKey(String apiKey) {
      if (apiKey == null || apiKey.isEmpty()) {
        throw new ConfigurationException("apiKey is required: a secret key starting with sk_test_ or sk_live_");
      }
      if (apiKey.startsWith("pk_")) {
        throw new ConfigurationException(
            "apiKey is a publishable key (pk_...); server clients need a secret key (sk_test_... or sk_live_...)");
      }
      if (!SECRET_KEY.matcher(apiKey).matches()) {
        // The key itself is not echoed: it may be a real secret pasted into the wrong place.
        throw new ConfigurationException("apiKey must be a secret key: sk_test_ or sk_live_ and base62 characters");
      }
      return apiKey;
    }

    private static String checkBaseUrl(String baseUrl) {
      if (baseUrl == null) throw new ConfigurationException("baseUrl must not be null");
      URI uri;
      try {
        uri = new URI(baseUrl);
      } catch (URISyntaxException e) {
        throw new ConfigurationException("baseUrl is not a valid URL: " + baseUrl);
      }
      String scheme = uri.getScheme();
      if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
        throw new ConfigurationException("baseUrl must use http or https: " + baseUrl);
      }
      if (uri.getHost() == null || uri.getHost().isEmpty()) {
        throw new ConfigurationException("baseUrl has no host: " + baseUrl);
      }
      if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
        throw new ConfigurationException("baseUrl must not carry a query, a fragment or credentials");
      }
      return baseUrl.replaceAll("/+$", "");
    }

    private static Duration checkTimeout(Duration timeout) {
      if (timeout == null || timeout.isZero() || timeout.isNegative()) {
        throw new ConfigurationException("timeout must be a positive duration");
      }
      return timeout;
    }

    private static int checkMaxRetries(int maxRetries) {
      if (maxRetries < 0 || maxRetries > 10) {
        throw new ConfigurationException("maxRetries must be from 0 to 10");
      }
      return maxRetries;
    }
  }
}
