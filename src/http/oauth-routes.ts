import { Elysia } from "elysia";
import type { AppDeps } from "./app.ts";

// Placeholder: filled in by its issue.
export function oauthRoutes(_deps: AppDeps) {
  return new Elysia({ name: "oauth" });
}
