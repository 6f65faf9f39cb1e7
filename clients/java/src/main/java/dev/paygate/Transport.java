package dev.paygate;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Sends one HTTP attempt. The default uses {@link java.net.http.HttpClient}; tests inject one to
 * count attempts or see the exact headers sent. A transport that throws {@link
 * java.net.ConnectException} says the request never left (the client may then repeat even a POST).
 */
@FunctionalInterface
public interface Transport {
  /** Sends the request; the whole response (headers and body) must arrive within {@code timeout}. */
  HttpResponse<String> send(HttpRequest request, Duration timeout) throws IOException, InterruptedException;

  /** The default transport: a {@link java.net.http.HttpClient} (HTTP/1.1, no redirects), to wrap in tests. */
  static Transport httpClient(Duration connectTimeout) {
    return new HttpClientTransport(connectTimeout);
  }
}
