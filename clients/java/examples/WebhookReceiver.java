// A Paygate webhook receiver on the JDK's own HTTP server (no framework), run from source:
//
//   PAYGATE_WEBHOOK_SECRETS=whsec_... java -cp paygate-java-1.0.0.jar:gson.jar WebhookReceiver.java
//
// Register http://<host>:8000/webhooks/paygate in the back office (HTTPS in live mode).
// PAYGATE_WEBHOOK_SECRETS holds the endpoint's secret (two, comma-separated, during a rotation);
// PAYGATE_WEBHOOK_INBOX is the folder where verified events wait for your worker; PORT the port.
// It answers 2xx only once the event is on disk (written, flushed and linked under its id);
// anything else is a 500, and Paygate delivers the event again later. In a Servlet, read
// request.getInputStream().readAllBytes() the same way, before anything parses it.
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.paygate.Event;
import dev.paygate.InvalidPayloadException;
import dev.paygate.SignatureVerificationException;
import dev.paygate.Webhook;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

public final class WebhookReceiver {
  private final List<String> secrets;
  private final Path inbox;

  WebhookReceiver(List<String> secrets, Path inbox) {
    this.secrets = secrets; // every secret in use: two while a rotation is open
    this.inbox = inbox;
  }

  /**
   * 3. Stores the event once, durably, under its id; throws when it cannot. createLink is atomic
   * and fails when the id is already there (a redelivery: delivery is at least once). With a
   * database: INSERT into a table whose primary key is the event id.
   */
  void store(Event event) throws IOException {
    Files.createDirectories(inbox);
    Path pending = inbox.resolve(".incoming-" + UUID.randomUUID());
    try (FileChannel file = FileChannel.open(pending, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer json = ByteBuffer.wrap(event.toJson().getBytes(StandardCharsets.UTF_8));
      while (json.hasRemaining()) file.write(json);
      file.force(true);
    }
    try {
      Files.createLink(inbox.resolve(event.id() + ".json"), pending);
    } catch (FileAlreadyExistsException storedBefore) {
      // stored by an earlier delivery
    } finally {
      Files.delete(pending);
    }
    try (FileChannel folder = FileChannel.open(inbox, StandardOpenOption.READ)) {
      folder.force(true); // the new name is durable once the folder is synced
    }
  }

  void handle(HttpExchange exchange) throws IOException {
    int status;
    if (!exchange.getRequestMethod().equals("POST")) {
      status = 404;
    } else {
      byte[] raw = exchange.getRequestBody().readAllBytes(); // 1. the raw bytes
      String header = exchange.getRequestHeaders().getFirst("Service-Signature");
      try {
        Event event = Webhook.constructEvent(new String(raw, StandardCharsets.UTF_8), header, secrets); // 2.
        store(event);
        status = 200; // 4. answer at once; a worker reads the inbox, 5. ignoring unknown types
      } catch (SignatureVerificationException | InvalidPayloadException e) {
        System.err.println("webhook refused: " + e.getMessage()); // never log the body
        status = 400;
      } catch (IOException | RuntimeException e) {
        System.err.println("webhook not stored (" + e + "): answered 500, Paygate retries");
        status = 500;
      }
    }
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }

  public static void main(String[] args) throws IOException {
    List<String> secrets =
        Arrays.stream(System.getenv().getOrDefault("PAYGATE_WEBHOOK_SECRETS", "").split(","))
            .filter(s -> !s.isEmpty())
            .toList();
    WebhookReceiver receiver =
        new WebhookReceiver(secrets, Path.of(System.getenv().getOrDefault("PAYGATE_WEBHOOK_INBOX", "paygate-inbox")));
    int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "8000"));
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    server.createContext("/webhooks/paygate", receiver::handle);
    server.start();
  }
}
