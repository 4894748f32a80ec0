import { Elysia } from "elysia";
import type { AppDeps } from "./app.ts";

// Placeholder: filled in by its issue.
export function mcpRoutes(_deps: AppDeps) {
  return new Elysia({ name: "mcp" });
}
