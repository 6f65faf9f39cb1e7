package dev.paygate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every field and event type of the contract (clients/conformance/fixtures/contract-shapes.json,
 * generated from packages/contract) has a typed accessor here: a field added to the contract and not
 * to this client fails this test.
 */
class ContractShapesTest {
  private static final Map<String, Class<?>> CLASSES =
      Map.of(
          "payment_intent", PaymentIntent.class,
          "last_payment_error", LastPaymentError.class,
          "refund", Refund.class,
          "transaction", Transaction.class,
          "dispute", Dispute.class,
          "customer", Customer.class,
          "saved_payment_method", SavedPaymentMethod.class,
          "event", Event.class);
  /** Fields kept in toJson() as received but without an accessor, and why. */
  private static final Map<String, String> UNTYPED =
      Map.of(
          "payment_intent.object", "a constant naming the class itself",
          "payment_intent.payment_method", "always null in /v1: no card metadata is ever captured",
          "payment_intent.checkout", "answered only to a publishable key, which this server-side client refuses",
          "refund.object", "a constant naming the class itself",
          "transaction.object", "a constant naming the class itself",
          "dispute.object", "a constant naming the class itself",
          "customer.object", "a constant naming the class itself",
          "saved_payment_method.object", "a constant naming the class itself",
          "event.object", "a constant naming the class itself");
  /** Accessors whose name is not the camelCase of the field. */
  private static final Map<String, String> RENAMED = Map.of("event.data", "dataObject");
  /** The Java type of each JSON type; a member that may be null or absent is an Optional of it. */
  private static final Map<String, Class<?>> JAVA_TYPES =
      Map.of("string", String.class, "integer", long.class, "boolean", boolean.class, "object", Map.class);

  private static String camelCase(String field) {
    StringBuilder name = new StringBuilder();
    boolean upper = false;
    for (char c : field.toCharArray()) {
      if (c == '_') {
        upper = true;
      } else {
        name.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return name.toString();
  }

  private static JsonObject shapes() throws Exception {
    return Fixtures.json("contract-shapes.json");
  }

  @Test
  void everyResourceOfTheContractHasAClass() throws Exception {
    assertEquals(CLASSES.keySet(), shapes().getAsJsonObject("resources").keySet());
  }

  @TestFactory
  Stream<DynamicTest> everyFieldOfTheContractIsATypedAccessor() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map.Entry<String, JsonElement> resource : shapes().getAsJsonObject("resources").entrySet()) {
      for (Map.Entry<String, JsonElement> field : resource.getValue().getAsJsonObject().entrySet()) {
        String key = resource.getKey() + "." + field.getKey();
        if (UNTYPED.containsKey(key)) continue;
        String contractType = field.getValue().getAsString();
        tests.add(DynamicTest.dynamicTest(key, () -> checkAccessor(CLASSES.get(resource.getKey()), key, field.getKey(), contractType)));
      }
    }
    return tests.stream();
  }

  private static void checkAccessor(Class<?> owner, String key, String field, String contractType) throws Exception {
    String name = RENAMED.getOrDefault(key, camelCase(field));
    Method accessor = owner.getMethod(name);
    assertTrue(Modifier.isPublic(accessor.getModifiers()), owner.getSimpleName() + "." + name + " is public");
    String base = contractType.replace("?", "").split("\\|")[0];
    Class<?> expected = CLASSES.containsKey(base) ? CLASSES.get(base) : JAVA_TYPES.get(base);
    boolean maybeAbsent = contractType.contains("|null") || contractType.endsWith("?");
    Type returned = accessor.getGenericReturnType();
    // Optional<T> for what may be null or absent; a JSON object member is read as a Map or JsonObject.
    if (returned instanceof ParameterizedType parameterized && parameterized.getRawType() == Optional.class) {
      assertTrue(maybeAbsent, key + " is Optional although the contract always has it");
      assertEquals(expected, parameterized.getActualTypeArguments()[0], key);
    } else if (expected == Map.class) {
      Class<?> raw = accessor.getReturnType();
      assertTrue(raw == Map.class || raw == JsonObject.class, key + " is read as a map or a JSON object, not " + raw);
    } else {
      assertTrue(!maybeAbsent, key + " may be null or absent: an Optional is needed");
      assertEquals(expected, accessor.getReturnType(), key);
    }
  }

  @Test
  void theKnownEventTypesAreTheContracts() throws Exception {
    Set<String> known = new HashSet<>();
    for (String type : shapes().getAsJsonObject("event_types").keySet()) {
      if (eventOf(type, "payment_intent").isKnownType()) known.add(type);
    }
    assertEquals(shapes().getAsJsonObject("event_types").keySet(), known);
    assertTrue(!eventOf("payment_intent.teleported", "payment_intent").isKnownType(), "an unknown type is not known");
  }

  @Test
  void eachEventTypeCarriesTheResourceTheContractNames() throws Exception {
    for (Map.Entry<String, JsonElement> entry : shapes().getAsJsonObject("event_types").entrySet()) {
      Event event = eventOf(entry.getKey(), entry.getValue().getAsString());
      String objectName = entry.getValue().getAsString();
      Object carried =
          objectName.equals("refund")
              ? event.refund()
              : objectName.equals("dispute")
                  ? event.dispute()
                  : objectName.equals("customer")
                      ? event.customer()
                      : objectName.equals("saved_payment_method")
                          ? event.savedPaymentMethod()
                          : event.paymentIntent();
      assertEquals(CLASSES.get(entry.getValue().getAsString()), carried.getClass(), entry.getKey());
    }
  }

  private static Event eventOf(String type, String objectName) throws Exception {
    JsonObject envelope = Fixtures.json("payment-intent-failed.event.json");
    envelope.addProperty("type", type);
    if (objectName.equals("refund")) {
      envelope.getAsJsonObject("data").add("object", JsonParser.parseString("{\"id\":\"re_1\",\"object\":\"refund\",\"amount_minor\":1}"));
    }
    if (objectName.equals("dispute")) {
      envelope.getAsJsonObject("data").add("object", JsonParser.parseString("{\"id\":\"dp_1\",\"object\":\"dispute\",\"amount_minor\":1}"));
    }
    if (objectName.equals("customer")) {
      envelope.getAsJsonObject("data").add("object", JsonParser.parseString("{\"id\":\"cus_1\",\"object\":\"customer\",\"deleted\":false}"));
    }
    if (objectName.equals("saved_payment_method")) {
      envelope.getAsJsonObject("data").add("object", JsonParser.parseString("{\"id\":\"spm_1\",\"object\":\"saved_payment_method\",\"status\":\"active\"}"));
    }
    return new Event(envelope);
  }
}
