// Every error becomes an HTTP response here, in one place. Unknown errors are logged and become a
// generic 500: no stack or internal message ever reaches the client.
import type { Logger } from "../../log.ts";
import { fromSdkError, OAuthProblem } from "../../oauth/protocol/errors.ts";
import { json, jsonNoStore } from "../responses.ts";

/** An expected failure with a status and a message safe to show. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AppError";
  }
}

function validationSummary(error: unknown): string {
  const e = error as { all?: Array<{ path?: string; summary?: string; message?: string }> };
  const first = e.all?.[0];
  if (!first) return "the request is malformed";
  const field = (first.path ?? "").replace(/^\//, "");
  return field ? `${field}: ${first.summary ?? first.message ?? "invalid"}` : first.summary ?? "the request is malformed";
}

export function mapError(code: string | number, error: unknown, log: Logger, path: string): Response {
  // A body parser of ours threw (e.g. a body over its limit): Elysia wraps that as PARSE with a cause.
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (code === "PARSE" && (cause instanceof AppError || cause instanceof OAuthProblem || fromSdkError(cause))) error = cause;
  // The SDK's own OAuthError (its auth helpers throw it) gets the same RFC 6749 answer as ours.
  error = fromSdkError(error) ?? error;
  if (error instanceof OAuthProblem) {
    return jsonNoStore(error.status, error.toJSON(), error.headers);
  }
  if (error instanceof AppError) {
    return json(error.status, { error: error.code, error_description: error.message }, error.headers);
  }
  switch (code) {
    case "VALIDATION":
      return json(400, { error: "invalid_request", error_description: validationSummary(error) });
    case "PARSE":
      return json(400, { error: "invalid_request", error_description: "the request body could not be parsed" });
    case "NOT_FOUND":
      return json(404, { error: "not_found", error_description: "no such endpoint" });
  }
  log.error("unhandled error", { path, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  return internalError();
}

/** The generic 500: nothing about the cause reaches the client (it is logged instead). */
export function internalError(headers: Record<string, string> = {}): Response {
  return json(500, { error: "server_error", error_description: "internal error" }, headers);
}
