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
import java.util.function.Function;

/**
 * Every item of a cursor list, fetched page by page as the caller iterates: follows next_cursor
 * while has_more is true; each page is one GET (retried like any GET); the cursor stays inside.
 */
final class PageWalker<T> implements Iterator<T> {
  private final RequestSender sender;
  private final String path;
  private final Map<String, String> filters;
  private final Function<JsonObject, T> make;
  private final Deque<T> buffered = new ArrayDeque<>();
  private String cursor;
  private boolean lastPageRead;

  PageWalker(RequestSender sender, String path, Map<String, String> filters, Function<JsonObject, T> make) {
    this.sender = sender;
    this.path = path;
    this.filters = filters;
    this.make = make;
  }

  @Override
  public boolean hasNext() {
    while (buffered.isEmpty() && !lastPageRead) fetchPage();
    return !buffered.isEmpty();
  }

  @Override
  public T next() {
    if (!hasNext()) throw new NoSuchElementException();
    return buffered.removeFirst();
  }

  private void fetchPage() {
    Map<String, String> query = new LinkedHashMap<>(filters);
    if (cursor != null) query.put("cursor", cursor);
    JsonObject page = sender.get(path, query).body();
    JsonElement data = page.get("data");
    if (data != null && data.isJsonArray()) {
      JsonArray items = data.getAsJsonArray();
      for (JsonElement item : items) {
        if (item.isJsonObject()) buffered.addLast(make.apply(item.getAsJsonObject()));
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
