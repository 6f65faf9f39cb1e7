package dev.paygate;

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
    return () -> new PageWalker<>(sender, "/v1/transactions", params.query(), Transaction::fromJson);
  }

  public Iterable<Transaction> list() {
    return list(TransactionListParams.builder().build());
  }

  /** The same walk as a sequential {@link Stream}. */
  public Stream<Transaction> stream(TransactionListParams params) {
    return StreamSupport.stream(list(params).spliterator(), false);
  }
}
