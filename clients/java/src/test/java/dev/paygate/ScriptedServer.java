package dev.paygate;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A misbehaving HTTP server on loopback for the client's own tests: each request takes the next
 * scripted step (an answer, or a connection closed without an answer).
 */
final class ScriptedServer implements AutoCloseable {
  /** What the server saw. */
  record Seen(String method, String uri, Map<String, List<String>> headers, String body) {
    String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }
  }

  /** One scripted answer; {@code status} 0 closes the connection without answering. */
  record Step(int status, Map<String, String> headers, String body) {
    static Step json(int status, String body) {
      return new Step(status, Map.of("Content-Type", "application/json"), body);
    }

    static Step problem(int status, String code, Map<String, String> headers) {
      Map<String, String> all = new java.util.HashMap<>(headers);
      all.put("Content-Type", "application/problem+json");
      all.put("X-Request-Id", "req_" + code);
      return new Step(
          status,
          all,
          "{\"type\":\"about:blank\",\"title\":\"t\",\"status\":" + status + ",\"code\":\"" + code
              + "\",\"detail\":\"scripted\",\"amount_minor\":999999999999}");
    }

    static Step drop() {
      return new Step(0, Map.of(), "");
    }
  }

  private final HttpServer server;
  private final Deque<Step> steps = new ArrayDeque<>();
  final List<Seen> seen = new CopyOnWriteArrayList<>();

  ScriptedServer(Step... script) throws IOException {
    steps.addAll(List.of(script));
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().toString(), Map.copyOf(exchange.getRequestHeaders()), body));
    Step step;
    synchronized (steps) {
      step = steps.isEmpty() ? Step.problem(599, "script_exhausted", Map.of()) : steps.removeFirst();
    }
    if (step.status() == 0) {
      // Closing the exchange without sending headers drops the connection.
      exchange.close();
      return;
    }
    byte[] bytes = step.body().getBytes(StandardCharsets.UTF_8);
    step.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
    exchange.getResponseHeaders().add("Connection", "close");
    exchange.sendResponseHeaders(step.status(), bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
