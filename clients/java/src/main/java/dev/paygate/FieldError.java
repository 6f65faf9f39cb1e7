package dev.paygate;

/**
 * One field at fault in a 400 {@code validation_error} ({@link InvalidRequestException#fieldErrors()}).
 *
 * @param field the request field as a dotted path, e.g. {@code metadata.order_id} (or a header name)
 * @param message why it was refused
 */
public record FieldError(String field, String message) {}
