package dev.paygate;

import com.google.gson.JsonObject;

/** The data of an HTTP error response, handed to the exception built for its code. */
record ApiError(int status, String code, JsonObject problem, String requestId, String idempotencyKey) {}
