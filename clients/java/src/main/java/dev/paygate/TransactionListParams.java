package dev.paygate;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Filters of {@code GET /v1/transactions}; the cursor is the client's business, never yours. */
public final class TransactionListParams {
  private final Map<String, String> query;

  private TransactionListParams(Map<String, String> query) {
    this.query = Map.copyOf(query);
  }

  public static Builder builder() {
    return new Builder();
  }

  Map<String, String> query() {
    return query;
  }

  public static final class Builder {
    private final Map<String, String> query = new LinkedHashMap<>();

    private Builder() {}

    /** PENDING, APPROVED or DECLINED. */
    public Builder status(String status) {
      query.put("status", status);
      return this;
    }

    /** PAYMENT or REFUND. */
    public Builder type(String type) {
      query.put("type", type);
      return this;
    }

    /** Inclusive lower bound. */
    public Builder from(Instant from) {
      query.put("from", from.toString());
      return this;
    }

    /** Exclusive upper bound. */
    public Builder to(Instant to) {
      query.put("to", to.toString());
      return this;
    }

    /** Page size, 1 to 100 (server default 20); iteration still returns every item. */
    public Builder limit(int limit) {
      query.put("limit", Integer.toString(limit));
      return this;
    }

    public TransactionListParams build() {
      return new TransactionListParams(query);
    }
  }
}
