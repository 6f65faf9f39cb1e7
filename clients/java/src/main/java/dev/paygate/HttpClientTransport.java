package dev.paygate;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The default transport: one shared {@link HttpClient} (thread-safe), HTTP/1.1, no redirects. */
final class HttpClientTransport implements Transport {
  static {
    // java.net.http repeats a GET once, at once, when a connection dies before the answer, and any
    // request once after a refused connect. Paygate's clients allow no retry outside their own policy
    // (counted, with back-off), so these hidden retries are switched off, unless the application
    // set the properties itself. They are read once, when the JDK's HTTP client is first used.
    // retrylimit 1 also stops redirects of other HttpClients in this JVM: see README, "Retries".
    if (System.getProperty("jdk.httpclient.redirects.retrylimit") == null) {
      System.setProperty("jdk.httpclient.redirects.retrylimit", "1");
    }
    if (System.getProperty("jdk.httpclient.disableRetryConnect") == null) {
      System.setProperty("jdk.httpclient.disableRetryConnect", "true");
    }
  }

  private final HttpClient http;

  HttpClientTransport(Duration connectTimeout) {
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(connectTimeout)
            .build();
  }

  @Override
  public HttpResponse<String> send(HttpRequest request, Duration timeout)
      throws IOException, InterruptedException {
    // HttpRequest.timeout stops at the headers; the future's deadline also covers a stalled body.
    CompletableFuture<HttpResponse<String>> future =
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new HttpTimeoutException("no complete response within " + timeout.toMillis() + " ms");
    } catch (InterruptedException e) {
      future.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) throw io;
      throw new IOException(cause == null ? "request failed" : cause.toString(), cause);
    }
  }
}
