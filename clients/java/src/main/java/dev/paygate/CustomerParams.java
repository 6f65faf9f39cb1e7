package dev.paygate;

import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Body of {@code POST /v1/customers} (create) and {@code POST /v1/customers/{id}} (update): only
 * what you set is sent; {@link Builder#removeEmail()} and {@link Builder#removeName()} send null,
 * which an update reads as "remove it".
 */
public final class CustomerParams {
  private final JsonObject body;

  private CustomerParams(JsonObject body) {
    this.body = body;
  }

  public static Builder builder() {
    return new Builder();
  }

  JsonObject toJson() {
    return body.deepCopy();
  }

  public static final class Builder {
    private final JsonObject body = new JsonObject();
    private final Map<String, String> metadata = new LinkedHashMap<>();
    private boolean metadataSet;

    private Builder() {}

    public Builder email(String email) {
      body.addProperty("email", email);
      return this;
    }

    public Builder name(String name) {
      body.addProperty("name", name);
      return this;
    }

    /** Update only: removes the customer's e-mail. */
    public Builder removeEmail() {
      body.add("email", JsonNull.INSTANCE);
      return this;
    }

    /** Update only: removes the customer's name. */
    public Builder removeName() {
      body.add("name", JsonNull.INSTANCE);
      return this;
    }

    /** Create: the metadata; update: merged key by key (a value of "" removes the key). */
    public Builder putMetadata(String key, String value) {
      metadata.put(key, value);
      metadataSet = true;
      return this;
    }

    public CustomerParams build() {
      JsonObject built = body.deepCopy();
      if (metadataSet) built.add("metadata", Params.stringMap(metadata));
      return new CustomerParams(built);
    }
  }
}
