package dev.paygate;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/** {@code client.transactions()}: every transaction matching the filters, page by page. */
public final class TransactionService {
  private final RequestSender sender;

  TransactionService(RequestSender sender) {
    this.sender = sender;
  }

  /**
   * Every matching transaction, newest first. Nothing is requested until iteration starts; each
   * page is one GET (retried like any GET); the cursor stays inside. Each {@code iterator()} walks
   * from the first page again.
   */
  public Iterable<Transaction> list(TransactionListParams params) {
    return () -> new PageWalker(params.query());
  }

  public Iterable<Transaction> list() {
    return list(TransactionListParams.builder().build());
  }

  /** The same walk as a sequential {@link Stream}. */
  public Stream<Transaction> stream(TransactionListParams params) {
    return StreamSupport.stream(list(params).spliterator(), false);
  }

  private final class PageWalker implements Iterator<Transaction> {
    private final Map<String, String> filters;
    private final Deque<Transaction> buffered = new ArrayDeque<>();
    private String cursor;
    private boolean lastPageRead;

    PageWalker(Map<String, String> filters) {
      this.filters = filters;
    }

    @Override
    public boolean hasNext() {
      while (buffered.isEmpty() && !lastPageRead) fetchPage();
      return !buffered.isEmpty();
    }

    @Override
    public Transaction next() {
      if (!hasNext()) throw new NoSuchElementException();
      return buffered.removeFirst();
    }

    private void fetchPage() {
      Map<String, String> query = new LinkedHashMap<>(filters);
      if (cursor != null) query.put("cursor", cursor);
      JsonObject page = sender.get("/v1/transactions", query).body();
      JsonElement data = page.get("data");
      if (data != null && data.isJsonArray()) {
        JsonArray items = data.getAsJsonArray();
        for (JsonElement item : items) {
          if (item.isJsonObject()) buffered.addLast(Transaction.fromJson(item.getAsJsonObject()));
        }
      }
      String next = JsonObjects.string(page, "next_cursor");
      // A page that claims more but gives no cursor ends the walk rather than looping forever.
      if (!JsonObjects.bool(page, "has_more") || next == null || next.isEmpty()) {
        lastPageRead = true;
      } else {
        cursor = next;
      }
    }
  }
}
