package dev.paygate;

import java.time.Duration;

/** How the client waits between attempts; tests inject one that records the waits instead. */
@FunctionalInterface
public interface Sleeper {
  void sleep(Duration duration) throws InterruptedException;
}
