package dev.paygate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.paygate.ScriptedServer.Step;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A 400 validation_error names the fields at fault, typed. */
class FieldErrorsTest {
  @Test
  void theRecordedValidationErrorNamesItsFieldsTyped() throws Exception {
    JsonObject problem = Fixtures.json("validation-error.problem.json");
    JsonArray errors = problem.getAsJsonArray("errors");
    errors.add(JsonParser.parseString("{\"field\":\"currency\",\"message\":\"unknown\",\"hint_added_later\":true}"));
    errors.add(JsonParser.parseString("{\"field\":7}"));
    try (ScriptedServer server =
        new ScriptedServer(new Step(400, Map.of("Content-Type", "application/problem+json"), problem.toString()))) {
      PaygateClient client = PaygateClient.builder().apiKey("sk_test_4eC39HqLyjWDarjtT1zdp7dc").baseUrl(server.baseUrl()).build();
      InvalidRequestException invalid =
          assertThrows(
              InvalidRequestException.class,
              () -> client.paymentIntents().create(PaymentIntentCreateParams.builder().amountMinor(2500).currency("USD").gatewayId("sim").build()));
      assertEquals(
          List.of(new FieldError("metadata.order_id", "must be of type string"), new FieldError("currency", "unknown")),
          invalid.fieldErrors());
      assertEquals(problem, invalid.problem());
    }
  }
}
